package org.onlinekernels.testkit;

import java.util.SplittableRandom;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.AdaptiveOgdParams;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.rules.aogd.AdaptiveOgdBallOptimizer;
import org.onlinekernels.rules.aogd.AdaptiveOgdCoordinateOptimizer;
import org.onlinekernels.rules.aogd.ReferenceAdaptiveOgdBall;
import org.onlinekernels.rules.aogd.ReferenceAdaptiveOgdCoordinate;

/**
 * Adaptive OGD, ball or per-coordinate form, with a random radius (per-coordinate radii sometimes).
 * Curvature {@code H_t = 0} (the linear-model form's default).
 *
 * <p>Per-coordinate: the same recurrence per coordinate with no reduction, so in double it is
 * bit-identical; factor 4 in float ({@code lambda} carries the relative errors of {@code Lsum} and
 * of {@code g^2}, which {@code eta = 1/(Hsum + Lsum)} and the shrink {@code lambda w} pass on).
 * Ball: {@code G_t}, {@code <w, g>} and {@code ||w||^2} are reductions, and the kernel gets {@code
 * ||v||^2} by expanding the square (terms up to {@code (|1 - eta lambda| ||w|| + eta ||g||)^2}, at
 * most about 4 times {@code ||v||^2} when projecting): {@code C = 4 (1 + chain(d) / 8)}.
 *
 * <p>The registry's two rules each have their subject by the kit's naming rule ({@link Subjects}):
 * {@link AdaptiveOgdBallSubject} and {@link AdaptiveOgdCoordinateSubject}, this class with the form
 * fixed.
 */
public sealed class AdaptiveOgdSubject implements Subject
    permits AdaptiveOgdBallSubject, AdaptiveOgdCoordinateSubject {
  private final AdaptiveOgdParams params;
  private final boolean ball;
  private final double factor;

  /**
   * Adaptive OGD, ball form if {@code ball}, with the radius (or radii) case seed {@code seed}
   * draws at dimension {@code d}, rounded to {@code t}.
   */
  public AdaptiveOgdSubject(long seed, int d, ElementType t, boolean ball) {
    SplittableRandom r = new SplittableRandom(seed ^ (ball ? 0xba11L : 0xc00dL));
    this.ball = ball;
    if (!ball && r.nextBoolean()) {
      double[] radii = new double[d];
      for (int i = 0; i < d; i++) {
        radii[i] = Workload.round(t, Math.scalb(1.0 + r.nextDouble(), r.nextInt(-6, 6)));
      }
      params = AdaptiveOgdParams.radii(radii);
    } else {
      params =
          AdaptiveOgdParams.radius(
              Workload.round(t, Math.scalb(1.0 + r.nextDouble(), r.nextInt(-6, 6))));
    }
    factor = ball ? 4 * (1 + Tolerance.chain(d) / 8) : 4;
  }

  /** Adaptive OGD, ball form if {@code ball}, with the given parameters, at dimension {@code d}. */
  public AdaptiveOgdSubject(AdaptiveOgdParams params, int d, boolean ball) {
    this.params = params;
    this.ball = ball;
    this.factor = ball ? 4 * (1 + Tolerance.chain(d) / 8) : 4;
  }

  /** The parameters both sides run with. */
  public AdaptiveOgdParams params() {
    return params;
  }

  @Override
  public String describe() {
    return (ball ? "AOGD ball R=" : "AOGD per-coordinate R=")
        + params.radius()
        + (params.radii() != null ? " (per-coordinate radii)" : "");
  }

  @Override
  public AbstractOptimizer optimizer(int d, ElementType type, KernelProvider kernels) {
    return ball
        ? new AdaptiveOgdBallOptimizer(d, type, params, null, kernels)
        : new AdaptiveOgdCoordinateOptimizer(d, type, params, null, kernels);
  }

  @Override
  public AbstractOptimizer optimizer(
      int d, ElementType type, KernelProvider kernels, StateLayout layout) {
    if (layout == StateLayout.PLANAR || !ball && params.radii() != null) {
      return optimizer(d, type, kernels);
    }
    return ball
        ? new AdaptiveOgdBallOptimizer(d, type, params, layout, null, kernels)
        : new AdaptiveOgdCoordinateOptimizer(d, type, params, layout, null, kernels);
  }

  /**
   * The ball form's step and projection come from norms, summed in another order for sparse input.
   */
  @Override
  public boolean sparseStateEqualsDense() {
    return !ball;
  }

  @Override
  public boolean fusedRound() {
    return ball || params.radii() == null;
  }

  @Override
  public boolean interleaves() {
    return fusedRound();
  }

  @Override
  public ReferenceLinearModel reference(int d) {
    return ball
        ? new ReferenceAdaptiveOgdBall(d, params)
        : new ReferenceAdaptiveOgdCoordinate(d, params);
  }

  @Override
  public boolean exactStateInDouble() {
    return !ball;
  }

  @Override
  public double stateFactor() {
    return factor;
  }
}
