package org.onlinekernels.bench.workload.hand;

import java.util.Arrays;
import org.onlinekernels.bench.workload.Workload;
import org.onlinekernels.rules.scinol2.ScInOL2;

/**
 * ScInOL2 as a user would write it in an afternoon: one fused loop over the CSR arrays, plain
 * {@code float[]} per state variable and per output, the round's weights kept in a small scratch
 * array between predict and update, the logistic loss and its derivative written inline.
 *
 * <p>It does exactly the library's rule in the library's evaluation order ({@code ScInOL2Kernel}'s
 * javadoc; {@code FloatScInOL2ScalarKernel.weight/eta}, including the wealth cap), with {@code
 * epsilon = 1} ({@code ScInOLParams.defaults()}), so its state agrees with the library's bit for
 * bit and only the order of the {@code yhat} sum may differ.
 *
 * <p>Source of the generated {@code Double} twin (pom: bench twins): edit only this file.
 */
public final class FloatHandScInOL2 extends HandLoop {
  private static final float CAP = (float) ScInOL2.FLOAT_WEALTH_CAP;
  private static final float EPSILON = (float) 1;

  private final float[][] bigG;
  private final float[][] s2;
  private final float[][] m;
  private final float[][] eta;
  private final float[] w;

  /**
   * A fresh model for {@code wl}; {@code bound}: also accumulate the agreement bound (see {@link
   * HandLoop}).
   */
  public FloatHandScInOL2(Workload wl, boolean bound) {
    super(wl, bound, Math.ulp((float) 1) / 2);
    bigG = new float[outputs][wl.d];
    s2 = new float[outputs][wl.d];
    m = new float[outputs][wl.d];
    eta = new float[outputs][wl.d];
    w = new float[wl.maxNnz];
    reset();
  }

  @Override
  public void reset() {
    for (int k = 0; k < outputs; k++) {
      Arrays.fill(bigG[k], 0);
      Arrays.fill(s2[k], 0);
      Arrays.fill(m[k], 0);
      Arrays.fill(eta[k], EPSILON);
    }
    boundSum = 0;
  }

  @Override
  public double pass() {
    final int[] start = wl.start;
    final int[] idx = wl.idx;
    final float[] val = wl.floatValues;
    final float[] wr = w;
    double lossSum = 0;
    for (int r = 0; r < wl.n; r++) {
      final int s = start[r];
      final int e = start[r + 1];
      double rowLoss = 0;
      for (int k = 0; k < outputs; k++) {
        final float[] gk = bigG[k];
        final float[] sk = s2[k];
        final float[] mk = m[k];
        final float[] ek = eta[k];
        float yh = 0;
        double abs = 0;
        for (int j = s; j < e; j++) {
          final int i = idx[j];
          final float x = val[j];
          final float mi = Math.max(mk[i], Math.abs(x));
          mk[i] = mi;
          final float sq = (float) Math.sqrt(sk[i] + mi * mi);
          float wi = 0;
          if (sq != 0) {
            final float theta = gk[i] / sq;
            final float c = theta > 1 ? 1 : theta < -1 ? -1 : theta;
            wi = c * ek[i] / (2 * sq);
          }
          wr[j - s] = wi;
          final float t = x != 0 ? x * wi : 0;
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
          final float gx = g * val[j];
          gk[i] = gk[i] - gx;
          sk[i] = sk[i] + gx * gx;
          if (gx != 0) ek[i] = Math.max(-CAP, Math.min(ek[i] - gx * wr[j - s], CAP));
        }
      }
      lossSum += rowLoss;
    }
    return lossSum / wl.n;
  }

  @Override
  public double stateChecksum() {
    return checksum(eta) + checksum(bigG);
  }

  private static double checksum(float[][] a) {
    double s = 0;
    for (float[] row : a) {
      for (float v : row) {
        if (!Float.isFinite(v))
          throw new IllegalStateException("hand-written ScInOL2 state is not finite: " + v);
        s += v;
      }
    }
    return s;
  }
}
