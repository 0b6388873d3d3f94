package org.onlinekernels.rules.fixedgd;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Set;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.GradientRuleOptimizer;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.optimizer.state.Invariants;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;

/**
 * Step 2 of docs/ADDING_A_RULE.md for {@link FixedRateGd}: the optimizer over the generated forms
 * ({@code FixedRateGdRuleForms}, written by the build from the rule's source). State buffer {@code
 * w}, the weights; float or double, planar or interleaved.
 */
public final class FixedRateGdOptimizer extends GradientRuleOptimizer<FixedRateGdParams> {
  /** The rule as the registry knows it (the one line of step 5 lists this). */
  public static final RuleInfo INFO =
      new RuleInfo(
          "fixed-gd",
          List.of(
              "  fixed-gd        eta=0.1                            gradient descent, fixed rate",
              "                  (a test's example rule)"),
          Set.of("eta"),
          false,
          factory(p -> new FixedRateGdParams(p.get("eta", 0.1)), FixedRateGdOptimizer::new));

  /** An optimizer with its own confined arena and the default kernels. */
  public FixedRateGdOptimizer(int d, ElementType type, FixedRateGdParams params) {
    this(d, type, params, StateLayout.PLANAR, null, null);
  }

  /**
   * An optimizer with its state in {@code layout}.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public FixedRateGdOptimizer(
      int d,
      ElementType type,
      FixedRateGdParams params,
      StateLayout layout,
      Arena arena,
      KernelProvider kernels) {
    super(
        "fixed-gd",
        d,
        params,
        checked(params, type),
        layout,
        arena,
        kernels,
        FixedRateGdRuleForms.SHAPE);
    uniform("eta", params.eta());
    resetImpl();
  }

  /** Refuses null parameters and a rate the element type cannot hold. */
  private static Precision checked(FixedRateGdParams params, ElementType type) {
    nonNull(params);
    checkRepresentable("fixed-gd", type, "eta", params.eta());
    return Precision.of(type);
  }

  /** {@code w = 0}. */
  @Override
  protected void resetImpl() {}

  /** docs/MERGING.md: {@code w} averaged over the learners that changed it. */
  @Override
  protected MergePlan mergePlan() {
    return new MergePlan().average("w");
  }

  @Override
  protected String brokenInvariant(String name, double v) {
    return name.equals("w") ? Invariants.finite(v, "w (weight)") : super.brokenInvariant(name, v);
  }
}
