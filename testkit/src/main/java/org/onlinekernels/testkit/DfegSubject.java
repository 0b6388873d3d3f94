package org.onlinekernels.testkit;

import java.util.Map;
import java.util.SplittableRandom;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.DfegParams;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.rules.dfeg.DfegOptimizer;
import org.onlinekernels.rules.dfeg.ReferenceDfeg;

/**
 * DFEG with a random draw of {@code a}, {@code L}, {@code delta}; gradients within {@code L} (the
 * paper's assumption).
 *
 * <p>State factor 1: {@code theta -= g x} is additive. Predictions: the weights are {@code c *
 * theta} with {@code c = exp(N/alpha) / (beta N)}, {@code N = ||theta||} a reduction; a relative
 * error {@code e} of {@code N} (half that of {@code N^2}, which carries {@code chain(d) + t + 8}
 * roundings) becomes {@code (1 + N/alpha) e} in {@code c}.
 */
public final class DfegSubject extends FusedRuleSubject<DfegParams> {
  public DfegSubject(long seed, ElementType t) {
    this(draw(seed, t));
  }

  /** DFEG with the given parameters. */
  public DfegSubject(DfegParams params) {
    super("DFEG", params, 1);
  }

  private static DfegParams draw(long seed, ElementType t) {
    SplittableRandom r = new SplittableRandom(seed ^ 0xdfe6L);
    double a =
        Workload.round(
            t, DfegParams.A_MIN + (DfegParams.A_MAX - DfegParams.A_MIN) * r.nextDouble());
    a = Math.min(Math.max(a, DfegParams.A_MIN), DfegParams.A_MAX);
    return new DfegParams(a, Math.scalb(1.0, r.nextInt(-2, 3)), Math.scalb(1.0, r.nextInt(-3, 4)));
  }

  @Override
  public double gMax() {
    return params.l();
  }

  @Override
  public AbstractOptimizer optimizer(
      int d, ElementType type, KernelProvider kernels, StateLayout layout) {
    return new DfegOptimizer(d, type, params, layout, null, kernels);
  }

  @Override
  public ReferenceLinearModel reference(int d) {
    return new ReferenceDfeg(d, params);
  }

  @Override
  public void settle(ReferenceLinearModel r) {
    ((ReferenceDfeg) r).recomputeNorm();
  }

  /**
   * {@code ||theta||^2} is a fresh sum (relative error {@code chain(d) u}) after a dense update but
   * a running sum after sparse ones, whose absolute drift is {@code (t + 8) u (P + M)} of its own
   * path; both sides drift, hence the factor 2. Its relative error {@code e2} is {@code e2 / 2} in
   * {@code N}, and {@code (1 + N/alpha) e2 / 2} in the weight scale.
   */
  @Override
  public double predictionFactor(ReferenceLinearModel r, int d, Map<String, Tracker> scalarPaths) {
    ReferenceDfeg f = (ReferenceDfeg) r;
    double nsq = 0;
    for (double v : f.theta()) {
      nsq += v * v;
    }
    if (nsq == 0) {
      return 1;
    }
    Tracker ns = scalarPaths.get("thetaNormSquared");
    double drift = ns == null ? 0 : 2 * (ns.path[0] + ns.peak[0]) / nsq;
    double ratio = Math.sqrt(nsq) / (params.a() * Math.sqrt(f.h()));
    // Half the relative error of N^2 reaches N; both sides drift: the two factors cancel.
    return 1 + (1 + ratio) * (Tolerance.chain(d) / 8 + 1 + drift);
  }
}
