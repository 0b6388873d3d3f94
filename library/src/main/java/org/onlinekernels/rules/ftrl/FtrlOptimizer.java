package org.onlinekernels.rules.ftrl;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.GradientRuleOptimizer;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.optimizer.ParameterRangeException;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.optimizer.state.Invariants;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.FtrlParams;

/**
 * Per-coordinate FTRL-Proximal ({@link Ftrl}; McMahan et al. 2013, Algorithm 1). State buffers
 * {@code z} and {@code N} (the paper's {@code n}); the weights are computed from them, never
 * stored, so {@code readWeights} gives exact zeros wherever {@code |z_i| <= lambda1}. Linear-model
 * and gradient form; float or double, planar or {@link StateLayout#INTERLEAVED} state.
 */
public final class FtrlOptimizer extends GradientRuleOptimizer<FtrlParams> {
  /** The rule as the command line and the trainers know it. */
  public static final RuleInfo INFO =
      new RuleInfo(
          "ftrl",
          List.of(
              "  ftrl            alpha=0.5, beta=1, l1=0, l2=0      per-coordinate FTRL-Proximal (McMahan et al. 2013 Alg. 1)",
              "                  with L1 (exact zeros) and L2; alpha is a rate: worth tuning"),
          Set.of("alpha", "beta", "l1", "l2"),
          false,
          factory(
              p -> {
                FtrlParams def = FtrlParams.defaults();
                return new FtrlParams(
                    p.get("alpha", def.alpha()),
                    p.get("beta", def.beta()),
                    p.get("l1", def.lambda1()),
                    p.get("l2", def.lambda2()));
              },
              FtrlOptimizer::new));

  /** An optimizer with its own confined arena and the default kernels. */
  public FtrlOptimizer(int d, ElementType type, FtrlParams params) {
    this(d, type, params, StateLayout.PLANAR, null, null);
  }

  /**
   * An optimizer with its state in {@code layout}.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public FtrlOptimizer(
      int d,
      ElementType type,
      FtrlParams params,
      StateLayout layout,
      Arena arena,
      KernelProvider kernels) {
    super("ftrl", d, params, checked(params, type), layout, arena, kernels, FtrlRuleForms.SHAPE);
    uniform("alpha", params.alpha());
    uniform("beta", params.beta());
    uniform("lambda1", params.lambda1());
    uniform("lambda2", params.lambda2());
    if (!store.adopted()) {
      resetImpl();
    }
  }

  /**
   * Refuses null parameters and parameters the element type cannot hold, before any state is
   * allocated.
   */
  private static Precision checked(FtrlParams params, ElementType type) {
    nonNull(params);
    checkRepresentable("ftrl", type, "alpha", params.alpha());
    if (type != null && params.alpha() > 0 && params.alpha() < smallestAlpha(type)) {
      throw new ParameterRangeException(
          "alpha",
          "ftrl: alpha = "
              + params.alpha()
              + " is too small for "
              + type.name().toLowerCase(Locale.ROOT)
              + " elements (a step of a gradient within the input limit, divided by alpha, would"
              + " overflow and make the state NaN); alpha must be at least "
              + smallestAlpha(type)
              + (type == ElementType.FLOAT ? ", or use double elements" : ""));
    }
    checkRepresentable("ftrl", type, "beta", params.beta());
    checkRepresentable("ftrl", type, "lambda1", params.lambda1());
    checkRepresentable("ftrl", type, "lambda2", params.lambda2());
    return Precision.of(type);
  }

  /**
   * The smallest accepted {@code alpha}: {@code sig <= |g_i| / alpha} stays 2^8 below the type's
   * largest value for every {@code |g_i|} within {@link InputPolicy#magnitudeLimit} ({@code 2^-80}
   * for float, {@code 2^-536} for double). Smaller, {@code sig} overflows, and {@code sig * w} with
   * {@code w = 0} makes {@code z} NaN.
   */
  public static double smallestAlpha(ElementType type) {
    return InputPolicy.magnitudeLimit(type)
        / (type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE)
        * 0x1p8;
  }

  /** {@code z = N = 0}: the zero weights. */
  @Override
  protected void resetImpl() {}

  /**
   * docs/MERGING.md: {@code z} and {@code N} averaged over the learners that changed them. FTRL is
   * a dual-averaging method: its state is the (proximally corrected) sum of gradients and the sum
   * of their squares, of which the weights are a function, mixed as a whole like ScInOL's.
   */
  @Override
  protected MergePlan mergePlan() {
    return new MergePlan().average("z", "N");
  }

  @Override
  protected String brokenInvariant(String name, double v) {
    return switch (name) {
      case "z" -> Invariants.finite(v, "z (sum of gradients minus the proximal corrections)");
      case "N" -> Invariants.nonNegative(v, "N (sum of squared gradients)");
      default -> super.brokenInvariant(name, v);
    };
  }
}
