package org.onlinekernels.testkit;

import java.util.Map;
import java.util.SplittableRandom;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.FtrlParams;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.rules.ftrl.FtrlOptimizer;
import org.onlinekernels.rules.ftrl.ReferenceFtrl;

/**
 * FTRL-Proximal with a random draw of {@code alpha}, {@code beta}, {@code lambda1}, {@code lambda2}
 * (powers of two, so float holds them exactly; each regulariser 0 in a third of the draws).
 *
 * <p>State factor 4 for the sum {@code N}, and for {@code z} as far as its path goes. But {@code z}
 * is an ill-conditioned representation of the weight: {@code z = -(beta + sqrt(N)) w / alpha}
 * without regularisation, so a round that brings {@code w} near 0 brings {@code z} near 0 by
 * cancellation of {@code z + g} against {@code sig w}, terms of the size of the gradient, and a
 * rounding of each is lost relative to {@code z}'s path. {@link #accumulateExtra} adds, per touched
 * coordinate and round, a few roundings of {@code |g| + |sig w|} (and the error of {@code N},
 * relative, reaching {@code w} through {@code sqrt}), and carries the earlier error on multiplied
 * by {@code 1 + sig / den}: the derivative of {@code z + g - sig w(z)} with respect to {@code z}.
 *
 * <p>The weight {@code w = (sgn(z) lambda1 - z) / den} is, past the threshold, a difference of
 * {@code z} and {@code lambda1}: where {@code z} is just past it, {@code w} is small and {@code
 * z}'s error reaches it undiminished, divided by {@code den}. The generic prediction term scales
 * with {@code |w|} and misses that, so {@link #predictionExtra} adds {@code |x_i|} times {@code
 * z}'s bound over {@code den} for every coordinate that {@code z}'s bound leaves past the
 * threshold.
 */
public final class FtrlSubject extends FusedRuleSubject<FtrlParams> {
  private final double bound;

  public FtrlSubject(long seed, ElementType t) {
    this(draw(seed), t);
  }

  /**
   * FTRL-Proximal with the given parameters, checked in element type {@code t} (the reference
   * clamps the weight at that type's bound).
   */
  public FtrlSubject(FtrlParams params, ElementType t) {
    super("FTRL", params, 4);
    this.bound = InputPolicy.weightBound(t);
  }

  private static FtrlParams draw(long seed) {
    SplittableRandom r = new SplittableRandom(seed ^ 0xf721L);
    return new FtrlParams(
        Math.scalb(1.0, r.nextInt(-4, 3)),
        r.nextInt(3) == 0 ? 0 : Math.scalb(1.0, r.nextInt(-3, 3)),
        r.nextInt(3) == 0 ? 0 : Math.scalb(1.0, r.nextInt(-8, 1)),
        r.nextInt(3) == 0 ? 0 : Math.scalb(1.0, r.nextInt(-6, 2)));
  }

  @Override
  public AbstractOptimizer optimizer(
      int d, ElementType type, KernelProvider kernels, StateLayout layout) {
    return new FtrlOptimizer(d, type, params, layout, null, kernels);
  }

  @Override
  public ReferenceLinearModel reference(int d) {
    return new ReferenceFtrl(d, params, bound);
  }

  @Override
  public double predictionExtra(
      ReferenceLinearModel r, double[] x, Map<String, double[]> stateBound) {
    ReferenceFtrl f = (ReferenceFtrl) r;
    double[] z = f.z();
    double[] n = f.n();
    double[] zBound = stateBound.get("z");
    double e = 0;
    for (int i = 0; i < x.length; i++) {
      if (x[i] != 0 && Math.abs(z[i]) + zBound[i] > params.lambda1()) {
        double den = (params.beta() + Math.sqrt(n[i])) / params.alpha() + params.lambda2();
        e += Math.abs(x[i]) * zBound[i] / den;
      }
    }
    return e;
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
    ReferenceFtrl f = (ReferenceFtrl) r;
    double[] e = extra.get("z");
    double[] w = f.weights();
    for (int i = 0; i < x.length; i++) {
      double gx = g * x[i];
      if (gx == 0) {
        continue;
      }
      double n = f.n()[i];
      double gg = gx * gx;
      double sig = gg / (params.alpha() * (Math.sqrt(n + gg) + Math.sqrt(n)));
      double den = (params.beta() + Math.sqrt(n)) / params.alpha() + params.lambda2();
      double carried = den > 0 ? e[i] * (1 + sig / den) : e[i];
      e[i] =
          carried
              + u * (4 * Math.abs(gx) + (stateFactor() * (round + 9) + 6) * Math.abs(sig * w[i]));
    }
  }
}
