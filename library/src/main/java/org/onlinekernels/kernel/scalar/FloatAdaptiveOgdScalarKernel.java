package org.onlinekernels.kernel.scalar;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.AdaptiveOgdKernel;
import org.onlinekernels.kernel.ElementType;

/**
 * Scalar float Adaptive OGD passes. Source of the generated {@code Double} twin: edit only this
 * file. {@link #ballStep}, {@link #lambda} and {@link #coordinateStep} are the per-lane rules in
 * the spec's operation order; the vector kernel performs the same operations in the same order
 * (no FMA), so both agree bit for bit, and its tails call the range methods here.
 */
public final class FloatAdaptiveOgdScalarKernel extends AdaptiveOgdKernel {
  /** The one instance. */
  public static final FloatAdaptiveOgdScalarKernel INSTANCE = new FloatAdaptiveOgdScalarKernel();

  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

  /**
   * A coordinate absent from a sparse gradient is {@code scale * ZERO}, not a literal 0: with
   * {@code scale < 0} that is -0, and only the same signed zero keeps the ball's sparse pass
   * bit-identical to the dense pass over explicit zeros.
   */
  private static final float ZERO = 0;

  private FloatAdaptiveOgdScalarKernel() {
    super(ElementType.FLOAT);
  }

  /** Ball form, one coordinate: {@code (w - eta * (g + lambda * w)) * p}. */
  public static float ballStep(float w, float g, float eta, float lambda, float p) {
    return (w - eta * (g + lambda * w)) * p;
  }

  /**
   * {@code lambda = c / (2 (sqrt(s^2 + c) + s))} with {@code c = 8 g g / (3 (r r))} (the reference's order) and
   * {@code s = hsum + lsum}; 0 when the denominator is 0 (only for {@code s = c = 0}: 0/0 = 0).
   */
  public static float lambda(float g, float hsum, float lsum, float r) {
    float s = hsum + lsum;
    float c = 8 * g * g / (3 * (r * r));
    float den = 2 * ((float) Math.sqrt(s * s + c) + s);
    return den > 0 ? c / den : 0;
  }

  /**
   * Per-coordinate form, new {@code w_i} given this round's {@code lambda} and the already
   * updated {@code Lsum_i}: {@code clamp(w - eta (g + lambda w), -r, r)} with
   * {@code eta = 1 / (hsum + lsumNew)}; {@code w} unchanged when that denominator is 0, and
   * when {@code g == 0} (the spec's "unchanged" coordinate: computing it would give
   * {@code inf * 0 = NaN} once a subnormal {@code Hsum} makes {@code eta} overflow).
   */
  public static float coordinateStep(float w, float g, float lambda, float hsum, float lsumNew, float r) {
    float den = hsum + lsumNew;
    if (!(den > 0) || g == 0) {
      return w;
    }
    float eta = 1 / den;
    return Math.min(Math.max(w - eta * (g + lambda * w), -r), r);
  }

  /** Ball rule, dense, over {@code [from, to)}. */
  public static void ballDenseRange(
      MemorySegment w, MemorySegment x, int from, int to, float scale, float eta, float lambda, float p) {
    for (int i = from; i < to; i++) {
      float g = scale * x.getAtIndex(E, i);
      w.setAtIndex(E, i, ballStep(w.getAtIndex(E, i), g, eta, lambda, p));
    }
  }

  /**
   * Ball rule over coordinates {@code [from, to)} with a sparse gradient whose next unconsumed
   * entry is {@code j}; returns the first entry not consumed (indices {@code >= to}).
   */
  public static int ballSparseRange(
      MemorySegment w, MemorySegment idx, MemorySegment val, int j, int nnz, int from, int to,
      float scale, float eta, float lambda, float p) {
    int next = j < nnz ? idx.getAtIndex(I, j) : Integer.MAX_VALUE;
    float gz = scale * ZERO;
    for (int i = from; i < to; i++) {
      float g = gz;
      if (i == next) {
        g = scale * val.getAtIndex(E, j);
        j++;
        next = j < nnz ? idx.getAtIndex(I, j) : Integer.MAX_VALUE;
      }
      w.setAtIndex(E, i, ballStep(w.getAtIndex(E, i), g, eta, lambda, p));
    }
    return j;
  }

  /** Per-coordinate rule for coordinate {@code i} with gradient {@code g} and half-width {@code r}. */
  private static void coordinate(MemorySegment w, MemorySegment lsum, int i, float g, float hsum, float r) {
    float l = lsum.getAtIndex(E, i);
    float lambda = lambda(g, hsum, l, r);
    float ln = l + lambda;
    lsum.setAtIndex(E, i, ln);
    w.setAtIndex(E, i, coordinateStep(w.getAtIndex(E, i), g, lambda, hsum, ln, r));
  }

  /** Per-coordinate rule, dense, over {@code [from, to)}, one half-width {@code r}. */
  public static void coordinateDenseRange(
      MemorySegment w, MemorySegment lsum, MemorySegment x, int from, int to, float scale, float hsum, float r) {
    for (int i = from; i < to; i++) {
      coordinate(w, lsum, i, scale * x.getAtIndex(E, i), hsum, r);
    }
  }

  /** Per-coordinate rule, dense, over {@code [from, to)}, half-widths {@code radii}. */
  public static void coordinateDenseRadiiRange(
      MemorySegment w, MemorySegment lsum, MemorySegment radii, MemorySegment x, int from, int to,
      float scale, float hsum) {
    for (int i = from; i < to; i++) {
      coordinate(w, lsum, i, scale * x.getAtIndex(E, i), hsum, radii.getAtIndex(E, i));
    }
  }

  /** Per-coordinate rule, sparse entries {@code [from, to)}, one half-width {@code r}. */
  public static void coordinateSparseRange(
      MemorySegment w, MemorySegment lsum, MemorySegment idx, MemorySegment val, int from, int to,
      float scale, float hsum, float r) {
    for (int j = from; j < to; j++) {
      coordinate(w, lsum, idx.getAtIndex(I, j), scale * val.getAtIndex(E, j), hsum, r);
    }
  }

  /** Per-coordinate rule, sparse entries {@code [from, to)}, half-widths {@code radii}. */
  public static void coordinateSparseRadiiRange(
      MemorySegment w, MemorySegment lsum, MemorySegment radii, MemorySegment idx, MemorySegment val,
      int from, int to, float scale, float hsum) {
    for (int j = from; j < to; j++) {
      int i = idx.getAtIndex(I, j);
      coordinate(w, lsum, i, scale * val.getAtIndex(E, j), hsum, radii.getAtIndex(E, i));
    }
  }

  @Override
  protected void ballUpdateDenseImpl(
      MemorySegment w, MemorySegment x, int n, double scale, double eta, double lambda, double p) {
    ballDenseRange(w, x, 0, n, (float) scale, (float) eta, (float) lambda, (float) p);
  }

  @Override
  protected void ballUpdateSparseImpl(
      MemorySegment w, int n, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double eta, double lambda, double p) {
    ballSparseRange(w, idx, val, 0, nnz, 0, n, (float) scale, (float) eta, (float) lambda, (float) p);
  }

  @Override
  protected void coordinateUpdateDenseImpl(
      MemorySegment w, MemorySegment lsum, MemorySegment x, int n, double scale, double hsum, double radius) {
    coordinateDenseRange(w, lsum, x, 0, n, (float) scale, (float) hsum, (float) radius);
  }

  @Override
  protected void coordinateUpdateDenseRadiiImpl(
      MemorySegment w, MemorySegment lsum, MemorySegment radii, MemorySegment x, int n, double scale, double hsum) {
    coordinateDenseRadiiRange(w, lsum, radii, x, 0, n, (float) scale, (float) hsum);
  }

  @Override
  protected void coordinateUpdateSparseImpl(
      MemorySegment w, MemorySegment lsum, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double hsum, double radius) {
    coordinateSparseRange(w, lsum, idx, val, 0, nnz, (float) scale, (float) hsum, (float) radius);
  }

  @Override
  protected void coordinateUpdateSparseRadiiImpl(
      MemorySegment w, MemorySegment lsum, MemorySegment radii,
      MemorySegment idx, MemorySegment val, int nnz, double scale, double hsum) {
    coordinateSparseRadiiRange(w, lsum, radii, idx, val, 0, nnz, (float) scale, (float) hsum);
  }
}
