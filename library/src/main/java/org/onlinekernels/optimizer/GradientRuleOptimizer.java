package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Function;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.lanes.RuleShape;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;

/**
 * A generated rule in gradient form with planar or interleaved state and no variant (FTRL, KT,
 * FreeGrad): its step is the linear-model update with the gradient in place of the instance and
 * {@code g = 1}, so the rule's optimizer holds only its parameters, uniforms, initial state, merge
 * plan and invariants.
 *
 * @param <P> the rule's parameter record
 */
public abstract class GradientRuleOptimizer<P> extends RuleOptimizer implements GradientOptimizer {
  private final RuleShape shape;
  private final P params;

  /**
   * @param params the rule's parameters, checked
   * @param precision {@link Precision#of} the element type, after the rule's parameter checks
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  protected GradientRuleOptimizer(
      String algorithm,
      int d,
      P params,
      Precision precision,
      StateLayout layout,
      Arena arena,
      KernelProvider kernels,
      RuleShape shape) {
    super(algorithm, d, precision, layout, false, false, arena, kernels, shape);
    this.shape = shape;
    this.params = params;
  }

  /** The parameters. */
  public final P params() {
    return params;
  }

  /** A gradient rule optimizer's full constructor. */
  @FunctionalInterface
  protected interface Constructor<P> {
    /** The optimizer of dimension {@code d}, element type {@code type}, with {@code params}. */
    GradientRuleOptimizer<P> create(
        int d, ElementType type, P params, StateLayout layout, Arena arena, KernelProvider kernels);
  }

  /**
   * The rule's {@link RuleInfo.Factory}: its parameters read from text by {@code params}, passed
   * with the precision's input type to {@code constructor}.
   */
  protected static <P> RuleInfo.Factory factory(
      Function<RuleInfo.Params, P> params, Constructor<P> constructor) {
    return (d, precision, layout, arena, kernels, p) ->
        constructor.create(d, precision.inputType(), params.apply(p), layout, arena, kernels);
  }

  /** Sets the uniform {@code name} of the rule ({@link RuleShape#uniforms}) to {@code value}. */
  protected final void uniform(String name, double value) {
    u[shape.uniform(name)] = value;
  }

  @Override
  public final void step(MemorySegment gradient) {
    checkGradient(gradient);
    updateDense(gradient, 1.0);
  }

  @Override
  public final void stepSparse(MemorySegment indices, MemorySegment values, int nnz) {
    checkSparseGradient(indices, values, nnz);
    updateSparse(indices, values, nnz, 1.0);
  }

  /**
   * Refuses null parameters; for use in a constructor's {@code super(...)} call, before any state
   * is allocated.
   *
   * @return {@code params}
   */
  protected static <P> P nonNull(P params) {
    if (params == null) {
      throw new IllegalArgumentException("params must not be null");
    }
    return params;
  }

  /**
   * Refuses a parameter beyond the largest finite value of {@code type} (the rule's arithmetic on
   * it would overflow); nothing is checked for a null type, which {@link Precision#of} refuses.
   */
  protected static void checkRepresentable(
      String algorithm, ElementType type, String name, double value) {
    if (type != null) {
      ParameterRangeException.check(
          algorithm,
          type,
          name,
          value,
          type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE,
          name + " would overflow");
    }
  }
}
