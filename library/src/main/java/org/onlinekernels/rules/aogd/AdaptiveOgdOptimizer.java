package org.onlinekernels.rules.aogd;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.lanes.RuleShape;
import org.onlinekernels.optimizer.GradientOptimizer;
import org.onlinekernels.optimizer.ParameterRangeException;
import org.onlinekernels.optimizer.RuleOptimizer;
import org.onlinekernels.optimizer.state.Invariants;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.AdaptiveOgdParams;

/**
 * What both forms of Adaptive Online Gradient Descent share ({@link AdaptiveOgd}; Bartlett, Hazan
 * and Rakhlin 2007, Algorithm 2): the weights {@code w} (starting at 0, the projection of 0), the
 * {@code double} scalar {@code Hsum = H_{1:t}}, and the per-round curvature {@code H_t}.
 *
 * <p>Every round takes a curvature {@code H_t >= 0} (finite), e.g. the strength of an L2
 * regulariser in {@code f_t}. The overloads without it mean {@code H_t = 0}. In linear-model form
 * the curvature is passed with the scalar gradient, {@link #update(double, double)}: the inherited
 * {@link #update(double)} is final, so this class parks {@code H_t} in a field for the duration of
 * that one call, and the update reads it from there.
 */
public abstract class AdaptiveOgdOptimizer extends RuleOptimizer implements GradientOptimizer {
  /** The parameters. */
  protected final AdaptiveOgdParams params;

  /** {@code Hsum = H_{1:t}}. */
  protected double hsum;

  /** {@code H_t} of the {@link #update(double, double)} call in flight; 0 otherwise. */
  private double pendingH;

  AdaptiveOgdOptimizer(
      String algorithm,
      int d,
      ElementType type,
      AdaptiveOgdParams params,
      StateLayout layout,
      boolean perCoordinate,
      Arena arena,
      KernelProvider kernels,
      RuleShape shape) {
    super(algorithm, d, Precision.of(type), layout, perCoordinate, false, arena, kernels, shape);
    this.params = params;
  }

  /**
   * The checks before any state is allocated: {@code c = 8 G^2 / (3 R^2)} needs {@code 3 R^2}
   * finite in the element type, else {@code c = 0} and nothing is ever learned (float, R >= 1e20:
   * an all-zero model, silently).
   */
  static AdaptiveOgdParams checked(
      String algorithm, int d, ElementType type, AdaptiveOgdParams params) {
    if (params == null) {
      throw new IllegalArgumentException("params must not be null");
    }
    params.checkDimension(d);
    if (type != null) {
      double rMax = Math.sqrt((type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE) / 3);
      ParameterRangeException.check(
          algorithm,
          type,
          "R",
          params.radius(),
          rMax,
          "3 R^2 would overflow and nothing be learned");
      if (params.radii() != null) {
        for (double r : params.radii()) {
          ParameterRangeException.check(
              algorithm, type, "R", r, rMax, "3 R^2 would overflow and nothing be learned");
        }
      }
    }
    return params;
  }

  /** The parameters. */
  public final AdaptiveOgdParams params() {
    return params;
  }

  /**
   * Linear-model update with curvature {@code h = H_t} for the pending instance: gradient {@code g
   * * x}.
   *
   * @throws IllegalStateException if no predict is pending
   */
  public final void update(double g, double h) {
    checkOpen();
    checkCurvature(h);
    pendingH = h;
    try {
      update(g);
    } finally {
      pendingH = 0;
    }
  }

  /** Gradient-form step with curvature {@code H_t = 0}. */
  @Override
  public final void step(MemorySegment gradient) {
    step(gradient, 0);
  }

  /** Gradient-form step with dense gradient {@code g_t} and curvature {@code h = H_t}. */
  public final void step(MemorySegment gradient, double h) {
    checkGradient(gradient);
    checkCurvature(h);
    pendingH = h;
    try {
      updateDense(gradient, 1.0);
    } finally {
      pendingH = 0;
    }
  }

  /** Gradient-form step with a sparse gradient and curvature {@code H_t = 0}. */
  @Override
  public final void stepSparse(MemorySegment indices, MemorySegment values, int nnz) {
    stepSparse(indices, values, nnz, 0);
  }

  /** Gradient-form step with a sparse gradient and curvature {@code h = H_t}. */
  public final void stepSparse(MemorySegment indices, MemorySegment values, int nnz, double h) {
    checkSparseGradient(indices, values, nnz);
    checkCurvature(h);
    pendingH = h;
    try {
      updateSparse(indices, values, nnz, 1.0);
    } finally {
      pendingH = 0;
    }
  }

  private static void checkCurvature(double h) {
    if (!(h >= 0) || h == Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException("curvature h (H_t) must be finite and >= 0, got " + h);
    }
  }

  /** {@code H_t} of the round in flight. */
  protected final double curvature() {
    return pendingH;
  }

  /**
   * {@code Hsum + h}, not yet committed: a round commits its scalars only after its update, so a
   * rejected round changes nothing.
   */
  protected final double nextHsum(double h) {
    double s = hsum + h;
    if (!Double.isFinite(s)) {
      throw new ArithmeticException(
          "Hsum (sum of curvatures H_t) overflowed; rescale the curvatures");
    }
    return s;
  }

  @Override
  protected String brokenInvariant(String name, double v) {
    return switch (name) {
      case "w" -> Invariants.finite(v, "w (weights)");
      case "Hsum" -> Invariants.nonNegative(v, "Hsum (sum of curvatures)");
      case "Lsum" -> Invariants.nonNegative(v, "Lsum (sum of the regularisation weights lambda)");
      case "R" -> Invariants.positive(v, "R (radius of the box)");
      default -> super.brokenInvariant(name, v);
    };
  }
}
