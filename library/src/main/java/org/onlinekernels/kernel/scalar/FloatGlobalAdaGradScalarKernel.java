package org.onlinekernels.kernel.scalar;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.GlobalAdaGradKernel;

/**
 * Scalar float global-rate AdaGrad step. Source of the generated {@code Double} twin: edit only
 * this file. {@link #step} is the per-lane rule; the vector kernel performs the same operations in
 * the same order, and its tails call the range methods here.
 */
public final class FloatGlobalAdaGradScalarKernel extends GlobalAdaGradKernel {
  /** The one instance. */
  public static final FloatGlobalAdaGradScalarKernel INSTANCE = new FloatGlobalAdaGradScalarKernel();

  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

  private FloatGlobalAdaGradScalarKernel() {
    super(ElementType.FLOAT);
  }

  /** New {@code w_i}: {@code clamp(w - eta * g, lo, hi)}. */
  public static float step(float w, float g, float eta, float lo, float hi) {
    return Math.min(Math.max(w - eta * g, lo), hi);
  }

  /** Dense rule over {@code [from, to)} with a scalar box. */
  public static void denseRange(
      MemorySegment w, MemorySegment x, int from, int to, float scale, float eta, float lo, float hi) {
    for (int i = from; i < to; i++) {
      float g = scale * x.getAtIndex(E, i);
      w.setAtIndex(E, i, step(w.getAtIndex(E, i), g, eta, lo, hi));
    }
  }

  /** Dense rule over {@code [from, to)} with a per-coordinate box. */
  public static void denseBoxedRange(
      MemorySegment w, MemorySegment lo, MemorySegment hi, MemorySegment x, int from, int to,
      float scale, float eta) {
    for (int i = from; i < to; i++) {
      float g = scale * x.getAtIndex(E, i);
      w.setAtIndex(E, i, step(w.getAtIndex(E, i), g, eta, lo.getAtIndex(E, i), hi.getAtIndex(E, i)));
    }
  }

  /** Sparse rule over entries {@code [from, to)} with a scalar box. */
  public static void sparseRange(
      MemorySegment w, MemorySegment idx, MemorySegment val, int from, int to,
      float scale, float eta, float lo, float hi) {
    for (int j = from; j < to; j++) {
      int i = idx.getAtIndex(I, j);
      float g = scale * val.getAtIndex(E, j);
      w.setAtIndex(E, i, step(w.getAtIndex(E, i), g, eta, lo, hi));
    }
  }

  /** Sparse rule over entries {@code [from, to)} with a per-coordinate box. */
  public static void sparseBoxedRange(
      MemorySegment w, MemorySegment lo, MemorySegment hi, MemorySegment idx, MemorySegment val,
      int from, int to, float scale, float eta) {
    for (int j = from; j < to; j++) {
      int i = idx.getAtIndex(I, j);
      float g = scale * val.getAtIndex(E, j);
      w.setAtIndex(E, i, step(w.getAtIndex(E, i), g, eta, lo.getAtIndex(E, i), hi.getAtIndex(E, i)));
    }
  }

  @Override
  protected void updateDenseImpl(
      MemorySegment w, MemorySegment x, int n, double scale, double eta, double lo, double hi) {
    denseRange(w, x, 0, n, (float) scale, (float) eta, (float) lo, (float) hi);
  }

  @Override
  protected void updateDenseBoxedImpl(
      MemorySegment w, MemorySegment lo, MemorySegment hi, MemorySegment x, int n, double scale, double eta) {
    denseBoxedRange(w, lo, hi, x, 0, n, (float) scale, (float) eta);
  }

  @Override
  protected void updateSparseImpl(
      MemorySegment w, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double eta, double lo, double hi) {
    sparseRange(w, idx, val, 0, nnz, (float) scale, (float) eta, (float) lo, (float) hi);
  }

  @Override
  protected void updateSparseBoxedImpl(
      MemorySegment w, MemorySegment lo, MemorySegment hi,
      MemorySegment idx, MemorySegment val, int nnz, double scale, double eta) {
    sparseBoxedRange(w, lo, hi, idx, val, 0, nnz, (float) scale, (float) eta);
  }
}
