package org.onlinekernels.properties;

import java.util.SplittableRandom;
import org.onlinekernels.kernel.ElementType;

/**
 * The rows {@code x_t} and scalar gradients {@code g_t} of one case. Gradients are drawn
 * independently of the predictions (not from a loss), so kernel and reference receive the same
 * {@code g_t} and differ only by their own arithmetic, never by feedback through the loss.
 *
 * <p>Rows mix: per-feature scales {@code 2^e}, {@code e} in {@code [scaleLo, scaleHi]}; exact
 * zeros and {@code -0.0} stored explicitly in sparse rows; repeated rows; all-zero rows.
 * Gradients: magnitude {@code gMax * 2^-U(1,11)}; per case the sign flips every ~8 rounds,
 * every ~64, or never. For float cases
 * every value is rounded to float first, so the reference sees exactly the kernel's inputs.
 */
final class Workload {
  final double[][] dense;
  final int[][] idx;
  final double[][] val;
  final double[] g;

  Workload(Case c, double gMax) {
    SplittableRandom r = new SplittableRandom(c.seed());
    int d = c.d(), n = c.warmup() + c.rounds();
    double[] scale = new double[d];
    for (int i = 0; i < d; i++) {
      scale[i] = Math.scalb(1.0, c.scaleLo() + r.nextInt(c.scaleHi() - c.scaleLo() + 1));
    }
    dense = new double[n][];
    idx = new int[n][];
    val = new double[n][];
    g = new double[n];
    double sign = 1;
    // Per case: a sign flip every ~8 rounds, every ~64, or never (one sign for the whole run).
    int flipOdds = new int[] {8, 64, 0}[r.nextInt(3)];
    for (int t = 0; t < n; t++) {
      int kind = r.nextInt(10);
      if (t > 0 && kind == 0) {
        dense[t] = dense[t - 1];
        idx[t] = idx[t - 1];
        val[t] = val[t - 1];
      } else {
        boolean allZero = kind == 1;
        double[] x = new double[d];
        int[] ix = new int[d];
        double[] vx = new double[d];
        int nnz = 0;
        for (int i = 0; i < d; i++) {
          boolean on = !allZero && r.nextDouble() < c.density();
          boolean explicitZero = !on && r.nextInt(50) == 0;
          if (on) {
            x[i] = round(c.type(), scale[i] * (0.25 + 1.75 * r.nextDouble()) * (r.nextBoolean() ? 1 : -1));
          } else if (explicitZero) {
            x[i] = r.nextBoolean() ? 0.0 : -0.0;
          }
          if (on || explicitZero) {
            ix[nnz] = i;
            vx[nnz++] = x[i];
          }
        }
        dense[t] = x;
        idx[t] = java.util.Arrays.copyOf(ix, nnz);
        val[t] = java.util.Arrays.copyOf(vx, nnz);
      }
      if (flipOdds > 0 && r.nextInt(flipOdds) == 0) {
        sign = -sign;
      }
      g[t] = round(c.type(), sign * gMax * Math.scalb(1.0 + r.nextDouble(), -r.nextInt(11) - 1));
    }
  }

  static double round(ElementType t, double v) {
    return t == ElementType.FLOAT ? (double) (float) v : v;
  }
}
