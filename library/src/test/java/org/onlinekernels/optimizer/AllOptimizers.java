package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.AdaptiveOgdParams;
import org.onlinekernels.params.Box;
import org.onlinekernels.params.DfegParams;
import org.onlinekernels.params.GlobalAdaGradParams;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.Rules;
import org.onlinekernels.rules.adagrad.AdaGradOptimizer;
import org.onlinekernels.rules.aogd.AdaptiveOgdBallOptimizer;
import org.onlinekernels.rules.aogd.AdaptiveOgdCoordinateOptimizer;
import org.onlinekernels.rules.dfeg.DfegOptimizer;
import org.onlinekernels.rules.globaladagrad.GlobalAdaGradOptimizer;
import org.onlinekernels.rules.scinol1.ScInOL1Optimizer;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/**
 * One factory per optimizer configuration, for tests that must cover every optimizer: the
 * configurations written out below (boxes, storage modes), and every other rule of {@link
 * Rules#ALL} with its default parameters, planar and interleaved, so a new rule is covered without
 * an entry here.
 */
public final class AllOptimizers {
  private AllOptimizers() {}

  /** Creates an optimizer of dimension {@code d}; {@code arena} may be null (owned, confined). */
  public interface Factory {
    AbstractOptimizer create(int d, ElementType type, Arena arena, KernelProvider kernels);
  }

  /** A named factory. */
  public record Named(String name, Factory factory) {
    public AbstractOptimizer create(int d, ElementType type) {
      return factory.create(d, type, null, null);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /**
   * Every rule of {@link Rules#ALL}: AdaGrad and ScInOL2 in both of their storage modes and both
   * state layouts, the others as written here or, for a rule not written here, from its {@link
   * org.onlinekernels.optimizer.RuleInfo} with default parameters, planar and interleaved.
   */
  public static List<Named> all() {
    List<Named> out =
        new ArrayList<>(
            List.of(
                new Named(
                    "adagrad",
                    (d, t, a, k) -> new AdaGradOptimizer(d, t, AdaGradParams.eta(0.5), a, k)),
                new Named(
                    "adagrad-interleaved",
                    (d, t, a, k) ->
                        new AdaGradOptimizer(
                            d,
                            t,
                            AdaGradParams.eta(0.5).withBox(Box.symmetric(4)),
                            StateLayout.INTERLEAVED,
                            a,
                            k)),
                new Named(
                    "adagrad-box",
                    (d, t, a, k) -> {
                      double[] lo = new double[Math.max(0, d)], hi = new double[Math.max(0, d)];
                      for (int i = 0; i < d; i++) {
                        lo[i] = -1 - i;
                        hi[i] = 2 + i;
                      }
                      return new AdaGradOptimizer(
                          d,
                          t,
                          AdaGradParams.alphaTimesWidth(0.3, Box.perCoordinate(lo, hi)),
                          a,
                          k);
                    }),
                new Named(
                    "adagrad-global",
                    (d, t, a, k) ->
                        new GlobalAdaGradOptimizer(
                            d, t, GlobalAdaGradParams.of(Box.symmetric(2)), a, k)),
                new Named(
                    "aogd-ball",
                    (d, t, a, k) ->
                        new AdaptiveOgdBallOptimizer(d, t, AdaptiveOgdParams.radius(3), a, k)),
                new Named(
                    "aogd-coord",
                    (d, t, a, k) ->
                        new AdaptiveOgdCoordinateOptimizer(
                            d, t, AdaptiveOgdParams.radius(3), a, k)),
                new Named(
                    "scinol1",
                    (d, t, a, k) -> new ScInOL1Optimizer(d, t, ScInOLParams.defaults(), a, k)),
                new Named(
                    "scinol2",
                    (d, t, a, k) ->
                        new ScInOL2Optimizer(d, t, ScInOLParams.defaults(), false, a, k)),
                new Named(
                    "scinol2-interleaved",
                    (d, t, a, k) ->
                        new ScInOL2Optimizer(
                            d, t, ScInOLParams.defaults(), StateLayout.INTERLEAVED, a, k)),
                new Named(
                    "scinol2-stored",
                    (d, t, a, k) ->
                        new ScInOL2Optimizer(d, t, ScInOLParams.defaults(), true, a, k)),
                new Named(
                    "dfeg", (d, t, a, k) -> new DfegOptimizer(d, t, DfegParams.defaults(), a, k))));
    for (RuleInfo r : Rules.ALL) {
      if (out.stream().noneMatch(n -> n.name().equals(r.name()))) {
        for (StateLayout layout : StateLayout.values()) {
          out.add(
              new Named(
                  layout == StateLayout.PLANAR ? r.name() : r.name() + "-interleaved",
                  (d, t, a, k) ->
                      r.factory()
                          .create(
                              d, Precision.of(t), layout, a, k, new RuleInfo.Params(Map.of()))));
        }
      }
    }
    return out;
  }
}
