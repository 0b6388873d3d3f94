package org.onlinekernels.bench.workload;

import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.LinearModelOptimizer;

/**
 * A user's loop over rows of their own ({@link RowSegments}, made once): per row and output one
 * {@link #step} on the row's index and value segments, the row's losses summed in output order, the
 * rows' in row order, as {@code OnlineTrainer} sums them. Subclasses say which public call a step
 * makes.
 */
abstract class SegmentRowLoop extends OptimizerContender {
  private final RowSegments rows;

  /** Row segments made once; the optimizers by {@link #reset}. */
  SegmentRowLoop(Workload wl, String rule, ElementType type) {
    super(wl, rule, type);
    this.rows = new RowSegments(wl, type);
  }

  /**
   * Trains {@code o} on one row ({@code nnz} entries, target {@code y}); returns the row's
   * progressive loss.
   */
  abstract double step(
      LinearModelOptimizer o, MemorySegment indices, MemorySegment values, int nnz, double y);

  @Override
  public final double pass() {
    final int[] start = wl.start;
    double lossSum = 0;
    for (int r = 0; r < wl.n; r++) {
      int nnz = start[r + 1] - start[r];
      double rowLoss = 0;
      for (int k = 0; k < opt.length; k++) {
        rowLoss += step(opt[k], rows.indices[r], rows.values[r], nnz, wl.target(r, k));
      }
      lossSum += rowLoss;
    }
    return lossSum / wl.n;
  }

  @Override
  public void close() {
    super.close();
    rows.close();
  }
}
