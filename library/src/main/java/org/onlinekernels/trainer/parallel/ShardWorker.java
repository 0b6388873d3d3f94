package org.onlinekernels.trainer.parallel;

import java.lang.foreign.Arena;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * One worker's learners (one optimizer per output, one-vs-rest for multiclass) and the online loop
 * over its slice of a round: predict every output on a sparse row, score it before the update
 * (progressive validation, as {@code OnlineTrainer} does), update. The Spark job runs one per
 * partition (the threads of {@link ParallelTrainer} run {@code BlockLoop}s instead).
 */
public final class ShardWorker {

  /**
   * The learners, one per output; merge them, or restore their state, through the optimizer API.
   */
  public final AbstractOptimizer[] learners;

  private final double[] yhat;
  private final Loss loss;
  private final boolean isFloat;
  private final boolean multiclass;

  /**
   * Loss and error sums of this epoch's slices so far (one running sum, as the sequential trainer
   * keeps).
   */
  public double lossSum;

  /** Error sum, like {@link #lossSum}. */
  public double errSum;

  /**
   * @param config algorithm, element type and loss (the rest is not used here)
   * @param d model dimension
   * @param multiclass one-vs-rest labels {@code 0..outputs-1}, else binary {@code +1/-1}
   * @param outputs number of outputs
   * @param maxNnz the most nonzeros of any row this worker will see
   * @param shared where the learners' state lives
   */
  public ShardWorker(
      TrainerConfig config, int d, boolean multiclass, int outputs, int maxNnz, Arena shared) {
    this.learners = new AbstractOptimizer[outputs];
    for (int c = 0; c < outputs; c++) {
      if (!(config.algorithm().create(d, config.precision(), StateLayout.PLANAR, shared, null)
          instanceof AbstractOptimizer o)) {
        throw new IllegalArgumentException(
            "algorithm "
                + config.algorithm().name()
                + " has no merge rule (docs/MERGING.md); parallel training needs one of the library's optimizers");
      }
      learners[c] = o;
    }
    ElementType type = config.type();
    this.yhat = new double[outputs];
    this.loss = config.loss();
    this.isFloat = type == ElementType.FLOAT;
    this.multiclass = multiclass;
  }

  /**
   * Trains on rows {@code order[from..to)}, adding their progressive loss and error to the sums.
   *
   * @param rows the data
   * @param order row numbers; positions {@code from..to-1} are trained on, in this order
   * @param from first position
   * @param to end position (exclusive)
   */
  public void run(Rows rows, int[] order, int from, int to) {
    final int k = learners.length;
    double lossAcc = lossSum;
    double errAcc = errSum;
    // The sequential trainer's fused rounds, so that one thread reproduces it bit for bit.
    final SparseRows sparse = rows.sparse(isFloat ? ElementType.FLOAT : ElementType.DOUBLE);
    for (int q = from; q < to; q++) {
      final int r = order[q];
      final double y = rows.labels[r];
      for (int c = 0; c < k; c++) {
        yhat[c] = learners[c].round(sparse, r, multiclass ? (c == y ? 1.0 : -1.0) : y, loss);
      }
      lossAcc += Metrics.loss(loss, multiclass, y, yhat, k);
      errAcc += Metrics.error(multiclass, y, yhat, k);
    }
    lossSum = lossAcc;
    errSum = errAcc;
  }
}
