package org.onlinekernels.bench.workload.hand;

import java.util.Arrays;
import org.onlinekernels.bench.workload.Workload;

/**
 * Per-coordinate AdaGrad as a user would write it in an afternoon: one fused loop over the CSR
 * arrays, plain {@code float[]} for {@code w} and {@code Q} per output, the logistic loss and its
 * derivative written inline.
 *
 * <p>Exactly the library's rule in its evaluation order ({@code FloatAdaGradScalarKernel.step} and
 * {@code sparseUnboundedRange}: {@code Q_i += g_i^2}, {@code w_i -= (eta g_i) / (delta +
 * sqrt(Q_i))} where the denominator is positive) with the defaults of {@code AlgorithmSpec}'s
 * {@code adagrad}: {@code eta = 1}, {@code delta = 0}, {@code Q0 = 0}, no box.
 *
 * <p>Source of the generated {@code Double} twin (pom: bench twins): edit only this file.
 */
public final class FloatHandAdaGrad extends HandLoop {
  private static final float ETA = (float) 1;
  private static final float DELTA = (float) 0;

  private final float[][] w;
  private final float[][] q;

  /**
   * A fresh model for {@code wl}; {@code bound}: also accumulate the agreement bound (see {@link
   * HandLoop}).
   */
  public FloatHandAdaGrad(Workload wl, boolean bound) {
    super(wl, bound, Math.ulp((float) 1) / 2);
    w = new float[outputs][wl.d];
    q = new float[outputs][wl.d];
  }

  @Override
  public void reset() {
    for (int k = 0; k < outputs; k++) {
      Arrays.fill(w[k], 0);
      Arrays.fill(q[k], 0);
    }
    boundSum = 0;
  }

  @Override
  public double pass() {
    final int[] start = wl.start;
    final int[] idx = wl.idx;
    final float[] val = wl.floatValues;
    double lossSum = 0;
    for (int r = 0; r < wl.n; r++) {
      final int s = start[r];
      final int e = start[r + 1];
      double rowLoss = 0;
      for (int k = 0; k < outputs; k++) {
        final float[] wk = w[k];
        final float[] qk = q[k];
        float yh = 0;
        double abs = 0;
        for (int j = s; j < e; j++) {
          final float t = wk[idx[j]] * val[j];
          yh += t;
          if (bound) abs += Math.abs(t);
        }
        final double y = wl.target(r, k);
        final double yhat = yh;
        // Logistic loss and derivative in Loss.LOGISTIC's stable form, sharing exp(-|z|).
        final double z = y * yhat;
        final double ez = Math.exp(-Math.abs(z));
        rowLoss += z > 0 ? Math.log1p(ez) : -z + Math.log1p(ez);
        final float g = (float) (z >= 0 ? -y * ez / (1 + ez) : -y / (1 + ez));
        if (bound) boundSum += gammaTimes(e - s, abs);
        for (int j = s; j < e; j++) {
          final int i = idx[j];
          final float gi = g * val[j];
          final float qn = qk[i] + gi * gi;
          qk[i] = qn;
          final float denom = DELTA + (float) Math.sqrt(qn);
          if (denom > 0) wk[i] = wk[i] - (ETA * gi) / denom;
        }
      }
      lossSum += rowLoss;
    }
    return lossSum / wl.n;
  }

  @Override
  public double stateChecksum() {
    double s = 0;
    for (float[] row : w) {
      for (float v : row) {
        if (!Float.isFinite(v))
          throw new IllegalStateException("hand-written AdaGrad state is not finite: " + v);
        s += v;
      }
    }
    return s;
  }
}
