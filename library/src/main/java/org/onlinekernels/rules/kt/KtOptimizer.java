package org.onlinekernels.rules.kt;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Set;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.GradientRuleOptimizer;
import org.onlinekernels.optimizer.ParameterRangeException;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.optimizer.state.Invariants;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.KtParams;

/**
 * Per-coordinate KT coin betting ({@link Kt}; Orabona and Pal 2016). State buffers {@code theta}
 * (sum of coins), {@code W} (wealth, starts at {@code epsilon}) and {@code k} (nonzero coins
 * counted); the weight {@code (theta / (k + 1)) W} is computed, never stored. Linear-model and
 * gradient form; float or double, planar or {@link StateLayout#INTERLEAVED} state. In float, {@code
 * k} stops counting at 2^24 touches of a coordinate: use double for longer runs.
 */
public final class KtOptimizer extends GradientRuleOptimizer<KtParams> {
  /** The rule as the command line and the trainers know it. */
  public static final RuleInfo INFO =
      new RuleInfo(
          "kt",
          List.of(
              "  kt              eps=1, Lg=1                        KT coin betting per coordinate (Orabona & Pal 2016),",
              "                  no rate; coins g*x/Lg clipped to [-1, 1]"),
          Set.of("eps", "Lg"),
          false,
          factory(p -> new KtParams(p.get("eps", 1), p.get("Lg", 1)), KtOptimizer::new));

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
    super("kt", d, params, checked(params, type), layout, arena, kernels, KtRuleForms.SHAPE);
    uniform("Lg", params.lg());
    if (!store.adopted()) {
      resetImpl();
    }
  }

  /**
   * Refuses null parameters, an initial wealth above its cap and a bound the element type cannot
   * hold.
   */
  private static Precision checked(KtParams params, ElementType type) {
    nonNull(params);
    if (type != null) {
      ParameterRangeException.check(
          "kt",
          type,
          "epsilon",
          params.epsilon(),
          wealthCap(type),
          "the initial wealth W = epsilon would exceed its saturation cap");
    }
    checkRepresentable("kt", type, "Lg", params.lg());
    return Precision.of(type);
  }

  private static double wealthCap(ElementType t) {
    return t == ElementType.FLOAT ? Kt.FLOAT_WEALTH_CAP : Kt.DOUBLE_WEALTH_CAP;
  }

  @Override
  protected void resetImpl() {
    store.fill("W", params().epsilon());
  }

  /**
   * docs/MERGING.md: {@code theta}, {@code W}, {@code k} averaged over the learners that changed
   * them. The wealth is multiplicative: a sum of increments can go negative and flip the bet, while
   * a mean keeps it positive, and {@code |mean theta| <= mean k} keeps the merged betting fraction
   * in {@code [-1, 1]}. For the same reason {@code W} is {@link MergePlan#compounding}: each round
   * multiplies it by {@code 1 + coin theta / (k + 1)}.
   */
  @Override
  protected MergePlan mergePlan() {
    return new MergePlan().average("theta", "W", "k").compounding("W");
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
