package org.onlinekernels.testkit;

import java.util.SplittableRandom;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.Box;
import org.onlinekernels.params.GlobalAdaGradParams;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.rules.globaladagrad.GlobalAdaGradOptimizer;
import org.onlinekernels.rules.globaladagrad.ReferenceGlobalAdaGrad;

/**
 * Global-rate AdaGrad with a random box (finite scalar or per coordinate) or explicit {@code D}.
 *
 * <p>The rate {@code alpha D / (delta + sqrt(2 sum ||g||^2))} comes from a reduction (relative
 * error {@code chain(d) u} per round, then a running sum: {@code (chain(d) + T) u}); the step
 * carries half of that plus 4 roundings, and {@code w} is a sum of steps. Hence {@code C (T + 8) >=
 * (chain(d) + T)/2 + 8}, i.e. {@code C = 1 + chain(d) / 16}; the running sum itself is compared
 * with the scalar bound.
 */
public final class GlobalAdaGradSubject implements Subject {
  private final GlobalAdaGradParams params;
  private final double factor;

  public GlobalAdaGradSubject(long seed, int d, ElementType t) {
    SplittableRandom r = new SplittableRandom(seed ^ 0x610bL);
    GlobalAdaGradParams p =
        switch (r.nextInt(3)) {
          case 0 ->
              GlobalAdaGradParams.ofDiameter(
                  Workload.round(t, Math.scalb(1.0 + r.nextDouble(), r.nextInt(-4, 4))));
          case 1 ->
              GlobalAdaGradParams.of(
                  Box.symmetric(
                      Workload.round(t, Math.scalb(1.0 + r.nextDouble(), r.nextInt(-4, 4)))));
          default -> {
            double[] lo = new double[d], hi = new double[d];
            for (int i = 0; i < d; i++) {
              lo[i] = -Workload.round(t, Math.scalb(1.0 + r.nextDouble(), r.nextInt(-4, 4)));
              hi[i] = Workload.round(t, Math.scalb(1.0 + r.nextDouble(), r.nextInt(-4, 4)));
            }
            yield GlobalAdaGradParams.of(Box.perCoordinate(lo, hi));
          }
        };
    if (r.nextBoolean()) {
      p = p.withDelta(Workload.round(t, Math.scalb(1.0, r.nextInt(-10, 0))));
    }
    params = p.withAlpha(Workload.round(t, Math.scalb(1.0 + r.nextDouble(), r.nextInt(-3, 2))));
    factor = 1 + Tolerance.chain(d) / 16;
  }

  /**
   * Global-rate AdaGrad with the given parameters, at dimension {@code d} (the bound depends on
   * it).
   */
  public GlobalAdaGradSubject(GlobalAdaGradParams params, int d) {
    this.params = params;
    this.factor = 1 + Tolerance.chain(d) / 16;
  }

  /** The parameters both sides run with. */
  public GlobalAdaGradParams params() {
    return params;
  }

  @Override
  public String describe() {
    return "GlobalAdaGrad " + params;
  }

  @Override
  public AbstractOptimizer optimizer(int d, ElementType type, KernelProvider kernels) {
    return new GlobalAdaGradOptimizer(d, type, params, null, kernels);
  }

  @Override
  public AbstractOptimizer optimizer(
      int d, ElementType type, KernelProvider kernels, StateLayout layout) {
    return params.box().isPerCoordinate() || layout == StateLayout.PLANAR
        ? optimizer(d, type, kernels)
        : new GlobalAdaGradOptimizer(d, type, params, layout, null, kernels);
  }

  @Override
  public boolean fusedRound() {
    return !params.box().isPerCoordinate();
  }

  @Override
  public boolean interleaves() {
    return fusedRound();
  }

  @Override
  public ReferenceLinearModel reference(int d) {
    return new ReferenceGlobalAdaGrad(d, params);
  }

  /** The rate comes from {@code ||x||^2}, summed in another order for sparse input. */
  @Override
  public boolean sparseStateEqualsDense() {
    return false;
  }

  @Override
  public boolean exactStateInDouble() {
    return false;
  }

  @Override
  public double stateFactor() {
    return factor;
  }
}
