package org.onlinekernels.bench.workload;

import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.SparseRows;

/**
 * {@code rounds}: the optimizers' block call on the library's validated rows ({@code
 * LinearModelOptimizer.rounds(rows, order, from, to, y, loss, yhat, losses)}) in blocks of {@value
 * #BLOCK} rows per output, the progressive losses taken with the derivatives: the loop {@code
 * OnlineTrainer} runs, without the trainer around it. The baseline of {@code rounds-buffers}.
 */
public final class RoundsLoop extends OptimizerContender {
  /** Rows per call, as {@code OnlineTrainer}'s blocks. */
  static final int BLOCK = 256;

  private final SparseRows rows;
  private final int[] order;
  private final double[] y = new double[BLOCK];
  private final double[][] yhat;
  private final double[][] loss;

  /**
   * The rows as {@link SparseRows} (the trainer's own copy, made once); the optimizers by {@link
   * #reset}.
   */
  public RoundsLoop(Workload wl, String rule, ElementType type) {
    super(wl, rule, type);
    this.rows = wl.prepared.rows(type);
    this.order = new int[wl.n];
    for (int r = 0; r < wl.n; r++) {
      order[r] = r;
    }
    this.yhat = new double[wl.outputs][BLOCK];
    this.loss = new double[wl.outputs][BLOCK];
  }

  @Override
  public double pass() {
    double lossSum = 0;
    for (int q0 = 0; q0 < wl.n; q0 += BLOCK) {
      int q1 = Math.min(wl.n, q0 + BLOCK);
      for (int k = 0; k < opt.length; k++) {
        for (int q = q0; q < q1; q++) {
          y[q - q0] = wl.target(q, k);
        }
        opt[k].rounds(rows, order, q0, q1, y, Loss.LOGISTIC, yhat[k], loss[k]);
      }
      for (int q = q0; q < q1; q++) {
        double rowLoss = 0;
        for (int k = 0; k < opt.length; k++) {
          rowLoss += loss[k][q - q0];
        }
        lossSum += rowLoss;
      }
    }
    return lossSum / wl.n;
  }
}
