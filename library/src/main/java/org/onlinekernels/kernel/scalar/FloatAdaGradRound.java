package org.onlinekernels.kernel.scalar;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * AdaGrad (scalar rate, one box for all coordinates) over one sparse row, the body of every
 * layout: {@code w_i} and {@code Q_i} are the elements {@code i * stride} and {@code step + i *
 * stride} of one segment. Planar state is {@code step = d, stride = 1}; interleaved state (a
 * coordinate's {@code w} and {@code Q} adjacent: one cache line per random coordinate instead of
 * two) is {@code step = 1, stride = 2}. Dense input on interleaved state is the same body over
 * the identity index.
 *
 * <p>Row as arrays, state as a segment: see {@link FloatScInOL2Round} for why. {@link #predict} only reads; {@link #update} applies {@link FloatAdaGradScalarKernel#step}'s
 * operations in its order, so the state agrees bit for bit with the other AdaGrad kernels. Plain
 * Java for the reasons given on {@link FloatScInOL2Round}. Source of the generated {@code Double}
 * twin.
 */
public final class FloatAdaGradRound {
  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;

  /** Number of state variables per coordinate. */
  public static final int FIELDS = 2;

  private FloatAdaGradRound() {}

  /**
   * {@code yhat = sum_j x_j w_{idx_j}} over entries {@code [from, from + nnz)}, in four interleaved
   * partial sums (entry {@code j} into sum {@code j mod 4}) combined as {@code (s0 + s1) + (s2 + s3)}.
   */
  public static float predict(MemorySegment st, long stride, int[] idx, float[] val, int from, int nnz) {
    float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    int j = 0;
    for (; j + 3 < nnz; j += 4) {
      int e = from + j;
      a0 += val[e] * st.getAtIndex(E, idx[e] * stride);
      a1 += val[e + 1] * st.getAtIndex(E, idx[e + 1] * stride);
      a2 += val[e + 2] * st.getAtIndex(E, idx[e + 2] * stride);
      a3 += val[e + 3] * st.getAtIndex(E, idx[e + 3] * stride);
    }
    for (; j < nnz; j++) {
      float c = val[from + j] * st.getAtIndex(E, idx[from + j] * stride);
      switch (j & 3) {
        case 0 -> a0 += c;
        case 1 -> a1 += c;
        default -> a2 += c;
      }
    }
    return (a0 + a1) + (a2 + a3);
  }

  /**
   * {@code g_j = scale * x_j}, {@code Q += g_j^2}, {@code w = clamp(w - (eta g_j) / (delta + sqrt Q),
   * lo, hi)} (unchanged where the denominator is 0). An infinite box skips the clamp, which is
   * then the identity bit for bit.
   */
  public static void update(
      MemorySegment st, long step, long stride, int[] idx, float[] val, int from, int nnz,
      float scale, float eta, float delta, float lo, float hi) {
    boolean unbounded = lo == Float.NEGATIVE_INFINITY && hi == Float.POSITIVE_INFINITY;
    for (int j = 0; j < nnz; j++) {
      long b = idx[from + j] * stride;
      float g = scale * val[from + j];
      float qn = st.getAtIndex(E, step + b) + g * g;
      st.setAtIndex(E, step + b, qn);
      float denom = delta + (float) Math.sqrt(qn);
      if (denom > 0) {
        float w = st.getAtIndex(E, b) - (eta * g) / denom;
        st.setAtIndex(E, b, unbounded ? w : Math.min(Math.max(w, lo), hi));
      }
    }
  }

  /** Copies {@code w} of coordinates {@code [0, n)} into {@code out} (contiguous). */
  public static void weights(MemorySegment st, long stride, MemorySegment out, int n) {
    for (int i = 0; i < n; i++) {
      out.setAtIndex(E, i, st.getAtIndex(E, i * stride));
    }
  }
}
