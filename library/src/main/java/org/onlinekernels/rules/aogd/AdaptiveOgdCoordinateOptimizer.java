package org.onlinekernels.rules.aogd;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.lanes.RuleShape;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.AdaptiveOgdParams;

/**
 * Per-coordinate Adaptive Online Gradient Descent ({@link AdaptiveOgd}; Streeter and McMahan 2010,
 * section 4.1): the ball recurrence run on each coordinate with {@code G_{t,i} = |g_{t,i}|}, its
 * own {@code Lsum_i} and the box {@code [-R_i, R_i]}; the curvature {@code H_t} is one scalar, so
 * {@code Hsum} is one {@code double}. A coordinate with {@code g_i = 0} stays put, so a sparse
 * round is O(nnz).
 *
 * <p>State buffers: {@code w}, {@code Lsum}, and {@code R} when per-coordinate radii are given.
 * Scalar state: {@code Hsum}.
 */
public final class AdaptiveOgdCoordinateOptimizer extends AdaptiveOgdOptimizer {
  /** The rule as the command line and the trainers know it. */
  public static final RuleInfo INFO =
      new RuleInfo(
          "aogd-coord",
          List.of(
              "  aogd-coord      R=100                              Adaptive OGD per coordinate, box [-R,R]"),
          Set.of("R"),
          false,
          (d, precision, layout, arena, kernels, p) ->
              new AdaptiveOgdCoordinateOptimizer(
                  d,
                  precision.inputType(),
                  AdaptiveOgdParams.radius(p.get("R", 100)),
                  layout,
                  arena,
                  kernels));

  private static final RuleShape SHAPE = AdaptiveOgdRuleForms.SHAPE;
  private static final int HSUM = SHAPE.uniform("Hsum");

  private double nextHsum;

  /** An optimizer with its own confined arena and the default kernels. */
  public AdaptiveOgdCoordinateOptimizer(int d, ElementType type, AdaptiveOgdParams params) {
    this(d, type, params, null, null);
  }

  /**
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public AdaptiveOgdCoordinateOptimizer(
      int d, ElementType type, AdaptiveOgdParams params, Arena arena, KernelProvider kernels) {
    this(d, type, params, StateLayout.PLANAR, arena, kernels);
  }

  /**
   * An optimizer with its state in {@code layout} (one radius for all coordinates when
   * interleaved).
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public AdaptiveOgdCoordinateOptimizer(
      int d,
      ElementType type,
      AdaptiveOgdParams params,
      StateLayout layout,
      Arena arena,
      KernelProvider kernels) {
    super(
        "aogd-coordinate",
        d,
        type,
        checked("aogd-coordinate", d, type, params),
        layout,
        params.radii() != null,
        arena,
        kernels,
        SHAPE);
    u[SHAPE.uniform("R")] = params.radius();
    if (!store.adopted()) {
      resetImpl();
    }
  }

  /** {@code Hsum}. */
  @Override
  public Map<String, Double> scalarState() {
    return Map.of("Hsum", hsum);
  }

  @Override
  protected void setScalar(String name, double value) {
    hsum = value;
  }

  @Override
  protected void resetImpl() {
    hsum = 0;
    if (params.radii() != null) {
      for (int i = 0; i < d; i++) {
        store.set("R", i, params.radiusOf(i));
      }
    }
  }

  @Override
  protected boolean beforeUpdate(double g) {
    nextHsum = nextHsum(curvature());
    u[HSUM] = nextHsum;
    return true;
  }

  @Override
  protected void afterUpdate(double rowSum, boolean dense) {
    hsum = nextHsum;
  }

  /**
   * docs/MERGING.md: {@code Lsum}, {@code Hsum} by increments; {@code w_i} averaged by the
   * increments of {@code Hsum + Lsum_i} (the coordinate's inverse step size), clamped to {@code
   * [-R_i, R_i]}.
   */
  @Override
  protected MergePlan mergePlan() {
    return new MergePlan()
        .mean(
            "w",
            "Lsum",
            List.of("Hsum"),
            (i, v) -> {
              double r = params.radiusOf(i);
              return Math.min(Math.max(v, -r), r);
            })
        .sum("Lsum")
        .sumScalars("Hsum");
  }
}
