package org.onlinekernels.testkit;

import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.state.StateLayout;

/**
 * A subject whose every parameter draw runs the fused round on both layouts and whose double state
 * must equal the reference's bit for bit: what it adds to {@link Subject} is its parameters, its
 * state factor, and how to make its optimizer on a layout.
 *
 * @param <P> the rule's parameter record
 */
abstract class FusedRuleSubject<P> implements Subject {
  private final String rule;

  /** The parameters both sides run with. */
  final P params;

  private final double stateFactor;

  /**
   * @param rule the rule's name in failure messages
   * @param params the parameters both sides run with
   * @param stateFactor {@code C} of the state bound (see {@link Subject#stateFactor})
   */
  FusedRuleSubject(String rule, P params, double stateFactor) {
    this.rule = rule;
    this.params = params;
    this.stateFactor = stateFactor;
  }

  /** The parameters both sides run with. */
  public final P params() {
    return params;
  }

  @Override
  public String describe() {
    return rule + " " + params;
  }

  @Override
  public final AbstractOptimizer optimizer(int d, ElementType type, KernelProvider kernels) {
    return optimizer(d, type, kernels, StateLayout.PLANAR);
  }

  @Override
  public abstract AbstractOptimizer optimizer(
      int d, ElementType type, KernelProvider kernels, StateLayout layout);

  @Override
  public final boolean fusedRound() {
    return true;
  }

  @Override
  public final boolean interleaves() {
    return true;
  }

  @Override
  public final boolean exactStateInDouble() {
    return true;
  }

  @Override
  public final double stateFactor() {
    return stateFactor;
  }
}
