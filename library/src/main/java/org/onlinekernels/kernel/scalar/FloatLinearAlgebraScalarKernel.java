package org.onlinekernels.kernel.scalar;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.kernel.lanes.FloatVirtualLanes;

/**
 * Scalar float reductions. Source of the generated {@code Double} twin: edit only this file. Dense
 * sums follow {@link FloatVirtualLanes}'s order with the vector kernel's accumulator count per
 * method (dot and sum of squares 4, the fused pair 2, the Gram triple 1), so both kernels return
 * the same bits at every vector width. Sparse dot products run {@link #dotSparseRange} under both
 * providers.
 */
public final class FloatLinearAlgebraScalarKernel extends LinearAlgebraKernel {
  /** The one instance. */
  public static final FloatLinearAlgebraScalarKernel INSTANCE =
      new FloatLinearAlgebraScalarKernel();

  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
  private static final int V = FloatVirtualLanes.LANES;

  private FloatLinearAlgebraScalarKernel() {
    super(ElementType.FLOAT);
  }

  /**
   * {@code sum_{i<n} a_i b_i} in {@link FloatVirtualLanes}'s order with {@code accumulators} (1, 2
   * or 4) accumulators: the vector kernel's bits.
   */
  public static float dot(MemorySegment a, MemorySegment b, int n, int accumulators) {
    float[] p = FloatVirtualLanes.scratch();
    FloatVirtualLanes.clear(p, accumulators);
    int block = accumulators * V;
    int i = 0;
    for (int bound = n - n % block; i < bound; i += block) {
      for (int c = 0; c < block; c++) {
        p[c] = Math.fma(a.getAtIndex(E, i + c), b.getAtIndex(E, i + c), p[c]);
      }
    }
    int bound1 = n - n % V;
    for (; i < bound1; i += V) {
      for (int l = 0; l < V; l++) {
        p[l] = Math.fma(a.getAtIndex(E, i + l), b.getAtIndex(E, i + l), p[l]);
      }
    }
    FloatVirtualLanes.combine(p, accumulators);
    dotTail(a, b, bound1, n, p);
    return FloatVirtualLanes.sum(p);
  }

  /**
   * The tail of a dense dot product: fuses {@code a_i b_i} into lane {@code p[i - from]} for {@code
   * i} in {@code [from, to)} ({@code to - from < LANES}); also the vector kernel's tail.
   */
  public static void dotTail(MemorySegment a, MemorySegment b, int from, int to, float[] p) {
    for (int i = from; i < to; i++) {
      p[i - from] = Math.fma(a.getAtIndex(E, i), b.getAtIndex(E, i), p[i - from]);
    }
  }

  /**
   * {@code sum val_j w[idx_j]} over entries {@code [from, to)}: the sparse dot product of both
   * providers (a row's coordinates are random, so gathering them into lanes costs more than it
   * saves; one plain loop also gives both providers the same bits).
   */
  public static float dotSparseRange(
      MemorySegment w, MemorySegment idx, MemorySegment val, int from, int to) {
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
    return dot(a, b, n, 4);
  }

  @Override
  protected double dotSparseImpl(MemorySegment w, MemorySegment idx, MemorySegment val, int nnz) {
    return dotSparseRange(w, idx, val, 0, nnz);
  }

  @Override
  protected double sumOfSquaresImpl(MemorySegment x, int n) {
    return dot(x, x, n, 4);
  }

  @Override
  protected void dotAndSumOfSquaresImpl(MemorySegment a, MemorySegment x, int n, double[] out) {
    out[0] = dot(a, x, n, 2);
    out[1] = dot(x, x, n, 2);
  }

  @Override
  protected void dotAndSumOfSquaresSparseImpl(
      MemorySegment a, MemorySegment idx, MemorySegment val, int nnz, double[] out) {
    out[0] = dotSparseRange(a, idx, val, 0, nnz);
    out[1] = dot(val, val, nnz, 4);
  }

  @Override
  protected void gramTripleImpl(MemorySegment w, MemorySegment x, int n, double[] out) {
    out[0] = dot(w, w, n, 1);
    out[1] = dot(w, x, n, 1);
    out[2] = dot(x, x, n, 1);
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

  @Override
  protected double dotMixedImpl(MemorySegment w, MemorySegment x, int n) {
    return MixedDot.dot(w, x, n);
  }

  /** {@code out = c * x} over {@code [from, to)}; also the vector kernel's tail. */
  public static void scaleRange(MemorySegment x, float c, MemorySegment out, int from, int to) {
    for (int i = from; i < to; i++) {
      out.setAtIndex(E, i, c * x.getAtIndex(E, i));
    }
  }

  // The Double twin (generated by renaming) casts a double to double here.
  @SuppressWarnings("cast")
  @Override
  protected void scaleImpl(MemorySegment x, double c, MemorySegment out, int n) {
    scaleRange(x, (float) c, out, 0, n);
  }
}
