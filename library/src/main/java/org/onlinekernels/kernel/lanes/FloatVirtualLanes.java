package org.onlinekernels.kernel.lanes;

import java.util.Arrays;

/**
 * The one summation order of every dense reduction, vector and scalar, at every vector width.
 * Source of the generated {@code Double} twin: edit only this file.
 *
 * <p>A sum over {@code n} elements is defined on {@link #LANES} <em>virtual lanes</em> (a 512-bit
 * vector: 16 floats, 8 doubles) and {@code A} accumulators (1, 2 or 4, fixed per kernel): with
 * {@code B = A * LANES}, element {@code i < n - n % B} goes to partial sum {@code i mod B}, added
 * in index order with one fused multiply-add ({@link Math#fma} in scalar code, {@code fma}
 * lane-wise in vector code); elements {@code [n - n % B, n - n % LANES)} go to lane {@code i mod
 * LANES} of accumulator 0; the accumulators are then combined lane-wise ({@link #combine}); each
 * element {@code i} of the tail {@code [n - n % LANES, n)} is fused into lane {@code i mod LANES};
 * finally the lanes are summed in a fixed tree ({@link #sum}). A vector kernel at 512 bits holds
 * one accumulator per vector register; at 256 or 128 bits each virtual accumulator is 2 or 4
 * registers, so the partial sums, and therefore the bits, are the same at every width; the scalar
 * kernels keep the partial sums in an array.
 *
 * <p>Why a fixed tree and not {@code reduceLanes(ADD)}: the Vector API may sum in one order
 * interpreted and in another once C2 intrinsifies it, so the same call could return different bits
 * before and after warm-up. The tree takes the lanes spilled to an array (one store that C2 always
 * intrinsifies): a helper that took a vector and was not inlined would get the vector boxed on the
 * heap (measured: 368-480 bytes per ScInOL predict call with a shuffle tree).
 */
public final class FloatVirtualLanes {
  private FloatVirtualLanes() {}

  /** Virtual lanes: the elements of a 512-bit vector. */
  public static final int LANES = 64 / Float.BYTES;

  /** Most accumulators a kernel uses. */
  public static final int MAX_ACCUMULATORS = 4;

  private static final ThreadLocal<float[]> SCRATCH =
      ThreadLocal.withInitial(() -> new float[MAX_ACCUMULATORS * LANES]);

  /**
   * This thread's partial-sum buffer, {@code MAX_ACCUMULATORS * LANES} long (accumulator {@code k},
   * lane {@code l} at {@code k * LANES + l}); allocated once per thread, never per call. Contents
   * are whatever the last reduction left: clear it with {@link #clear}.
   */
  public static float[] scratch() {
    return SCRATCH.get();
  }

  /**
   * Zeroes the first {@code accumulators * LANES} partial sums (to {@code +0}, as a zero vector).
   */
  public static void clear(float[] p, int accumulators) {
    Arrays.fill(p, 0, accumulators * LANES, 0f);
  }

  /**
   * Combines {@code accumulators} (1, 2 or 4) accumulators lane-wise into lanes {@code [0, LANES)}:
   * {@code a0 + a1}, or {@code (a0 + a1) + (a2 + a3)}, as the vector kernels' {@code
   * acc0.add(acc1).add(acc2.add(acc3))}.
   */
  public static void combine(float[] p, int accumulators) {
    combine(p, 0, accumulators);
  }

  /**
   * {@link #combine(float[], int)} of the accumulators stored from {@code p[from]} on, into lanes
   * {@code [0, LANES)}.
   */
  public static void combine(float[] p, int from, int accumulators) {
    for (int l = 0; l < LANES; l++) {
      int k = from + l;
      p[l] =
          accumulators == 1
              ? p[k]
              : accumulators == 2
                  ? p[k] + p[k + LANES]
                  : (p[k] + p[k + LANES]) + (p[k + 2 * LANES] + p[k + 3 * LANES]);
    }
  }

  /**
   * Sum of lanes {@code [0, LANES)} in a fixed tree: the upper half added onto the lower, {@code
   * log2(LANES)} times (pairs {@code (k, k + half)} for {@code half = LANES/2, ..., 1}). Overwrites
   * those lanes.
   */
  public static float sum(float[] p) {
    for (int half = LANES >> 1; half > 0; half >>= 1) {
      for (int k = 0; k < half; k++) {
        p[k] = p[k] + p[k + half];
      }
    }
    return p[0];
  }
}
