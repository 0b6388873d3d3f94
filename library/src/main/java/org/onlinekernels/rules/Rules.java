package org.onlinekernels.rules;

import java.util.List;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.rules.adagrad.AdaGradOptimizer;
import org.onlinekernels.rules.aogd.AdaptiveOgdBallOptimizer;
import org.onlinekernels.rules.aogd.AdaptiveOgdCoordinateOptimizer;
import org.onlinekernels.rules.dfeg.DfegOptimizer;
import org.onlinekernels.rules.freegrad.FreeGradOptimizer;
import org.onlinekernels.rules.ftrl.FtrlOptimizer;
import org.onlinekernels.rules.globaladagrad.GlobalAdaGradOptimizer;
import org.onlinekernels.rules.kt.KtOptimizer;
import org.onlinekernels.rules.scinol1.ScInOL1Optimizer;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/**
 * Every rule, once: what the command line lists, the trainers and {@code AlgorithmSpec} create, the
 * test kit and the benchmarks iterate. A new rule is one line here (docs/ADDING_A_RULE.md).
 */
public final class Rules {
  private Rules() {}

  /** Every rule, in display order. */
  public static final List<RuleInfo> ALL =
      List.of(
          AdaGradOptimizer.INFO,
          GlobalAdaGradOptimizer.INFO,
          AdaptiveOgdBallOptimizer.INFO,
          AdaptiveOgdCoordinateOptimizer.INFO,
          ScInOL1Optimizer.INFO,
          ScInOL2Optimizer.INFO,
          DfegOptimizer.INFO,
          FtrlOptimizer.INFO,
          KtOptimizer.INFO,
          FreeGradOptimizer.INFO);

  /** The rule named {@code name}, or null. */
  public static RuleInfo find(String name) {
    for (RuleInfo r : ALL) {
      if (r.name().equals(name)) {
        return r;
      }
    }
    return null;
  }

  /** The rules' names, in display order. */
  public static List<String> names() {
    return ALL.stream().map(RuleInfo::name).toList();
  }
}
