package org.onlinekernels.testkit;

import java.util.SplittableRandom;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.SparseRows;

/**
 * The rows {@code x_t} and scalar gradients {@code g_t} of one case. Gradients are drawn
 * independently of the predictions (not from a loss), so kernel and reference receive the same
 * {@code g_t} and differ only by their own arithmetic, never by feedback through the loss.
 *
 * <p>Rows mix: per-feature scales {@code 2^e}, {@code e} in {@code [scaleLo, scaleHi]}; exact zeros
 * and {@code -0.0} stored explicitly in sparse rows; repeated rows; all-zero rows. Gradients:
 * magnitude {@code gMax * 2^-U(1,11)}; per case the sign flips every ~8 rounds, every ~64, or
 * never. For float cases every value is rounded to float first, so the reference sees exactly the
 * kernel's inputs.
 *
 * <p>Rows are shared between repeated rounds; treat the arrays as read-only.
 */
public final class Workload {
  /** Round {@code t}'s row, dense ({@code d} values, zeros included). */
  public final double[][] dense;

  /** Round {@code t}'s sparse indices, strictly increasing (explicit zeros included). */
  public final int[][] idx;

  /** Round {@code t}'s sparse values, aligned with {@link #idx}. */
  public final double[][] val;

  /** Round {@code t}'s gradient {@code g = dLoss/dyhat}. */
  public final double[] g;

  /** The rows and gradients of {@code c}, gradients of magnitude at most {@code gMax}. */
  public Workload(Case c, double gMax) {
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
            x[i] =
                round(
                    c.type(),
                    scale[i] * (0.25 + 1.75 * r.nextDouble()) * (r.nextBoolean() ? 1 : -1));
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

  private Workload(double[][] dense, int[][] idx, double[][] val, double[] g) {
    this.dense = dense;
    this.idx = idx;
    this.val = val;
    this.g = g;
  }

  /**
   * The same rounds with feature {@code i} multiplied by {@code factor[i]} (powers of two keep
   * every value exact), gradients unchanged: the input of the scale-invariance property.
   */
  public Workload scaled(double[] factor) {
    int n = g.length;
    double[][] sd = new double[n][], sv = new double[n][];
    for (int t = 0; t < n; t++) {
      if (t > 0 && dense[t] == dense[t - 1]) {
        sd[t] = sd[t - 1];
        sv[t] = sv[t - 1];
        continue;
      }
      sd[t] = dense[t].clone();
      sv[t] = val[t].clone();
      for (int i = 0; i < sd[t].length; i++) {
        sd[t][i] *= factor[i];
      }
      for (int j = 0; j < sv[t].length; j++) {
        sv[t][j] *= factor[idx[t][j]];
      }
    }
    return new Workload(sd, idx, sv, g);
  }

  /**
   * Label of round {@code r} for a run driven by a loss: {@code -sign(g_r)}, so that a
   * classification loss's derivative has the workload's sign and keeps its one-sign runs.
   */
  public double label(int r) {
    return g[r] > 0 ? -1 : 1;
  }

  /**
   * Every round's sparse row (explicit zeros and {@code -0.0} included) as validated rows of {@code
   * t}.
   */
  public SparseRows rows(ElementType t) {
    int n = idx.length;
    int[] start = new int[n + 1];
    for (int r = 0; r < n; r++) {
      start[r + 1] = start[r] + idx[r].length;
    }
    int[] allIdx = new int[start[n]];
    double[] allVal = new double[start[n]];
    for (int r = 0; r < n; r++) {
      System.arraycopy(idx[r], 0, allIdx, start[r], idx[r].length);
      System.arraycopy(val[r], 0, allVal, start[r], val[r].length);
    }
    return SparseRows.of(start, allIdx, allVal, t);
  }

  /** {@code v} rounded to the element type {@code t} (unchanged for double). */
  public static double round(ElementType t, double v) {
    return t == ElementType.FLOAT ? (double) (float) v : v;
  }
}
