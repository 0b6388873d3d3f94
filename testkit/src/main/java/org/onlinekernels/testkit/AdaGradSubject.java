package org.onlinekernels.testkit;

import java.util.SplittableRandom;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.Box;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.rules.adagrad.AdaGradOptimizer;
import org.onlinekernels.rules.adagrad.ReferenceAdaGrad;

/**
 * AdaGrad with a random parameter draw: scalar eta or alpha * D_i, delta 0 or not, Q0 0 or not, no
 * box, one box, or a box per coordinate. Parameters are rounded to the element type so both sides
 * use the same numbers.
 *
 * <p>Factor 1: {@code Q} is a pure sum (error {@code <= (T+3) u Q}); the step {@code eta g / (delta
 * + sqrt Q)} adds half of Q's relative error plus 6 roundings; {@code w} is a sum of steps plus one
 * rounding per round: in all {@code <= (T + 8) u (P + M)}.
 */
public final class AdaGradSubject implements Subject {
  private final AdaGradParams params;

  public AdaGradSubject(long seed, int d, ElementType t) {
    SplittableRandom r = new SplittableRandom(seed ^ 0xada6adL);
    Box box =
        switch (r.nextInt(3)) {
          case 0 -> Box.none();
          case 1 -> {
            double b = Workload.round(t, Math.scalb(1.0 + r.nextDouble(), r.nextInt(-6, 4)));
            yield Box.of(-b, Workload.round(t, b * r.nextDouble()));
          }
          default -> {
            double[] lo = new double[d], hi = new double[d];
            for (int i = 0; i < d; i++) {
              lo[i] = -Workload.round(t, Math.scalb(1.0 + r.nextDouble(), r.nextInt(-6, 4)));
              hi[i] = Workload.round(t, Math.scalb(1.0 + r.nextDouble(), r.nextInt(-6, 4)));
            }
            yield Box.perCoordinate(lo, hi);
          }
        };
    double rate = Workload.round(t, Math.scalb(1.0 + r.nextDouble(), r.nextInt(-6, 3)));
    boolean fromWidth = !box.isNone() && r.nextBoolean();
    double delta = r.nextBoolean() ? 0 : Workload.round(t, Math.scalb(1.0, r.nextInt(-12, 0)));
    double q0 = r.nextBoolean() ? 0 : Workload.round(t, Math.scalb(1.0, r.nextInt(-12, 0)));
    params = new AdaGradParams(rate, fromWidth, delta, q0, box);
  }

  /** AdaGrad with the given parameters (their box, if per coordinate, fixes the dimension). */
  public AdaGradSubject(AdaGradParams params) {
    this.params = params;
  }

  /** The parameters both sides run with. */
  public AdaGradParams params() {
    return params;
  }

  @Override
  public String describe() {
    return "AdaGrad " + params;
  }

  @Override
  public AbstractOptimizer optimizer(int d, ElementType type, KernelProvider kernels) {
    return new AdaGradOptimizer(d, type, params, null, kernels);
  }

  @Override
  public AbstractOptimizer optimizer(
      int d, ElementType type, KernelProvider kernels, StateLayout layout) {
    return params.box().isPerCoordinate() || layout == StateLayout.PLANAR
        ? optimizer(d, type, kernels)
        : new AdaGradOptimizer(d, type, params, layout, null, kernels);
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
    return new ReferenceAdaGrad(d, params);
  }

  @Override
  public boolean exactStateInDouble() {
    return true;
  }

  @Override
  public double stateFactor() {
    return 1;
  }
}
