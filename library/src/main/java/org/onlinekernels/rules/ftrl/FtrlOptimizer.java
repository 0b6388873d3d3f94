package org.onlinekernels.rules.ftrl;

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
import org.onlinekernels.params.FtrlParams;

/**
 * Per-coordinate FTRL-Proximal ({@link Ftrl}; McMahan et al. 2013, Algorithm 1). State buffers
 * {@code z} and {@code N} (the paper's {@code n}); the weights are computed from them, never
 * stored, so {@code readWeights} gives exact zeros wherever {@code |z_i| <= lambda1}. Linear-model
 * and gradient form; float or double, planar or {@link StateLayout#INTERLEAVED} state.
 */
public final class FtrlOptimizer extends RuleOptimizer implements GradientOptimizer {
  /** The rule as the command line and the trainers know it. */
  public static final RuleInfo INFO =
      new RuleInfo(
          "ftrl",
          List.of(
              "  ftrl            alpha=0.5, beta=1, l1=0, l2=0      per-coordinate FTRL-Proximal (McMahan et al. 2013 Alg. 1)",
              "                  with L1 (exact zeros) and L2; alpha is a rate: worth tuning"),
          Set.of("alpha", "beta", "l1", "l2"),
          false,
          (d, precision, layout, arena, kernels, p) -> {
            FtrlParams def = FtrlParams.defaults();
            return new FtrlOptimizer(
                d,
                precision.inputType(),
                new FtrlParams(
                    p.get("alpha", def.alpha()),
                    p.get("beta", def.beta()),
                    p.get("l1", def.lambda1()),
                    p.get("l2", def.lambda2())),
                layout,
                arena,
                kernels);
          });

  private final FtrlParams p;

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
    super(
        "ftrl",
        d,
        checked(params, type),
        layout,
        false,
        false,
        arena,
        kernels,
        FtrlRuleForms.SHAPE);
    this.p = params;
    u[FtrlRuleForms.SHAPE.uniform("alpha")] = params.alpha();
    u[FtrlRuleForms.SHAPE.uniform("beta")] = params.beta();
    u[FtrlRuleForms.SHAPE.uniform("lambda1")] = params.lambda1();
    u[FtrlRuleForms.SHAPE.uniform("lambda2")] = params.lambda2();
    resetImpl();
  }

  /**
   * Refuses null parameters and parameters the element type cannot hold, before any state is
   * allocated.
   */
  private static Precision checked(FtrlParams params, ElementType type) {
    if (params == null) {
      throw new IllegalArgumentException("params must not be null");
    }
    if (type != null) {
      double max = type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE;
      ParameterRangeException.check(
          "ftrl", type, "alpha", params.alpha(), max, "alpha would overflow");
      ParameterRangeException.check(
          "ftrl", type, "beta", params.beta(), max, "beta would overflow");
      ParameterRangeException.check(
          "ftrl", type, "lambda1", params.lambda1(), max, "lambda1 would overflow");
      ParameterRangeException.check(
          "ftrl", type, "lambda2", params.lambda2(), max, "lambda2 would overflow");
    }
    return Precision.of(type);
  }

  /** The parameters. */
  public FtrlParams params() {
    return p;
  }

  /** {@code z = N = 0}: the zero weights. */
  @Override
  protected void resetImpl() {}

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
