package org.onlinekernels.testkit;

import java.util.Map;
import java.util.SplittableRandom;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.rules.scinol2.ReferenceScInOL2;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/**
 * ScInOL2 with a random {@code epsilon}, in recompute or stored-weights mode.
 *
 * <p>Factor 4: {@code G}, {@code S2} are sums and {@code M} a max; the weight {@code sgn(theta)
 * min(|theta|, 1) eta / (2 s)} carries the errors of {@code G}, of half of {@code S2} and of the
 * wealth {@code eta}, plus 6 roundings; the wealth's increments {@code g x w} carry the weight's
 * error back into {@code eta} (a sum): about 3 to 4 relative errors of the element type per round
 * in all.
 */
public final class ScInOL2Subject implements Subject {
  private final ScInOLParams params;
  private final boolean stored;

  /**
   * ScInOL2 with the {@code epsilon} case seed {@code seed} draws (a power of two), the library's
   * optimizer in recompute or stored-weights mode as the seed draws.
   */
  public ScInOL2Subject(long seed) {
    SplittableRandom r = new SplittableRandom(seed ^ 0x5c2L);
    params = new ScInOLParams(Math.scalb(1.0, r.nextInt(-4, 5)));
    stored = r.nextBoolean();
  }

  /**
   * {@link #ScInOL2Subject(long)}: the draw does not depend on the element type.
   *
   * @deprecated the element type is unused; use {@link #ScInOL2Subject(long)} (kept so that code
   *     written against the kit's first form still compiles)
   */
  @Deprecated(since = "0.1.0")
  public ScInOL2Subject(long seed, ElementType t) {
    this(seed);
  }

  /** ScInOL2 with the given parameters, the library's optimizer recomputing its weights. */
  public ScInOL2Subject(ScInOLParams params) {
    this(params, false);
  }

  /**
   * ScInOL2 with the given parameters; the library's optimizer in stored-weights mode if {@code
   * stored}.
   */
  public ScInOL2Subject(ScInOLParams params, boolean stored) {
    this.params = params;
    this.stored = stored;
  }

  /** The parameters both sides run with. */
  public ScInOLParams params() {
    return params;
  }

  @Override
  public String describe() {
    return "ScInOL2 " + params + (stored ? " stored-w" : " recompute-w");
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
  public AbstractOptimizer optimizer(int d, ElementType type, KernelProvider kernels) {
    return new ScInOL2Optimizer(d, type, params, stored, null, kernels);
  }

  @Override
  public AbstractOptimizer optimizer(
      int d, ElementType type, KernelProvider kernels, StateLayout layout) {
    return stored || layout == StateLayout.PLANAR
        ? optimizer(d, type, kernels)
        : new ScInOL2Optimizer(d, type, params, layout, null, kernels);
  }

  @Override
  public boolean fusedRound() {
    return true;
  }

  @Override
  public boolean interleaves() {
    return !stored;
  }

  @Override
  public ReferenceLinearModel reference(int d) {
    return new ReferenceScInOL2(d, params);
  }

  /**
   * The weight is {@code theta eta / (2 s)} with {@code theta = G / s} while {@code |theta| < 1}.
   * {@code G} is a signed running sum that can cancel, so its error is relative to its path, not to
   * {@code w}: {@code |dw| <= eta / (2 s^2) * |dG|} with {@code |dG| <= C (t + 8) u (P_G + M_G)}.
   * That error reaches the wealth through {@code eta -= g x w}, by {@code |g x| |dw|} per round; so
   * does the error of {@code S2}, relative to {@code s^2}: {@code |dw| <= |w| dS2 / s^2}; once
   * {@code |theta| >= 1} the weight is {@code eta / (2 s)} and only half of that relative error
   * reaches it.
   *
   * <p>The wealth's own error is not merely carried: {@code eta' = eta (1 - g x c)} with {@code c =
   * sgn(theta) min(|theta|, 1) / (2 s)}, so an error {@code de} of {@code eta} becomes {@code de |1
   * - g x c|}. Where that factor exceeds 1 (after a cancellation has left {@code eta} small, a
   * large {@code g x} can multiply it many times over in one round), the bound held so far grows by
   * the same factor: a plain float ScInOL2 took {@code eta} from 0.5 to 0.0021 (a few ulps of 0.5
   * of absolute error, correct) and then by 2 and 43 times, beyond the additive bound.
   */
  @Override
  public void accumulateExtra(
      Map<String, double[]> extra,
      ReferenceLinearModel r,
      Map<String, Tracker> paths,
      double g,
      double[] x,
      int round,
      double u) {
    ReferenceScInOL2 s = (ReferenceScInOL2) r;
    Tracker gp = paths.get("G");
    Tracker sp = paths.get("S2");
    Tracker ep = paths.get("eta");
    double[] e = extra.get("eta");
    for (int i = 0; i < x.length; i++) {
      if (x[i] == 0) {
        continue;
      }
      double m = Math.max(s.m()[i], Math.abs(x[i]));
      double s2 = s.s2()[i] + m * m;
      if (!(s2 > 0)) {
        continue;
      }
      double sq = Math.sqrt(s2);
      double bigG = s.bigG()[i];
      double eta = Math.abs(s.eta()[i]);
      double gx = Math.abs(g * x[i]);
      double dS2 = Tolerance.state(u, stateFactor(), round + 1, sp.path[i], sp.peak[i]);
      // The wealth's error so far, multiplied by |1 - g x c| where that exceeds 1.
      double c = Math.signum(bigG) * Math.min(Math.abs(bigG) / sq, 1) / (2 * sq);
      double growth = Math.abs(1 - g * x[i] * c) - 1;
      if (growth > 0) {
        e[i] +=
            growth * (Tolerance.state(u, stateFactor(), round + 1, ep.path[i], ep.peak[i]) + e[i]);
      }
      if (Math.abs(bigG) < sq) {
        double dG = Tolerance.state(u, stateFactor(), round + 1, gp.path[i], gp.peak[i]);
        // w = G eta / (2 s^2) with s^2 = S2 + M^2: besides G's error, the accumulated error of S2
        // moves w by |w| dS2 / s^2 (relative error of s^2), which the wealth takes in through
        // g x w as well (a case with d = 4097, float, epsilon 8 and g up to 512 exceeded the
        // bound without this term by 10 %).
        double w = Math.abs(bigG) * eta / (2 * s2);
        e[i] += gx * (eta / (2 * s2) * dG + w * dS2 / s2);
      } else {
        // w = sgn(G) eta / (2 s): half of the relative error of s^2.
        e[i] += gx * (eta / (2 * sq)) * dS2 / (2 * s2);
      }
    }
  }

  @Override
  public boolean exactStateInDouble() {
    return true;
  }

  @Override
  public double stateFactor() {
    return 4;
  }
}
