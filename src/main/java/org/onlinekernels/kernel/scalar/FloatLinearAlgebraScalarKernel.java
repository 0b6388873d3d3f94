package org.onlinekernels.kernel.scalar;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.LinearAlgebraKernel;

/**
 * Scalar float reductions. Source of the generated {@code Double} twin: edit only this file.
 * Four interleaved partial sums keep the rounding-error chain about n/4 long, like the vector
 * kernel's, so one tolerance covers both.
 */
public final class FloatLinearAlgebraScalarKernel extends LinearAlgebraKernel {
  /** The one instance. */
  public static final FloatLinearAlgebraScalarKernel INSTANCE = new FloatLinearAlgebraScalarKernel();

  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

  private FloatLinearAlgebraScalarKernel() {
    super(ElementType.FLOAT);
  }

  /** {@code sum a_i b_i} over {@code [from, to)}; also the vector kernel's tail. */
  public static float dotRange(MemorySegment a, MemorySegment b, int from, int to) {
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int i = from;
    for (; i + 3 < to; i += 4) {
      s0 += a.getAtIndex(E, i) * b.getAtIndex(E, i);
      s1 += a.getAtIndex(E, i + 1) * b.getAtIndex(E, i + 1);
      s2 += a.getAtIndex(E, i + 2) * b.getAtIndex(E, i + 2);
      s3 += a.getAtIndex(E, i + 3) * b.getAtIndex(E, i + 3);
    }
    for (; i < to; i++) {
      s0 += a.getAtIndex(E, i) * b.getAtIndex(E, i);
    }
    return (s0 + s1) + (s2 + s3);
  }

  /** {@code sum val_j w[idx_j]} over entries {@code [from, to)}. */
  public static float dotSparseRange(MemorySegment w, MemorySegment idx, MemorySegment val, int from, int to) {
    float s0 = 0, s1 = 0;
    int j = from;
    for (; j + 1 < to; j += 2) {
      s0 += val.getAtIndex(E, j) * w.getAtIndex(E, idx.getAtIndex(I, j));
      s1 += val.getAtIndex(E, j + 1) * w.getAtIndex(E, idx.getAtIndex(I, j + 1));
    }
    for (; j < to; j++) {
      s0 += val.getAtIndex(E, j) * w.getAtIndex(E, idx.getAtIndex(I, j));
    }
    return s0 + s1;
  }

  @Override
  protected double dotImpl(MemorySegment a, MemorySegment b, int n) {
    return dotRange(a, b, 0, n);
  }

  @Override
  protected double dotSparseImpl(MemorySegment w, MemorySegment idx, MemorySegment val, int nnz) {
    return dotSparseRange(w, idx, val, 0, nnz);
  }

  @Override
  protected double sumOfSquaresImpl(MemorySegment x, int n) {
    return dotRange(x, x, 0, n);
  }

  @Override
  protected void dotAndSumOfSquaresImpl(MemorySegment a, MemorySegment x, int n, double[] out) {
    out[0] = dotRange(a, x, 0, n);
    out[1] = dotRange(x, x, 0, n);
  }

  @Override
  protected void dotAndSumOfSquaresSparseImpl(
      MemorySegment a, MemorySegment idx, MemorySegment val, int nnz, double[] out) {
    out[0] = dotSparseRange(a, idx, val, 0, nnz);
    out[1] = dotRange(val, val, 0, nnz);
  }

  @Override
  protected void gramTripleImpl(MemorySegment w, MemorySegment x, int n, double[] out) {
    out[0] = dotRange(w, w, 0, n);
    out[1] = dotRange(w, x, 0, n);
    out[2] = dotRange(x, x, 0, n);
  }

  /**
   * {@code max |x_i|} over {@code [from, to)} as a float, NaN if any element is NaN or infinite;
   * also the vector kernel's tail. {@code v - v != 0} is true exactly for NaN and the infinities.
   */
  public static float maxAbsRange(MemorySegment x, int from, int to) {
    float m = 0;
    boolean bad = false;
    for (int i = from; i < to; i++) {
      float v = x.getAtIndex(E, i);
      bad |= v - v != 0;
      m = Math.max(m, Math.abs(v));
    }
    return bad ? Float.NaN : m;
  }

  @Override
  protected double maxAbsImpl(MemorySegment x, int n) {
    return maxAbsRange(x, 0, n);
  }
}
