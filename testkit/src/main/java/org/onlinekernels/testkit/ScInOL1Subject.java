package org.onlinekernels.testkit;

import java.util.Map;
import java.util.SplittableRandom;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.rules.scinol1.ReferenceScInOL1;
import org.onlinekernels.rules.scinol1.ScInOL1Optimizer;

/**
 * ScInOL1 with a random {@code epsilon}.
 *
 * <p>State factor 2: {@code G}, {@code S2} are sums, {@code M} a max (exact); {@code beta =
 * min(beta, eps (S2 + M^2) / (x^2 t))} is a ratio of a sum and exact terms, which carries {@code
 * S2}'s relative error plus 5 roundings. Predictions: {@code theta = G / s} carries {@code G}'s
 * error plus half of {@code S2}'s; {@code expm1(|theta|/2)} multiplies a relative error by at most
 * {@code 1 + |theta|/2}; the vector kernels' own {@code expm1} adds at most 2 ulps over {@code
 * Math.expm1} ({@code VectorExpm1Test}): factor {@code 3 (1 + max|theta|/2) + 2}.
 */
public final class ScInOL1Subject extends FusedRuleSubject<ScInOLParams> {
  /** ScInOL1 with the {@code epsilon} case seed {@code seed} draws (a power of two). */
  public ScInOL1Subject(long seed) {
    this(new ScInOLParams(Math.scalb(1.0, new SplittableRandom(seed ^ 0x5c1L).nextInt(-4, 5))));
  }

  /**
   * {@link #ScInOL1Subject(long)}: the draw does not depend on the element type.
   *
   * @deprecated the element type is unused; use {@link #ScInOL1Subject(long)} (kept so that code
   *     written against the kit's first form still compiles)
   */
  @Deprecated(since = "0.1.0")
  public ScInOL1Subject(long seed, ElementType t) {
    this(seed);
  }

  /** ScInOL1 with the given parameters. */
  public ScInOL1Subject(ScInOLParams params) {
    super("ScInOL1", params, 2);
  }

  /** ScInOL is scale-invariant (ALGORITHMS.md sections 3-4). */
  @Override
  public boolean scaleInvariant() {
    return true;
  }

  @Override
  public double gMax() {
    return 1024;
  }

  @Override
  public AbstractOptimizer optimizer(
      int d, ElementType type, KernelProvider kernels, StateLayout layout) {
    return new ScInOL1Optimizer(d, type, params, layout, null, kernels);
  }

  @Override
  public ReferenceLinearModel reference(int d) {
    return new ReferenceScInOL1(d, params);
  }

  @Override
  public double predictionFactor(ReferenceLinearModel r, int d, Map<String, Tracker> scalarPaths) {
    ReferenceScInOL1 s = (ReferenceScInOL1) r;
    double maxTheta = 0;
    for (int i = 0; i < d; i++) {
      double q = Math.sqrt(s.s2()[i] + s.m()[i] * s.m()[i]);
      if (q > 0) {
        maxTheta = Math.max(maxTheta, Math.abs(s.bigG()[i] / q));
      }
    }
    return 3 * (1 + maxTheta / 2) + 2;
  }
}
