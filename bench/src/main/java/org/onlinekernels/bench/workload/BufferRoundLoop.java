package org.onlinekernels.bench.workload;

import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;

/**
 * {@code rounds-buffers}: the fused round on the caller's own buffers
 * ({@code LinearModelOptimizer.round(indices, values, nnz, y, loss)}), one call per row and
 * output on the row's segments ({@link RowSegments}), as a user with a row format of their own
 * calls it; the progressive loss is {@code Loss.LOGISTIC.value} of the returned {@code yhat} (the
 * round returns the score only, so this takes a second {@code exp} that {@link RoundsLoop}'s
 * block call shares with the derivative). Issue #21's target: at least 0.9x {@code rounds}.
 */
public final class BufferRoundLoop extends OptimizerContender {
  private final RowSegments rows;

  /** Row segments made once; the optimizers by {@link #reset}. */
  public BufferRoundLoop(Workload wl, String rule, ElementType type) {
    super(wl, rule, type);
    this.rows = new RowSegments(wl, type);
  }

  @Override
  public double pass() {
    final int[] start = wl.start;
    double lossSum = 0;
    for (int r = 0; r < wl.n; r++) {
      int nnz = start[r + 1] - start[r];
      double rowLoss = 0;
      for (int k = 0; k < opt.length; k++) {
        double y = wl.target(r, k);
        double yhat = opt[k].round(rows.indices[r], rows.values[r], nnz, y, Loss.LOGISTIC);
        rowLoss += Loss.LOGISTIC.value(y, yhat);
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
