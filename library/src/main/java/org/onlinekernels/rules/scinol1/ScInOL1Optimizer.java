package org.onlinekernels.rules.scinol1;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.ParameterRangeException;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.optimizer.RuleOptimizer;
import org.onlinekernels.optimizer.state.Invariants;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.ScInOLParams;

/**
 * ScInOL1 ({@link ScInOL1}; docs/ALGORITHMS.md section 3): a scale-invariant, parameter-free
 * linear-model learner. State buffers {@code G}, {@code S2}, {@code M}, {@code beta}; scalar state
 * the round counter {@code t} (starts at 1, advanced by each update). Only the linear-model form
 * exists: the rule needs the instance {@code x} itself.
 */
public final class ScInOL1Optimizer extends RuleOptimizer {
  /** The rule as the command line and the trainers know it. */
  public static final RuleInfo INFO =
      new RuleInfo(
          "scinol1",
          List.of(
              "  scinol1         eps=1                              ScInOL1 (Kempka et al. Alg. 1), no tuning"),
          Set.of("eps"),
          false,
          (d, precision, layout, arena, kernels, p) ->
              new ScInOL1Optimizer(
                  d,
                  precision.inputType(),
                  new ScInOLParams(p.get("eps", 1)),
                  layout,
                  arena,
                  kernels));

  private static final int EPS = ScInOL1RuleForms.SHAPE.uniform("eps");
  private static final int T = ScInOL1RuleForms.SHAPE.uniform("t");

  private final ScInOLParams p;
  // double whatever the element type (docs/ALGORITHMS.md: shared scalars are double).
  private double t;

  /** An optimizer with its own confined arena and the default kernels. */
  public ScInOL1Optimizer(int d, ElementType type, ScInOLParams params) {
    this(d, type, params, null, null);
  }

  /**
   * An optimizer on the given arena and kernels.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public ScInOL1Optimizer(
      int d, ElementType type, ScInOLParams params, Arena arena, KernelProvider kernels) {
    this(d, type, params, StateLayout.PLANAR, arena, kernels);
  }

  /**
   * An optimizer with its state in {@code layout}.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public ScInOL1Optimizer(
      int d,
      ElementType type,
      ScInOLParams params,
      StateLayout layout,
      Arena arena,
      KernelProvider kernels) {
    super(
        "scinol1",
        d,
        checked(params, type),
        layout,
        false,
        false,
        arena,
        kernels,
        ScInOL1RuleForms.SHAPE);
    this.p = params;
    u[EPS] = params.epsilon();
    if (!store.adopted()) {
      resetImpl();
    }
  }

  private static Precision checked(ScInOLParams params, ElementType type) {
    if (params == null) {
      throw new IllegalArgumentException("params must not be null");
    }
    Precision precision = Precision.of(type);
    if (type != null) {
      ParameterRangeException.check(
          "scinol1",
          type,
          "epsilon",
          params.epsilon(),
          type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE,
          "the initial beta = epsilon would overflow");
    }
    return precision;
  }

  /** The parameters. */
  public ScInOLParams params() {
    return p;
  }

  /** {@code t}: the round the next predict belongs to. */
  @Override
  public Map<String, Double> scalarState() {
    return Map.of("t", t);
  }

  @Override
  protected void setScalar(String name, double value) {
    t = value;
    u[T] = value;
  }

  @Override
  protected void resetImpl() {
    store.fill("beta", p.epsilon());
    setScalar("t", 1);
  }

  @Override
  protected void afterUpdate(double rowSum, boolean dense) {
    setScalar("t", t + 1);
  }

  /**
   * docs/MERGING.md: {@code G}, {@code S2}, {@code beta}, {@code t} averaged; {@code M} the
   * maximum.
   */
  @Override
  protected MergePlan mergePlan() {
    return new MergePlan().average("G", "S2").max("M").average("beta").averageScalars("t");
  }

  @Override
  protected String brokenInvariant(String name, double v) {
    return switch (name) {
      case "G" -> Invariants.finite(v, "G (negative sum of gradients)");
      case "S2" -> Invariants.nonNegative(v, "S2 (sum of squared gradients)");
      case "M" -> Invariants.nonNegative(v, "M (largest |x| seen)");
      case "beta" -> Invariants.positive(v, "beta");
      case "t" -> Invariants.atLeastOne(v, "t (round counter)");
      default -> super.brokenInvariant(name, v);
    };
  }
}
