package org.onlinekernels.kernel.scalar;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.AdaGradKernel;
import org.onlinekernels.kernel.ElementType;

/**
 * Scalar float AdaGrad. Source of the generated {@code Double} twin: edit only this file.
 * {@link #step} is the per-lane rule; the vector kernel computes the same operations in the same
 * order, so both agree bit for bit, and its tails call the range methods here.
 */
public final class FloatAdaGradScalarKernel extends AdaGradKernel {
  /** The one instance. */
  public static final FloatAdaGradScalarKernel INSTANCE = new FloatAdaGradScalarKernel();

  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

  private FloatAdaGradScalarKernel() {
    super(ElementType.FLOAT);
  }

  /**
   * New {@code w_i} given the already-updated {@code Q_i}: {@code clamp(w - (eta g)/(delta + sqrt Q))},
   * or {@code w} when the denominator is 0 (no gradient yet, or {@code g^2} underflowed).
   */
  public static float step(float w, float qNew, float g, float eta, float delta, float lo, float hi) {
    float denom = delta + (float) Math.sqrt(qNew);
    if (!(denom > 0)) {
      return w;
    }
    return Math.min(Math.max(w - (eta * g) / denom, lo), hi);
  }

  /** Dense rule over {@code [from, to)} with a scalar box. */
  public static void denseRange(
      MemorySegment w, MemorySegment q, MemorySegment x, int from, int to,
      float scale, float eta, float delta, float lo, float hi) {
    for (int i = from; i < to; i++) {
      float g = scale * x.getAtIndex(E, i);
      float qn = q.getAtIndex(E, i) + g * g;
      q.setAtIndex(E, i, qn);
      w.setAtIndex(E, i, step(w.getAtIndex(E, i), qn, g, eta, delta, lo, hi));
    }
  }

  /** Dense rule over {@code [from, to)} with a per-coordinate box. */
  public static void denseBoxedRange(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi, MemorySegment x,
      int from, int to, float scale, float rate, boolean rateFromWidth, float delta) {
    for (int i = from; i < to; i++) {
      float a = lo.getAtIndex(E, i);
      float b = hi.getAtIndex(E, i);
      float eta = rateFromWidth ? rate * (b - a) : rate;
      float g = scale * x.getAtIndex(E, i);
      float qn = q.getAtIndex(E, i) + g * g;
      q.setAtIndex(E, i, qn);
      w.setAtIndex(E, i, step(w.getAtIndex(E, i), qn, g, eta, delta, a, b));
    }
  }

  /** Sparse rule over entries {@code [from, to)} with a scalar box. */
  public static void sparseRange(
      MemorySegment w, MemorySegment q, MemorySegment idx, MemorySegment val, int from, int to,
      float scale, float eta, float delta, float lo, float hi) {
    for (int j = from; j < to; j++) {
      int i = idx.getAtIndex(I, j);
      float g = scale * val.getAtIndex(E, j);
      float qn = q.getAtIndex(E, i) + g * g;
      q.setAtIndex(E, i, qn);
      w.setAtIndex(E, i, step(w.getAtIndex(E, i), qn, g, eta, delta, lo, hi));
    }
  }

  /**
   * Sparse rule over entries {@code [from, to)} without a box ({@code lo = -inf, hi = +inf}, where
   * the clamp is the identity bit for bit). The vector kernel uses this loop too: each nonzero
   * touches two cache lines at random in a large model, so the update waits on memory, and the
   * fewer instructions per nonzero, the more misses the core keeps in flight. Measured at
   * d = 2^22 (bench/report-notes.md): this loop is faster than gathering 16 lanes into scratch
   * arrays for the vector rule, and than {@link #sparseRange} with its {@code min}/{@code max}.
   */
  public static void sparseUnboundedRange(
      MemorySegment w, MemorySegment q, MemorySegment idx, MemorySegment val, int from, int to,
      float scale, float eta, float delta) {
    for (int j = from; j < to; j++) {
      int i = idx.getAtIndex(I, j);
      float g = scale * val.getAtIndex(E, j);
      float qn = q.getAtIndex(E, i) + g * g;
      q.setAtIndex(E, i, qn);
      // step() without the clamp: same operations, same order; a zero denominator leaves w.
      float denom = delta + (float) Math.sqrt(qn);
      if (denom > 0) {
        w.setAtIndex(E, i, w.getAtIndex(E, i) - (eta * g) / denom);
      }
    }
  }

  /** Sparse rule over entries {@code [from, to)} with a per-coordinate box. */
  public static void sparseBoxedRange(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi,
      MemorySegment idx, MemorySegment val, int from, int to,
      float scale, float rate, boolean rateFromWidth, float delta) {
    for (int j = from; j < to; j++) {
      int i = idx.getAtIndex(I, j);
      float a = lo.getAtIndex(E, i);
      float b = hi.getAtIndex(E, i);
      float eta = rateFromWidth ? rate * (b - a) : rate;
      float g = scale * val.getAtIndex(E, j);
      float qn = q.getAtIndex(E, i) + g * g;
      q.setAtIndex(E, i, qn);
      w.setAtIndex(E, i, step(w.getAtIndex(E, i), qn, g, eta, delta, a, b));
    }
  }

  @Override
  protected void updateDenseImpl(
      MemorySegment w, MemorySegment q, MemorySegment x, int n,
      double scale, double eta, double delta, double lo, double hi) {
    denseRange(w, q, x, 0, n, (float) scale, (float) eta, (float) delta, (float) lo, (float) hi);
  }

  @Override
  protected void updateDenseBoxedImpl(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi, MemorySegment x, int n,
      double scale, double rate, boolean rateFromWidth, double delta) {
    denseBoxedRange(w, q, lo, hi, x, 0, n, (float) scale, (float) rate, rateFromWidth, (float) delta);
  }

  @Override
  protected void updateSparseImpl(
      MemorySegment w, MemorySegment q, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double eta, double delta, double lo, double hi) {
    float a = (float) lo, b = (float) hi;
    if (a == Float.NEGATIVE_INFINITY && b == Float.POSITIVE_INFINITY) {
      sparseUnboundedRange(w, q, idx, val, 0, nnz, (float) scale, (float) eta, (float) delta);
    } else {
      sparseRange(w, q, idx, val, 0, nnz, (float) scale, (float) eta, (float) delta, a, b);
    }
  }

  @Override
  protected void updateSparseBoxedImpl(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi,
      MemorySegment idx, MemorySegment val, int nnz,
      double scale, double rate, boolean rateFromWidth, double delta) {
    sparseBoxedRange(w, q, lo, hi, idx, val, 0, nnz, (float) scale, (float) rate, rateFromWidth, (float) delta);
  }
}
