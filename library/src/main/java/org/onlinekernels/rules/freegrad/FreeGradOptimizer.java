package org.onlinekernels.rules.freegrad;

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
import org.onlinekernels.params.FreeGradParams;

/**
 * Per-coordinate FreeGrad ({@link FreeGrad}; Mhammedi and Koolen 2020): parameter-free and
 * scale-free. State buffers {@code G}, {@code Vsum}, {@code h1}, {@code ht}; the weight is
 * computed, never stored. Linear-model and gradient form; float or double, planar or {@link
 * StateLayout#INTERLEAVED} state.
 */
public final class FreeGradOptimizer extends GradientRuleOptimizer<FreeGradParams> {
  /** The rule as the command line and the trainers know it. */
  public static final RuleInfo INFO =
      new RuleInfo(
          "freegrad",
          List.of(
              "  freegrad        eps=1                              FreeGrad per coordinate (Mhammedi & Koolen 2020),",
              "                  no tuning, scale-free"),
          Set.of("eps"),
          false,
          factory(p -> new FreeGradParams(p.get("eps", 1)), FreeGradOptimizer::new));

  /** An optimizer with its own confined arena and the default kernels. */
  public FreeGradOptimizer(int d, ElementType type, FreeGradParams params) {
    this(d, type, params, StateLayout.PLANAR, null, null);
  }

  /**
   * An optimizer with its state in {@code layout}.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public FreeGradOptimizer(
      int d,
      ElementType type,
      FreeGradParams params,
      StateLayout layout,
      Arena arena,
      KernelProvider kernels) {
    super(
        "freegrad",
        d,
        params,
        checked(params, type),
        layout,
        arena,
        kernels,
        FreeGradRuleForms.SHAPE);
    uniform("eps", params.epsilon());
    if (!store.adopted()) {
      resetImpl();
    }
  }

  private static Precision checked(FreeGradParams params, ElementType type) {
    checkRepresentable("freegrad", type, "epsilon", nonNull(params).epsilon());
    return Precision.of(type);
  }

  /** Every field starts at 0: no hint yet, the zero weight. */
  @Override
  protected void resetImpl() {}

  /**
   * docs/MERGING.md: {@code G}, {@code Vsum}, {@code h1} averaged over the learners that changed
   * them; {@code ht}, a running maximum, the maximum. The weight is an exponential function of the
   * statistics (as ScInOL's), so the state is mixed as a whole; the means keep {@code h1 <= ht}.
   */
  @Override
  protected MergePlan mergePlan() {
    return new MergePlan().average("G", "Vsum", "h1").max("ht");
  }

  @Override
  protected String brokenInvariant(String name, double v) {
    return switch (name) {
      case "G" -> Invariants.finite(v, "G (sum of clipped gradients)");
      case "Vsum" ->
          Invariants.nonNegative(
              v, "Vsum (first hint squared plus the sum of squared clipped gradients)");
      case "h1" -> Invariants.nonNegative(v, "h1 (first nonzero |g|)");
      case "ht" -> Invariants.nonNegative(v, "ht (largest |g| so far)");
      default -> super.brokenInvariant(name, v);
    };
  }
}
