package org.onlinekernels.rules.kt;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Set;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.GradientOptimizer;
import org.onlinekernels.optimizer.Invariants;
import org.onlinekernels.optimizer.MergePlan;
import org.onlinekernels.optimizer.ParameterRangeException;
import org.onlinekernels.optimizer.Precision;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.optimizer.RuleOptimizer;
import org.onlinekernels.optimizer.StateLayout;
import org.onlinekernels.params.KtParams;

/**
 * Per-coordinate KT coin betting ({@link Kt}; Orabona and Pal 2016). State buffers {@code theta}
 * (sum of coins), {@code W} (wealth, starts at {@code epsilon}) and {@code k} (nonzero coins
 * counted); the weight {@code (theta / (k + 1)) W} is computed, never stored. Linear-model and
 * gradient form; float or double, planar or {@link StateLayout#INTERLEAVED} state. In float, {@code
 * k} stops counting at 2^24 touches of a coordinate: use double for longer runs.
 */
public final class KtOptimizer extends RuleOptimizer implements GradientOptimizer {
  /** The rule as the command line and the trainers know it. */
  public static final RuleInfo INFO =
      new RuleInfo(
          "kt",
          List.of(
              "  kt              eps=1, Lg=1                        KT coin betting per coordinate (Orabona & Pal 2016),",
              "                  no rate; coins g*x/Lg clipped to [-1, 1]"),
          Set.of("eps", "Lg"),
          false,
          (d, precision, layout, arena, kernels, p) ->
              new KtOptimizer(
                  d,
                  precision.inputType(),
                  new KtParams(p.get("eps", 1), p.get("Lg", 1)),
                  layout,
                  arena,
                  kernels));

  private final KtParams p;

  /** An optimizer with its own confined arena and the default kernels. */
  public KtOptimizer(int d, ElementType type, KtParams params) {
    this(d, type, params, StateLayout.PLANAR, null, null);
  }

  /**
   * An optimizer with its state in {@code layout}.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public KtOptimizer(
      int d,
      ElementType type,
      KtParams params,
      StateLayout layout,
      Arena arena,
      KernelProvider kernels) {
    super("kt", d, checked(params, type), layout, false, false, arena, kernels, KtRuleForms.SHAPE);
    this.p = params;
    u[KtRuleForms.SHAPE.uniform("Lg")] = params.lg();
    resetImpl();
  }

  /**
   * Refuses null parameters, an initial wealth above its cap and a bound the element type cannot
   * hold.
   */
  private static Precision checked(KtParams params, ElementType type) {
    if (params == null) {
      throw new IllegalArgumentException("params must not be null");
    }
    if (type != null) {
      ParameterRangeException.check(
          "kt",
          type,
          "epsilon",
          params.epsilon(),
          wealthCap(type),
          "the initial wealth W = epsilon would exceed its saturation cap");
      ParameterRangeException.check(
          "kt",
          type,
          "Lg",
          params.lg(),
          type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE,
          "Lg would overflow");
    }
    return Precision.of(type);
  }

  private static double wealthCap(ElementType t) {
    return t == ElementType.FLOAT ? Kt.FLOAT_WEALTH_CAP : Kt.DOUBLE_WEALTH_CAP;
  }

  /** The parameters. */
  public KtParams params() {
    return p;
  }

  @Override
  protected void resetImpl() {
    store.fill("W", p.epsilon());
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
   * docs/MERGING.md: {@code theta}, {@code W}, {@code k} averaged over the learners that changed
   * them. The wealth is multiplicative: a sum of increments can go negative and flip the bet, while
   * a mean keeps it positive, and {@code |mean theta| <= mean k} keeps the merged betting fraction
   * in {@code [-1, 1]}.
   */
  @Override
  protected MergePlan mergePlan() {
    return new MergePlan().average("theta", "W", "k");
  }

  @Override
  protected String brokenInvariant(String name, double v) {
    return switch (name) {
      case "theta" -> Invariants.finite(v, "theta (sum of coins)");
      case "W" ->
          v >= 0 && v <= wealthCap(stateType("W"))
              ? null
              : "W (wealth) is finite and within [0, "
                  + wealthCap(stateType("W"))
                  + "] (its saturation bound)";
      case "k" -> Invariants.nonNegative(v, "k (number of nonzero coins)");
      default -> super.brokenInvariant(name, v);
    };
  }
}
