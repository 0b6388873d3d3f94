package org.onlinekernels.kernel.scalar;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * ScInOL2 over one sparse row, the body of every layout: the four state variables of coordinate
 * {@code i} are the elements {@code f * step + i * stride} of one segment, field {@code f} = 0
 * {@code G}, 1 {@code S2}, 2 {@code M}, 3 {@code eta}. Planar state (four blocks of {@code d}) is
 * {@code step = d, stride = 1}; interleaved state (a coordinate's four values adjacent, one cache
 * line per random coordinate instead of four) is {@code step = 1, stride = 4}. Dense input on
 * interleaved state is the same body over the identity index.
 *
 * <p>The row and the per-entry scratch are Java arrays, the state a segment. Why arrays: C2
 * speculates on a loop's long segment offsets ({@code from + j} over a row's base) through
 * profiled loop predicates, and with a base that moves from row to row those traps fired on
 * every few thousand rows, each one a deoptimization, for seconds (measured: a trainer pass at
 * 15 us per row instead of 0.7 until C2 gave up speculating; {@code -XX:-UseProfiledLoopPredicate}
 * removed it). Array indices are ints that classic range-check elimination handles.
 *
 * <p>A round is two passes over the row: {@link #predict} reads each coordinate's state once and
 * writes nothing but the caller's scratch (the round's {@code w_j} and new {@code M_j}), so a
 * gradient refused between the passes leaves the state untouched; {@link #update} then writes
 * {@code G, S2, M, eta} of the same coordinates, still in L1. The per-lane rules are
 * {@link FloatScInOL2ScalarKernel#weight} and {@link FloatScInOL2ScalarKernel#eta}, so the state
 * agrees bit for bit with every other ScInOL2 kernel. Plain Java on purpose: random coordinates
 * leave nothing contiguous for vector loads, and scalar code is at full speed from the first
 * compiled call (no boxed vectors before C2). Source of the generated {@code Double} twin.
 */
public final class FloatScInOL2Round {
  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;

  /** Number of state variables per coordinate. */
  public static final int FIELDS = 4;

  private FloatScInOL2Round() {}

  /**
   * {@code yhat} of entries {@code [from, from + nnz)} of {@code idx}/{@code val}; entry {@code j}'s
   * weight goes to {@code w[j]} and its new {@code M} to {@code m[j]}. Sums in four interleaved
   * partial sums, entry {@code j} into sum {@code j mod 4}, combined as {@code (s0 + s1) + (s2 + s3)}.
   */
  public static float predict(
      MemorySegment st, long step, long stride, int[] idx, float[] val, int from, int nnz, float[] w, float[] m) {
    float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    int j = 0;
    for (; j + 3 < nnz; j += 4) {
      a0 += one(st, step, stride, idx, val, from, j, w, m);
      a1 += one(st, step, stride, idx, val, from, j + 1, w, m);
      a2 += one(st, step, stride, idx, val, from, j + 2, w, m);
      a3 += one(st, step, stride, idx, val, from, j + 3, w, m);
    }
    for (; j < nnz; j++) {
      float c = one(st, step, stride, idx, val, from, j, w, m);
      switch (j & 3) {
        case 0 -> a0 += c;
        case 1 -> a1 += c;
        default -> a2 += c;
      }
    }
    return (a0 + a1) + (a2 + a3);
  }

  private static float one(
      MemorySegment st, long step, long stride, int[] idx, float[] val, int from, int j, float[] w, float[] m) {
    long b = idx[from + j] * stride;
    float x = val[from + j];
    float mi = Math.max(st.getAtIndex(E, 2 * step + b), Math.abs(x));
    float wj = FloatScInOL2ScalarKernel.weight(
        st.getAtIndex(E, b), st.getAtIndex(E, step + b) + mi * mi, st.getAtIndex(E, 3 * step + b));
    w[j] = wj;
    m[j] = mi;
    // x == 0 contributes exactly 0 even where w is infinite.
    return x != 0 ? x * wj : 0;
  }

  /** Writes {@code M} from {@code m} only: the predict half of a round whose update comes later. */
  public static void commitM(MemorySegment st, long step, long stride, int[] idx, int from, int nnz, float[] m) {
    for (int j = 0; j < nnz; j++) {
      st.setAtIndex(E, 2 * step + idx[from + j] * stride, m[j]);
    }
  }

  /**
   * The update of the round {@link #predict} began, with {@code g = dLoss/dyhat}: {@code G}, {@code
   * S2}, {@code eta} from the predict's {@code w}, and {@code M} from its {@code m}.
   */
  public static void update(
      MemorySegment st, long step, long stride, int[] idx, float[] val, int from, int nnz, float[] w, float[] m,
      float g) {
    for (int j = 0; j < nnz; j++) {
      long b = idx[from + j] * stride;
      float gx = g * val[from + j];
      st.setAtIndex(E, b, st.getAtIndex(E, b) - gx);
      st.setAtIndex(E, step + b, st.getAtIndex(E, step + b) + gx * gx);
      st.setAtIndex(E, 2 * step + b, m[j]);
      st.setAtIndex(E, 3 * step + b, FloatScInOL2ScalarKernel.eta(st.getAtIndex(E, 3 * step + b), gx, w[j]));
    }
  }

  /** Weight read-out of coordinates {@code [0, n)} into {@code out} (contiguous). */
  public static void weights(MemorySegment st, long step, long stride, MemorySegment out, int n) {
    for (int i = 0; i < n; i++) {
      long b = i * stride;
      float mi = st.getAtIndex(E, 2 * step + b);
      out.setAtIndex(E, i, FloatScInOL2ScalarKernel.weight(
          st.getAtIndex(E, b), st.getAtIndex(E, step + b) + mi * mi, st.getAtIndex(E, 3 * step + b)));
    }
  }
}
