package org.onlinekernels.testkit;

import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.SparseRows;

/**
 * An optimizer driven by its fused round ({@link AbstractOptimizer#round}) on a workload's rows:
 * {@link #predict} runs the whole round (predict, {@code g = loss'(label, yhat)}, update) with the
 * label {@link Workload#label}, so {@link #update} has nothing left to do. Run it with the same
 * loss in {@link Agreement#learnerVsReference}, which then feeds the reference the {@code g} the
 * round took.
 */
public final class RoundLearner extends OptimizerLearner {
  private final Workload workload;
  private final SparseRows rows;
  private final Loss loss;

  /**
   * Rounds of {@code optimizer} on the rows of {@code workload} in {@code type}, with {@code loss}.
   */
  public RoundLearner(AbstractOptimizer optimizer, Workload workload, ElementType type, Loss loss) {
    super(optimizer);
    this.workload = workload;
    this.rows = workload.rows(type);
    this.loss = loss;
  }

  @Override
  public double predict(Row row) {
    return optimizer.round(rows, row.round(), workload.label(row.round()), loss);
  }

  /** Nothing: the round already updated with the gradient it took. */
  @Override
  public void update(double g) {}
}
