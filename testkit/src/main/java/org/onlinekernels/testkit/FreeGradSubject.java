package org.onlinekernels.testkit;

import java.util.Map;
import java.util.SplittableRandom;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.FreeGradParams;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.rules.freegrad.FreeGrad;
import org.onlinekernels.rules.freegrad.FreeGradOptimizer;
import org.onlinekernels.rules.freegrad.ReferenceFreeGrad;

/**
 * FreeGrad with a random {@code epsilon} (a power of two). The reference caps the exponent at the
 * cap of the element type under test: one-sign runs of the workload take it past float's 64.
 *
 * <p>State factor 2: {@code G} and {@code Vsum} are sums of clipped gradients (one rounding more
 * for the clip's ratio), {@code h1} and {@code ht} exact. Predictions: the weight is a product of
 * bounded factors of the state, each carrying a few relative errors, times {@code exp(e)}, which
 * multiplies the relative error of {@code e} by {@code e} (and the kernels' own {@code expm1} adds
 * 2 ulps): factor {@code 3 (1 + max e) + 2}, as ScInOL1's.
 */
public final class FreeGradSubject extends FusedRuleSubject<FreeGradParams> {
  private final double cap;
  private final double bound;

  public FreeGradSubject(long seed, ElementType t) {
    this(
        new FreeGradParams(Math.scalb(1.0, new SplittableRandom(seed ^ 0xf9eeL).nextInt(-4, 5))),
        t);
  }

  /** FreeGrad with the given parameters, checked in element type {@code t}. */
  public FreeGradSubject(FreeGradParams params, ElementType t) {
    super("FreeGrad", params, 2);
    this.cap = capOf(t);
    this.bound = InputPolicy.weightBound(t);
  }

  private static double capOf(ElementType t) {
    return t == ElementType.FLOAT ? FreeGrad.FLOAT_EXP_CAP : FreeGrad.DOUBLE_EXP_CAP;
  }

  @Override
  public AbstractOptimizer optimizer(
      int d, ElementType type, KernelProvider kernels, StateLayout layout) {
    return new FreeGradOptimizer(d, type, params, layout, null, kernels);
  }

  @Override
  public ReferenceLinearModel reference(int d) {
    return new ReferenceFreeGrad(d, params, cap, bound);
  }

  @Override
  public double predictionFactor(ReferenceLinearModel r, int d, Map<String, Tracker> scalarPaths) {
    ReferenceFreeGrad f = (ReferenceFreeGrad) r;
    double maxE = 0;
    for (int i = 0; i < d; i++) {
      double a = Math.abs(f.bigG()[i]);
      double dd = f.v()[i] + f.ht()[i] * a;
      if (dd > 0) {
        maxE = Math.max(maxE, Math.min(a * (a / dd) / 2, cap));
      }
    }
    return 3 * (1 + maxE) + 2;
  }
}
