package org.onlinekernels.kernel.lanes;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Loads the state records of a sparse row before the round computes on them, so their cache misses
 * overlap. A round's compute loop (a square root and a division per nonzero in ScInOL2) is long
 * enough that the out-of-order window holds only a few nonzeros, so it would wait for the misses of
 * a large model almost one by one; this loop of a load and an OR per nonzero issues all of them at
 * once. In cache it only costs, so callers use it only for state larger than the caches' near
 * levels, and only where it measured faster (bench-report/workload.md). Java has no prefetch
 * instruction; a load whose result feeds a never-taken branch is the portable stand-in.
 */
public final class RecordTouch {
  private RecordTouch() {}

  /** Written only if the touched bits happen to equal {@link #NEVER}: keeps the loads alive. */
  private static int sink;

  private static final int NEVER = 0x7fc0_0123;

  /**
   * Touches, for each entry {@code j} of {@code [from, from + nnz)}, the bytes at {@code f *
   * stepBytes + idx[j] * strideBytes} for {@code f < fields}: one field of an interleaved record
   * ({@code fields = 1}), or each variable's element in planar state.
   */
  public static void touch(
      MemorySegment st,
      long stepBytes,
      int fields,
      long strideBytes,
      int[] idx,
      int from,
      int nnz) {
    int t = 0;
    for (int f = 0; f < fields; f++) {
      long base = f * stepBytes;
      for (int j = 0; j < nnz; j++) {
        t |= st.get(ValueLayout.JAVA_INT_UNALIGNED, base + idx[from + j] * strideBytes);
      }
    }
    if (t == NEVER) {
      sink = t;
    }
  }

  /**
   * {@link #touch} on block state that is one heap array ({@code float[]} or {@code double[]}):
   * element {@code idx[j] * stride} for each entry (one field of an interleaved record), by plain
   * array loads.
   */
  public static void touch(Object array, int stride, int[] idx, int from, int nnz) {
    int t = 0;
    if (array instanceof float[] a) {
      for (int j = 0; j < nnz; j++) {
        t |= Float.floatToRawIntBits(a[idx[from + j] * stride]);
      }
    } else {
      double[] a = (double[]) array;
      for (int j = 0; j < nnz; j++) {
        t |= (int) Double.doubleToRawLongBits(a[idx[from + j] * stride]);
      }
    }
    if (t == NEVER) {
      sink = t;
    }
  }
}
