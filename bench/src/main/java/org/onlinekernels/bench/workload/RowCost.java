package org.onlinekernels.bench.workload;

import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.trainer.AlgorithmSpec;

/**
 * Which rules cost O(d) per sparse row (Adaptive OGD's ball shrinks every weight each round), found
 * by measurement so that a rule added to the registry later is placed without an edit here: the
 * same 64 rows of 8 nonzeros (indices below 2^12) are run through a model of d = 2^12 and one of d
 * = 2^20, and a rule whose second pass over them takes {@value #DENSE_RATIO} times longer at 2^20
 * is taken as O(d) (an O(nnz) rule measures about 1x: its touched records are cached by then; an
 * O(d) rule 256x). Such a rule only runs where {@code rows x d x outputs} is at most {@link
 * #DENSE_BUDGET} (the data files; a pass at d = 2^20 would take tens of seconds).
 */
public final class RowCost {
  /** Slowdown from 2^12 to 2^20 above which a rule is taken as O(d) per row. */
  static final double DENSE_RATIO = 32;

  /** Largest {@code rows x d x outputs} an O(d) rule runs on. */
  static final long DENSE_BUDGET = 1L << 32;

  private RowCost() {}

  /** Time per row at d = 2^20 over time per row at d = 2^12 (best of three alternating trials). */
  public static double slowdown(String rule) {
    Workload wl = Workload.load("uniform:12:8", 64 * 8, Workload.dataFolder());
    double[] best = {Double.MAX_VALUE, Double.MAX_VALUE};
    try (RowSegments rows = new RowSegments(wl, ElementType.FLOAT)) {
      for (int trial = 0; trial < 3; trial++) {
        for (int k = 0; k < 2; k++) {
          try (LinearModelOptimizer o =
              AlgorithmSpec.of(rule)
                  .create(
                      k == 0 ? 1 << 12 : 1 << 20,
                      ElementType.FLOAT,
                      StateLayout.INTERLEAVED,
                      null,
                      null)) {
            pass(o, wl, rows);
            long t0 = System.nanoTime();
            pass(o, wl, rows);
            best[k] = Math.min(best[k], System.nanoTime() - t0);
          }
        }
      }
    }
    return best[1] / Math.max(1, best[0]);
  }

  /** Whether {@link #slowdown} says O(d). */
  public static boolean dense(double slowdown) {
    return slowdown > DENSE_RATIO;
  }

  /** Whether a rule (O(d) per row or not) runs on a workload of this shape. */
  public static boolean affordable(boolean dense, long rows, int d, int outputs) {
    return !dense || rows * d * outputs <= DENSE_BUDGET;
  }

  private static void pass(LinearModelOptimizer o, Workload wl, RowSegments rows) {
    for (int r = 0; r < wl.n; r++) {
      o.round(
          rows.indices[r],
          rows.values[r],
          wl.start[r + 1] - wl.start[r],
          wl.label[r],
          Loss.LOGISTIC);
    }
  }
}
