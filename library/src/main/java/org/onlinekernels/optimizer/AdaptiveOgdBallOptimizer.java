package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.params.AdaptiveOgdParams;

/**
 * Adaptive Online Gradient Descent on the L2 ball of radius {@code R} (ALGORITHMS.md section 2):
 *
 * <pre>
 *   Hsum += H_t;  s = Hsum + Lsum;  c = 8 ||g||^2 / (3 R^2)
 *   lambda = c / (2 (sqrt(s^2 + c) + s));  Lsum += lambda
 *   eta = 1 / (Hsum + Lsum)                                   (0: no change this round)
 *   w = P(w - eta (g + lambda w)),  P(v) = v min(1, R / ||v||)
 * </pre>
 *
 * One {@code gramTriple} pass gives {@code ||w||^2, <w, g>, ||g||^2}; {@code ||v||^2} follows by
 * expansion, {@code (1 - eta lambda)^2 ||w||^2 - 2 eta (1 - eta lambda) <w, g> + eta^2 ||g||^2},
 * then one element-wise pass applies shrink, step and projection. A sparse round is O(d)
 * (every coordinate shrinks): {@code ||w||^2} over {@code w}, the rest over the entries.
 * Scalar state: {@code Hsum}, {@code Lsum}. Uses {@link AdaptiveOgdParams#radius()}; per-coordinate
 * radii are rejected.
 */
public final class AdaptiveOgdBallOptimizer extends AdaptiveOgdOptimizer {
  private final double radius;
  private final double[] gram = new double[3];
  private double lsum;

  /** An optimizer with its own confined arena and the default kernels. */
  public AdaptiveOgdBallOptimizer(int d, ElementType type, AdaptiveOgdParams params) {
    this(d, type, params, null, null);
  }

  /**
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public AdaptiveOgdBallOptimizer(int d, ElementType type, AdaptiveOgdParams params, Arena arena, KernelProvider kernels) {
    super("aogd-ball", d, type, params, arena, kernels);
    if (params.radii() != null) {
      throw new IllegalArgumentException(
          "radii: the ball form has one radius R; per-coordinate half-widths belong to AdaptiveOgdCoordinateOptimizer");
    }
    this.radius = params.radius();
  }

  /** {@code Hsum} and {@code Lsum}. */
  @Override
  public Map<String, Double> scalarState() {
    return Map.of("Hsum", hsum, "Lsum", lsum);
  }

  @Override
  protected void setScalar(String name, double value) {
    if (name.equals("Hsum")) {
      hsum = value;
    } else {
      lsum = value;
    }
  }

  @Override
  protected void resetImpl() {
    hsum = 0;
    lsum = 0;
  }

  @Override
  protected void denseRound(MemorySegment x, double scale, double h) {
    double hs = nextHsum(h);
    linalg.gramTriple(w, x, d, gram);
    double ww = gram[0], wg = scale * gram[1], gg = scale * scale * gram[2];
    apply(hs, ww, wg, gg, x, null, null, 0, scale);
  }

  @Override
  protected void sparseRound(MemorySegment idx, MemorySegment val, int nnz, double scale, double h) {
    double hs = nextHsum(h);
    double ww = linalg.sumOfSquares(w, d);
    double wg = scale * linalg.dotSparse(w, d, idx, val, nnz);
    double gg = scale * scale * linalg.sumOfSquares(val, nnz);
    apply(hs, ww, wg, gg, null, idx, val, nnz, scale);
  }

  /** The scalar recurrence of the round, then one kernel pass; commits scalars last. */
  private void apply(
      double hs, double ww, double wg, double gg,
      MemorySegment x, MemorySegment idx, MemorySegment val, int nnz, double scale) {
    double s = hs + lsum;
    double c = 8 * gg / (3 * radius * radius);
    double den = 2 * (Math.sqrt(s * s + c) + s);
    double lambda = den > 0 ? c / den : 0;
    double ls = lsum + lambda;
    double den2 = hs + ls;
    if (den2 > 0) {
      double eta = 1 / den2;
      // The kernel rounds eta to the element type: past float's range it would be infinite there
      // and give inf * 0 = NaN (a subnormal curvature H_t alone can do this).
      if (eta > (type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE)) {
        throw new ArithmeticException("Adaptive OGD step size 1/(Hsum + Lsum) = " + eta + " overflows the "
            + type.name().toLowerCase() + " range (Hsum = " + hs + ", Lsum = " + ls
            + "); the curvature H_t is too small to be meaningful; the state was left unchanged");
      }
      double a = 1 - eta * lambda;
      double vv = a * a * ww - 2 * eta * a * wg + eta * eta * gg;
      // Cancellation (v tiny against w and eta g) can make the expansion slightly negative.
      double nv = Math.sqrt(Math.max(vv, 0));
      double p = nv > radius ? radius / nv : 1;
      if (x != null) {
        kernel.ballUpdateDense(w, x, d, scale, eta, lambda, p);
      } else {
        kernel.ballUpdateSparse(w, d, idx, val, nnz, scale, eta, lambda, p);
      }
    }
    hsum = hs;
    lsum = ls;
  }

  /**
   * docs/MERGING.md: {@code Hsum}, {@code Lsum} by increments; {@code w} averaged by the increments
   * of {@code Hsum + Lsum} (the inverse step size), then projected onto the ball.
   */
  @Override
  MergePlan mergePlan() {
    return new MergePlan().mean("w", null, java.util.List.of("Hsum", "Lsum"), (i, v) -> v).ball(radius)
        .sumScalars("Hsum", "Lsum");
  }
}
