package org.onlinekernels.reference;

import java.util.SplittableRandom;

/** Seeded random instances and gradients, dense and in an equivalent sparse form. */
final class TestData {
  private TestData() {}

  /** A sparse vector as (idx, val, nnz); the arrays may be longer than nnz. */
  record Sp(int[] idx, double[] val, int nnz) {}

  /**
   * A dense vector with about {@code zeroFrac} zeros; nonzeros are Gaussian times a magnitude
   * log-uniform in [0.1, 10]. Coordinate {@code d - 1} stays 0 while {@code round < lateRound}, so
   * it is first seen late.
   */
  static double[] dense(SplittableRandom r, int d, double zeroFrac, int round, int lateRound) {
    double[] x = new double[d];
    for (int i = 0; i < d; i++) {
      if (i == d - 1 && round < lateRound) continue;
      if (r.nextDouble() < zeroFrac) continue;
      x[i] = gaussian(r) * Math.pow(10, r.nextDouble(-1, 1));
    }
    return x;
  }

  static double gaussian(SplittableRandom r) {
    // Box-Muller; SplittableRandom has no nextGaussian in every JDK release of interest.
    double u = 1 - r.nextDouble();
    double v = r.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /**
   * The sparse form of {@code x}: every nonzero, plus each zero coordinate with probability 0.25 as
   * an explicit +0.0 or -0.0 (which must mean the same as absent), plus junk past {@code nnz}
   * (which must never be read).
   */
  static Sp sparse(SplittableRandom r, double[] x) {
    int d = x.length;
    int[] idx = new int[d + 3];
    double[] val = new double[d + 3];
    int n = 0;
    for (int i = 0; i < d; i++) {
      if (x[i] != 0) {
        idx[n] = i;
        val[n] = x[i];
        n++;
      } else if (r.nextDouble() < 0.25) {
        idx[n] = i;
        val[n] = r.nextBoolean() ? 0.0 : -0.0;
        n++;
      }
    }
    for (int k = n; k < idx.length; k++) {
      idx[k] = -7;
      val[k] = Double.NaN;
    }
    return new Sp(idx, val, n);
  }

  /** A random label in {+1, -1}. */
  static double label(SplittableRandom r) {
    return r.nextBoolean() ? 1 : -1;
  }
}
