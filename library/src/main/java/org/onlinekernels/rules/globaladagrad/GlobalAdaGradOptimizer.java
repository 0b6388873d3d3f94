package org.onlinekernels.rules.globaladagrad;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.lanes.RuleShape;
import org.onlinekernels.optimizer.GradientOptimizer;
import org.onlinekernels.optimizer.ParameterRangeException;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.optimizer.RuleOptimizer;
import org.onlinekernels.optimizer.state.Invariants;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.Box;
import org.onlinekernels.params.GlobalAdaGradParams;

/**
 * Global-rate AdaGrad ({@link GlobalAdaGrad}; Streeter and McMahan 2010, Theorem 2):
 *
 * <pre>
 *   sumSquares += ||g_t||^2
 *   eta_t = alpha * D / (delta + sqrt(2 * sumSquares))       (denominator 0: no change this round)
 *   w_i   = clamp(w_i - eta_t * g_i, a_i, b_i)
 * </pre>
 *
 * State: the buffer {@code w} (plus {@code lo}, {@code hi} for a per-coordinate box) and the {@code
 * double} scalar {@code sumSquares}. In linear-model form {@code ||g x||^2} is computed as {@code
 * g^2 ||x||^2}, so one reduction over {@code x} serves both forms.
 */
public final class GlobalAdaGradOptimizer extends RuleOptimizer implements GradientOptimizer {
  /** The rule as the command line and the trainers know it. */
  public static final RuleInfo INFO =
      new RuleInfo(
          "adagrad-global",
          List.of(
              "  adagrad-global  alpha=1, delta=0, R=inf, D (default: 2R*sqrt(d) with R, else 1)",
              "                  one global AdaGrad rate (Streeter & McMahan Thm. 2)"),
          Set.of("alpha", "delta", "R", "D"),
          false,
          (d, precision, layout, arena, kernels, p) -> {
            double r = p.get("R", Double.POSITIVE_INFINITY);
            Box box = Double.isInfinite(r) ? Box.none() : Box.symmetric(r);
            double dd = p.get("D", box.isFinite() ? Double.NaN : 1.0);
            return new GlobalAdaGradOptimizer(
                d,
                precision.inputType(),
                new GlobalAdaGradParams(p.get("alpha", 1), p.get("delta", 0), box, dd),
                layout,
                arena,
                kernels);
          });

  private static final RuleShape SHAPE = GlobalAdaGradRuleForms.SHAPE;
  private static final int ETA = SHAPE.uniform("eta");

  private final GlobalAdaGradParams p;
  private final double diameter;
  private final boolean boxed;
  private double sumSquares;

  /** The sum the update in flight commits. */
  private double nextSum;

  /** An optimizer with its own confined arena and the default kernels. */
  public GlobalAdaGradOptimizer(int d, ElementType type, GlobalAdaGradParams params) {
    this(d, type, params, null, null);
  }

  /**
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public GlobalAdaGradOptimizer(
      int d, ElementType type, GlobalAdaGradParams params, Arena arena, KernelProvider kernels) {
    this(d, type, params, StateLayout.PLANAR, arena, kernels);
  }

  /**
   * An optimizer with its state in {@code layout} (one box for all coordinates when interleaved):
   * one field is the same memory in either layout; interleaved state sums a separate sparse predict
   * in the fused round's order.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public GlobalAdaGradOptimizer(
      int d,
      ElementType type,
      GlobalAdaGradParams params,
      StateLayout layout,
      Arena arena,
      KernelProvider kernels) {
    super(
        "global-adagrad",
        d,
        Precision.of(type),
        layout,
        checked(d, type, params),
        false,
        arena,
        kernels,
        SHAPE);
    this.p = params;
    this.diameter = params.diameter(d);
    this.boxed = params.box().isPerCoordinate();
    u[SHAPE.uniform("lo")] = params.box().lo(0);
    u[SHAPE.uniform("hi")] = params.box().hi(0);
    if (!store.adopted()) {
      resetImpl();
    }
  }

  /** The checks before any state is allocated; returns whether the box is per coordinate. */
  private static boolean checked(int d, ElementType type, GlobalAdaGradParams params) {
    if (params == null) {
      throw new IllegalArgumentException("params must not be null");
    }
    params.box().checkDimension(d);
    double diameter = params.diameter(d);
    if (!(diameter > 0) || !Double.isFinite(diameter)) {
      // A box of zero width has D = 0: every step would be 0, almost certainly a configuration
      // slip.
      throw new IllegalArgumentException(
          "diameter D must be finite and > 0, got " + diameter + " for dimension " + d);
    }
    if (type != null) {
      double max = type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE;
      // The rate's numerator alpha * D is rounded to the element type with every rate.
      ParameterRangeException.check(
          "global-adagrad",
          type,
          "alpha * D",
          params.alpha() * diameter,
          max,
          "the rate's numerator would overflow");
      ParameterRangeException.check(
          "global-adagrad", type, "delta", params.delta(), max, "delta would overflow");
    }
    return params.box().isPerCoordinate();
  }

  /** The parameters. */
  public GlobalAdaGradParams params() {
    return p;
  }

  /** The diameter {@code D} in use (given, or the box's Euclidean diameter). */
  public double diameter() {
    return diameter;
  }

  /** {@code sumSquares = sum_{s<=t} ||g_s||^2}. */
  @Override
  public Map<String, Double> scalarState() {
    return Map.of("sumSquares", sumSquares);
  }

  @Override
  protected void setScalar(String name, double value) {
    sumSquares = value;
  }

  @Override
  protected void resetImpl() {
    sumSquares = 0;
    Box b = p.box();
    for (int i = 0; i < d; i++) {
      store.set("w", i, b.clamp(i, 0.0));
      if (boxed) {
        store.set("lo", i, b.lo(i));
        store.set("hi", i, b.hi(i));
      }
    }
  }

  /** The update needs {@code ||x||^2}: {@code ||g x||^2 = g^2 ||x||^2}. */
  @Override
  protected boolean needsInputNormAtUpdate() {
    return true;
  }

  /**
   * The round's rate from the new sum, refused before anything changes when the sum or the rate
   * overflows; a zero denominator (no gradient yet and {@code delta = 0}) means no change this
   * round.
   */
  @Override
  protected boolean beforeUpdate(double g) {
    double sum = sumSquares + g * g * inputSquaredNorm();
    if (!Double.isFinite(sum)) {
      throw new ArithmeticException(
          "sum of squared gradient norms overflowed; rescale the gradients");
    }
    nextSum = sum;
    double den = p.delta() + Math.sqrt(2 * sum);
    if (!(den > 0)) {
      return false;
    }
    double eta = p.alpha() * diameter / den;
    // The forms round the rate to the element type: a rate beyond float's range would become
    // infinite there, and inf * 0 = NaN on coordinates whose gradient is (or underflows to) 0.
    if (!(eta <= (type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE))) {
      throw new ArithmeticException(
          "global AdaGrad rate alpha*D/(delta + sqrt(2*sumSquares)) = "
              + eta
              + " overflows the "
              + type.name().toLowerCase()
              + " range (sumSquares = "
              + sum
              + "); use delta > 0 or rescale the gradients; the state was left unchanged");
    }
    u[ETA] = eta;
    return true;
  }

  @Override
  protected void afterUpdate(double rowSum, boolean dense) {
    sumSquares = nextSum;
  }

  @Override
  public void step(MemorySegment gradient) {
    checkGradient(gradient);
    updateDense(gradient, 1.0);
  }

  @Override
  public void stepSparse(MemorySegment indices, MemorySegment values, int nnz) {
    checkSparseGradient(indices, values, nnz);
    updateSparse(indices, values, nnz, 1.0);
  }

  /**
   * docs/MERGING.md: {@code sumSquares} by increments; {@code w} averaged by its increments,
   * clamped.
   */
  @Override
  protected MergePlan mergePlan() {
    Box b = p.box();
    return new MergePlan()
        .mean("w", null, List.of("sumSquares"), b::clamp)
        .sumScalars("sumSquares");
  }

  @Override
  protected String brokenInvariant(String name, double v) {
    return switch (name) {
      case "w" -> Invariants.finite(v, "w (weights)");
      case "sumSquares" -> Invariants.nonNegative(v, "sumSquares (sum of squared gradient norms)");
      default -> super.brokenInvariant(name, v); // lo, hi: box bounds, may be infinite
    };
  }
}
