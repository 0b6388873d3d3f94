package org.onlinekernels.kernel.scalar;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.MixedAdaGradKernel;

/**
 * Scalar mixed-precision AdaGrad (float {@code w}, {@code x}, box; double {@code Q} and arithmetic).
 * {@link #step} is the per-lane rule of {@link MixedAdaGradKernel}; the vector kernel performs the
 * same double operations in the same order, so both agree bit for bit, and its tails call the
 * range methods here. Not a {@code Float*} file: no generated twin.
 */
public final class MixedAdaGradScalarKernel extends MixedAdaGradKernel {
  /** The one instance. */
  public static final MixedAdaGradScalarKernel INSTANCE = new MixedAdaGradScalarKernel();

  private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

  private MixedAdaGradScalarKernel() {}

  /**
   * New float {@code w_i} given the already-updated double {@code Q_i}: the clamped double step
   * rounded to float once, or {@code w} when the denominator is not positive.
   */
  public static float step(float w, double qNew, double g, double eta, double delta, double lo, double hi) {
    double denom = delta + Math.sqrt(qNew);
    if (!(denom > 0)) {
      return w;
    }
    return (float) Math.min(Math.max((double) w - (eta * g) / denom, lo), hi);
  }

  /** Dense rule over {@code [from, to)} with a scalar box (bounds already float values). */
  public static void denseRange(
      MemorySegment w, MemorySegment q, MemorySegment x, int from, int to,
      double scale, double eta, double delta, double lo, double hi) {
    for (int i = from; i < to; i++) {
      double g = scale * (double) x.getAtIndex(F, i);
      double qn = q.getAtIndex(D, i) + g * g;
      q.setAtIndex(D, i, qn);
      w.setAtIndex(F, i, step(w.getAtIndex(F, i), qn, g, eta, delta, lo, hi));
    }
  }

  /** Dense rule over {@code [from, to)} with a per-coordinate box. */
  public static void denseBoxedRange(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi, MemorySegment x,
      int from, int to, double scale, double rate, boolean rateFromWidth, double delta) {
    for (int i = from; i < to; i++) {
      double a = lo.getAtIndex(F, i);
      double b = hi.getAtIndex(F, i);
      double eta = rateFromWidth ? rate * (b - a) : rate;
      double g = scale * (double) x.getAtIndex(F, i);
      double qn = q.getAtIndex(D, i) + g * g;
      q.setAtIndex(D, i, qn);
      w.setAtIndex(F, i, step(w.getAtIndex(F, i), qn, g, eta, delta, a, b));
    }
  }

  /** Sparse rule over entries {@code [from, to)} with a scalar box. */
  public static void sparseRange(
      MemorySegment w, MemorySegment q, MemorySegment idx, MemorySegment val, int from, int to,
      double scale, double eta, double delta, double lo, double hi) {
    for (int j = from; j < to; j++) {
      int i = idx.getAtIndex(I, j);
      double g = scale * (double) val.getAtIndex(F, j);
      double qn = q.getAtIndex(D, i) + g * g;
      q.setAtIndex(D, i, qn);
      w.setAtIndex(F, i, step(w.getAtIndex(F, i), qn, g, eta, delta, lo, hi));
    }
  }

  /** Sparse rule over entries {@code [from, to)} with a per-coordinate box. */
  public static void sparseBoxedRange(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi,
      MemorySegment idx, MemorySegment val, int from, int to,
      double scale, double rate, boolean rateFromWidth, double delta) {
    for (int j = from; j < to; j++) {
      int i = idx.getAtIndex(I, j);
      double a = lo.getAtIndex(F, i);
      double b = hi.getAtIndex(F, i);
      double eta = rateFromWidth ? rate * (b - a) : rate;
      double g = scale * (double) val.getAtIndex(F, j);
      double qn = q.getAtIndex(D, i) + g * g;
      q.setAtIndex(D, i, qn);
      w.setAtIndex(F, i, step(w.getAtIndex(F, i), qn, g, eta, delta, a, b));
    }
  }

  /**
   * {@code sum w_i x_i} over {@code [0, n)} in double, in {@link DoubleVirtualLanes}'s order with
   * two accumulators (the vector kernel's bits). Products of two floats are exact in double, so
   * {@code p + w x} rounds once, as the vector kernel's fused multiply-add does.
   */
  public static double dotSum(MemorySegment w, MemorySegment x, int n) {
    int v = DoubleVirtualLanes.LANES;
    double[] p = DoubleVirtualLanes.scratch();
    DoubleVirtualLanes.clear(p, 2);
    int i = 0;
    for (int bound = n - n % (2 * v); i < bound; i += 2 * v) {
      for (int c = 0; c < 2 * v; c++) {
        p[c] += (double) w.getAtIndex(F, i + c) * x.getAtIndex(F, i + c);
      }
    }
    int bound1 = n - n % v;
    for (; i < bound1; i += v) {
      for (int l = 0; l < v; l++) {
        p[l] += (double) w.getAtIndex(F, i + l) * x.getAtIndex(F, i + l);
      }
    }
    DoubleVirtualLanes.combine(p, 2);
    dotTail(w, x, bound1, n, p);
    return DoubleVirtualLanes.sum(p);
  }

  /** The tail {@code [from, to)} of {@link #dotSum}: {@code w_i x_i} into lane {@code p[i - from]}; also the vector kernel's. */
  public static void dotTail(MemorySegment w, MemorySegment x, int from, int to, double[] p) {
    for (int i = from; i < to; i++) {
      p[i - from] += (double) w.getAtIndex(F, i) * x.getAtIndex(F, i);
    }
  }

  /** Sparse {@code sum w_idx[j] val_j} over entries {@code [from, to)} in double. */
  public static double dotSparseRange(MemorySegment w, MemorySegment idx, MemorySegment val, int from, int to) {
    double a0 = 0, a1 = 0;
    int j = from;
    for (; j + 1 < to; j += 2) {
      a0 += (double) w.getAtIndex(F, idx.getAtIndex(I, j)) * val.getAtIndex(F, j);
      a1 += (double) w.getAtIndex(F, idx.getAtIndex(I, j + 1)) * val.getAtIndex(F, j + 1);
    }
    for (; j < to; j++) {
      a0 += (double) w.getAtIndex(F, idx.getAtIndex(I, j)) * val.getAtIndex(F, j);
    }
    return a0 + a1;
  }

  @Override
  protected void updateDenseImpl(
      MemorySegment w, MemorySegment q, MemorySegment x, int n,
      double scale, double eta, double delta, double lo, double hi) {
    denseRange(w, q, x, 0, n, scale, eta, delta, (float) lo, (float) hi);
  }

  @Override
  protected void updateDenseBoxedImpl(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi, MemorySegment x, int n,
      double scale, double rate, boolean rateFromWidth, double delta) {
    denseBoxedRange(w, q, lo, hi, x, 0, n, scale, rate, rateFromWidth, delta);
  }

  @Override
  protected void updateSparseImpl(
      MemorySegment w, MemorySegment q, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double eta, double delta, double lo, double hi) {
    sparseRange(w, q, idx, val, 0, nnz, scale, eta, delta, (float) lo, (float) hi);
  }

  @Override
  protected void updateSparseBoxedImpl(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi,
      MemorySegment idx, MemorySegment val, int nnz,
      double scale, double rate, boolean rateFromWidth, double delta) {
    sparseBoxedRange(w, q, lo, hi, idx, val, 0, nnz, scale, rate, rateFromWidth, delta);
  }

  @Override
  protected double dotImpl(MemorySegment w, MemorySegment x, int n) {
    return dotSum(w, x, n);
  }

  @Override
  protected double dotSparseImpl(MemorySegment w, MemorySegment idx, MemorySegment val, int nnz) {
    return dotSparseRange(w, idx, val, 0, nnz);
  }
}
