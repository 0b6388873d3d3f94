package org.onlinekernels.bench.workload;

import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;

/**
 * {@code per-call}: the public per-call path as a user with rows of their own calls it, per row
 * and output {@code predictSparse} on the row's segments ({@link RowSegments}), the logistic
 * loss and its derivative ({@code Loss.derivativeAndValue}, one {@code exp} for both), then
 * {@code update}. Issue #21's target: at least 0.7x the hand loop.
 */
public final class PerCallLoop extends OptimizerContender {
  private final RowSegments rows;
  private final double[] loss = new double[1];

  /** Row segments made once; the optimizers by {@link #reset}. */
  public PerCallLoop(Workload wl, String rule, ElementType type) {
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
        double yhat = opt[k].predictSparse(rows.indices[r], rows.values[r], nnz);
        opt[k].update(Loss.LOGISTIC.derivativeAndValue(y, yhat, loss, 0));
        rowLoss += loss[0];
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
