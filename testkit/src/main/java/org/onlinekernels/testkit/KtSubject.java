package org.onlinekernels.testkit;

import java.util.Map;
import java.util.SplittableRandom;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.KtParams;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.rules.kt.Kt;
import org.onlinekernels.rules.kt.KtOptimizer;
import org.onlinekernels.rules.kt.ReferenceKt;

/**
 * KT coin betting with a random draw of {@code epsilon} and {@code Lg} (powers of two). The
 * reference saturates the wealth at the cap of the element type under test: the workload's one-sign
 * runs take a float wealth to 2^90 within a case.
 *
 * <p>State factor 2: {@code theta} and {@code k} are sums (of coins carrying one rounding each, and
 * of ones). The wealth is a product, {@code W (1 + coin b)}: its own relative error passes on
 * unchanged, one rounding is added, and the error of the betting fraction {@code b = theta / (k +
 * 1)} enters as {@code |coin| W dtheta / (k + 1)}, which {@link #accumulateExtra} adds up (a
 * fraction of a sum that can cancel: its error is relative to {@code theta}'s path, not to {@code
 * b}).
 */
public final class KtSubject extends FusedRuleSubject<KtParams> {
  private final double cap;
  private final double bound;

  public KtSubject(long seed, ElementType t) {
    this(draw(seed), t);
  }

  /** KT with the given parameters, checked in element type {@code t}. */
  public KtSubject(KtParams params, ElementType t) {
    super("KT", params, 2);
    this.cap = capOf(t);
    this.bound = InputPolicy.weightBound(t);
  }

  private static KtParams draw(long seed) {
    SplittableRandom r = new SplittableRandom(seed ^ 0x4bL);
    return new KtParams(Math.scalb(1.0, r.nextInt(-4, 5)), Math.scalb(1.0, r.nextInt(-6, 7)));
  }

  private static double capOf(ElementType t) {
    return t == ElementType.FLOAT ? Kt.FLOAT_WEALTH_CAP : Kt.DOUBLE_WEALTH_CAP;
  }

  @Override
  public AbstractOptimizer optimizer(
      int d, ElementType type, KernelProvider kernels, StateLayout layout) {
    return new KtOptimizer(d, type, params, layout, null, kernels);
  }

  @Override
  public ReferenceLinearModel reference(int d) {
    return new ReferenceKt(d, params, cap, bound);
  }

  @Override
  public void accumulateExtra(
      Map<String, double[]> extra,
      ReferenceLinearModel r,
      Map<String, Tracker> paths,
      double g,
      double[] x,
      int round,
      double u) {
    ReferenceKt k = (ReferenceKt) r;
    Tracker tp = paths.get("theta");
    double[] e = extra.get("W");
    for (int i = 0; i < x.length; i++) {
      double gx = g * x[i];
      if (gx == 0) {
        continue;
      }
      double coin = Math.min(Math.abs(gx / params.lg()), 1);
      double dTheta = Tolerance.state(u, stateFactor(), round + 1, tp.path[i], tp.peak[i]);
      e[i] += coin * k.wealth()[i] * dTheta / (k.k()[i] + 1);
    }
  }
}
