package org.onlinekernels.kernel.vector;

import static org.onlinekernels.kernel.vector.VectorConstants.FLOAT_SPECIES;
import static org.onlinekernels.kernel.vector.VectorConstants.ORDER;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.kernel.scalar.FloatLinearAlgebraScalarKernel;

/**
 * Vector float reductions: four independent accumulators in the main loop (hides the add/FMA
 * latency), one-vector loop, then the scalar kernel's range method as the tail. Source of the
 * generated {@code Double} twin: edit only this file.
 */
public final class FloatLinearAlgebraVectorKernel extends LinearAlgebraKernel {
  /** The one instance. */
  public static final FloatLinearAlgebraVectorKernel INSTANCE = new FloatLinearAlgebraVectorKernel();

  private static final VectorSpecies<Float> S = FLOAT_SPECIES;
  private static final int L = S.length();
  private static final long VB = (long) L * Float.BYTES;
  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

  private FloatLinearAlgebraVectorKernel() {
    super(ElementType.FLOAT);
  }

  private static FloatVector load(MemorySegment m, long byteOffset) {
    return FloatVector.fromMemorySegment(S, m, byteOffset, ORDER);
  }

  /** {@code <a, b>} over {@code [0, n)}: vector main loops, scalar tail. */
  static float dotBody(MemorySegment a, MemorySegment b, int n) {
    FloatVector acc0 = FloatVector.zero(S), acc1 = acc0, acc2 = acc0, acc3 = acc0;
    int i = 0;
    int bound4 = n - n % (4 * L);
    for (; i < bound4; i += 4 * VectorConstants.floatStride()) {
      long o = (long) i * Float.BYTES;
      acc0 = load(a, o).fma(load(b, o), acc0);
      acc1 = load(a, o + VB).fma(load(b, o + VB), acc1);
      acc2 = load(a, o + 2 * VB).fma(load(b, o + 2 * VB), acc2);
      acc3 = load(a, o + 3 * VB).fma(load(b, o + 3 * VB), acc3);
    }
    int bound1 = S.loopBound(n);
    for (; i < bound1; i += VectorConstants.floatStride()) {
      long o = (long) i * Float.BYTES;
      acc0 = load(a, o).fma(load(b, o), acc0);
    }
    float[] spill = FloatLaneScratch.get().sum;
    acc0.add(acc1).add(acc2.add(acc3)).intoArray(spill, 0);
    return FloatLanes.sum(spill) + FloatLinearAlgebraScalarKernel.dotRange(a, b, bound1, n);
  }

  @Override
  protected double dotImpl(MemorySegment a, MemorySegment b, int n) {
    return dotBody(a, b, n);
  }

  @Override
  protected double dotSparseImpl(MemorySegment w, MemorySegment idx, MemorySegment val, int nnz) {
    return dotSparseBody(w, idx, val, nnz);
  }

  /** Gathered {@code sum val_j w[idx_j]}. */
  static float dotSparseBody(MemorySegment w, MemorySegment idx, MemorySegment val, int nnz) {
    FloatLaneScratch sc = FloatLaneScratch.get();
    float[] g = sc.lanes[0];
    FloatVector acc = FloatVector.zero(S);
    int bound = S.loopBound(nnz);
    for (int j = 0; j < bound; j += L) {
      for (int k = 0; k < L; k++) {
        g[k] = w.getAtIndex(E, idx.getAtIndex(I, j + k));
      }
      acc = load(val, (long) j * Float.BYTES).fma(FloatVector.fromArray(S, g, 0), acc);
    }
    acc.intoArray(sc.sum, 0);
    return FloatLanes.sum(sc.sum)
        + FloatLinearAlgebraScalarKernel.dotSparseRange(w, idx, val, bound, nnz);
  }

  @Override
  protected double sumOfSquaresImpl(MemorySegment x, int n) {
    return dotBody(x, x, n);
  }

  @Override
  protected void dotAndSumOfSquaresImpl(MemorySegment a, MemorySegment x, int n, double[] out) {
    FloatVector d0 = FloatVector.zero(S), d1 = d0, s0 = d0, s1 = d0;
    int i = 0;
    int bound2 = n - n % (2 * L);
    for (; i < bound2; i += 2 * VectorConstants.floatStride()) {
      long o = (long) i * Float.BYTES;
      FloatVector x0 = load(x, o), x1 = load(x, o + VB);
      d0 = load(a, o).fma(x0, d0);
      d1 = load(a, o + VB).fma(x1, d1);
      s0 = x0.fma(x0, s0);
      s1 = x1.fma(x1, s1);
    }
    int bound1 = S.loopBound(n);
    for (; i < bound1; i += VectorConstants.floatStride()) {
      long o = (long) i * Float.BYTES;
      FloatVector x0 = load(x, o);
      d0 = load(a, o).fma(x0, d0);
      s0 = x0.fma(x0, s0);
    }
    float[] spill = FloatLaneScratch.get().sum;
    d0.add(d1).intoArray(spill, 0);
    out[0] = FloatLanes.sum(spill)
        + FloatLinearAlgebraScalarKernel.dotRange(a, x, bound1, n);
    s0.add(s1).intoArray(spill, 0);
    out[1] = FloatLanes.sum(spill)
        + FloatLinearAlgebraScalarKernel.dotRange(x, x, bound1, n);
  }

  @Override
  protected void dotAndSumOfSquaresSparseImpl(
      MemorySegment a, MemorySegment idx, MemorySegment val, int nnz, double[] out) {
    out[0] = dotSparseBody(a, idx, val, nnz);
    out[1] = dotBody(val, val, nnz);
  }

  @Override
  protected void gramTripleImpl(MemorySegment w, MemorySegment x, int n, double[] out) {
    FloatVector ww = FloatVector.zero(S), wx = ww, xx = ww;
    int bound1 = S.loopBound(n);
    for (int i = 0; i < bound1; i += VectorConstants.floatStride()) {
      long o = (long) i * Float.BYTES;
      FloatVector wv = load(w, o), xv = load(x, o);
      ww = wv.fma(wv, ww);
      wx = wv.fma(xv, wx);
      xx = xv.fma(xv, xx);
    }
    float[] spill = FloatLaneScratch.get().sum;
    ww.intoArray(spill, 0);
    out[0] = FloatLanes.sum(spill) + FloatLinearAlgebraScalarKernel.dotRange(w, w, bound1, n);
    wx.intoArray(spill, 0);
    out[1] = FloatLanes.sum(spill) + FloatLinearAlgebraScalarKernel.dotRange(w, x, bound1, n);
    xx.intoArray(spill, 0);
    out[2] = FloatLanes.sum(spill) + FloatLinearAlgebraScalarKernel.dotRange(x, x, bound1, n);
  }

  /**
   * Vector {@code max |x_i|}: a running lane-wise maximum and a running mask of lanes where
   * {@code v - v != 0} (NaN or infinite); the mask decides, so the result does not depend on how
   * the lane-wise maximum treats NaN.
   */
  @Override
  protected double maxAbsImpl(MemorySegment x, int n) {
    FloatVector acc = FloatVector.zero(S);
    VectorMask<Float> bad = S.maskAll(false);
    int bound1 = S.loopBound(n);
    for (int i = 0; i < bound1; i += VectorConstants.floatStride()) {
      FloatVector v = load(x, (long) i * Float.BYTES);
      bad = bad.or(v.sub(v).compare(VectorOperators.NE, 0f));
      acc = acc.max(v.abs());
    }
    float tail = FloatLinearAlgebraScalarKernel.maxAbsRange(x, bound1, n);
    if (bad.anyTrue() || tail != tail) {
      return Double.NaN;
    }
    return Math.max(acc.reduceLanes(VectorOperators.MAX), tail);
  }
}
