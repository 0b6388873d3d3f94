package org.onlinekernels.data;

import java.util.Arrays;
import java.util.Random;

/**
 * A synthetic stream shaped like hashed text or click features: dimension {@code d}, a fixed number
 * of distinct nonzeros per row, feature ranks drawn from a Zipf law (exponent {@code s}) and spread
 * over {@code [0, d)} by a multiplicative hash (so frequent features are not neighbours), values 1,
 * and binary labels drawn from a logistic model whose true weights are sparse (a fraction of the
 * coordinates, Gaussian). Deterministic for a seed; rows of different seeds with the same model
 * seed come from the same true model (a test set: another row seed).
 */
public final class HashedZipfStream {
  /** Dimension of the parallel-training figures: 2^20. */
  public static final int DIMENSION = 1 << 20;

  /** Nonzeros per row of the parallel-training figures. */
  public static final int NONZEROS = 40;

  /** Zipf exponent of the parallel-training figures. */
  public static final double EXPONENT = 1.1;

  /** Fraction of coordinates with a nonzero true weight. */
  public static final double MODEL_DENSITY = 0.05;

  private final int d;
  private final int nnz;
  private final double[] cdf;
  private final double[] trueWeights;

  /**
   * @param d dimension, a power of two {@code >= 2 * nnz}
   * @param nnz distinct nonzeros per row, {@code >= 1}
   * @param exponent Zipf exponent {@code s > 0}
   * @param modelSeed seed of the true weights
   */
  public HashedZipfStream(int d, int nnz, double exponent, long modelSeed) {
    if (Integer.bitCount(d) != 1 || nnz < 1 || d < 2 * nnz) {
      throw new IllegalArgumentException(
          "need d a power of two >= 2 * nnz and nnz >= 1, got d = " + d + ", nnz = " + nnz);
    }
    if (!(exponent > 0) || Double.isInfinite(exponent)) {
      throw new IllegalArgumentException("Zipf exponent must be finite and > 0, got " + exponent);
    }
    this.d = d;
    this.nnz = nnz;
    this.cdf = new double[d];
    double sum = 0;
    for (int r = 0; r < d; r++) {
      sum += Math.pow(r + 1, -exponent);
      cdf[r] = sum;
    }
    for (int r = 0; r < d; r++) {
      cdf[r] /= sum;
    }
    Random m = new Random(modelSeed);
    this.trueWeights = new double[d];
    for (int i = 0; i < d; i++) {
      if (m.nextDouble() < MODEL_DENSITY) {
        trueWeights[i] = m.nextGaussian();
      }
    }
  }

  /**
   * The stream of the parallel-training figures (2^20, 40 nonzeros, exponent 1.1) for a model seed.
   */
  public static HashedZipfStream standard(long modelSeed) {
    return new HashedZipfStream(DIMENSION, NONZEROS, EXPONENT, modelSeed);
  }

  /**
   * The feature index of Zipf rank {@code r}: an odd multiplier is a bijection of {@code [0, d)}.
   */
  private int hash(int rank) {
    return (int) ((rank * 0x9E3779B97F4A7C15L) & (d - 1));
  }

  /** A copy of the true weights. */
  public double[] trueWeights() {
    return trueWeights.clone();
  }

  /**
   * {@code n} rows drawn with {@code rowSeed}.
   *
   * @param n number of rows
   * @param rowSeed seed of the rows and their labels
   * @return the rows, labels {@code +1 / -1}, dimension {@code d}
   */
  public SparseDataset rows(int n, long rowSeed) {
    Random r = new Random(rowSeed);
    SparseDataset.Builder b = new SparseDataset.Builder().minDimension(d);
    int[] idx = new int[nnz];
    double[] val = new double[nnz];
    Arrays.fill(val, 1.0);
    for (int row = 0; row < n; row++) {
      int count = 0;
      while (count < nnz) {
        int rank = Arrays.binarySearch(cdf, r.nextDouble());
        int i = hash(rank < 0 ? Math.min(-rank - 1, d - 1) : rank);
        boolean seen = false;
        for (int j = 0; j < count; j++) {
          seen |= idx[j] == i;
        }
        if (!seen) {
          idx[count++] = i;
        }
      }
      Arrays.sort(idx);
      double margin = 0;
      for (int j = 0; j < nnz; j++) {
        margin += trueWeights[idx[j]];
      }
      double label = r.nextDouble() < 1 / (1 + Math.exp(-margin)) ? 1 : -1;
      b.addRow(label, idx, val, nnz);
    }
    return b.build();
  }
}
