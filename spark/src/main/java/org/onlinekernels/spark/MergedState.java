package org.onlinekernels.spark;

import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * The merged state on the driver: one optimizer per output (planar, the layout the merge rules act
 * on), confined to the thread that created it.
 */
final class MergedState implements AutoCloseable {
  final TrainerConfig config;
  final int d;
  final Labels labels;
  private final OnlineTrainer trainer;
  final AbstractOptimizer[] outputs;

  MergedState(TrainerConfig config, int d, Labels labels) {
    this.config = config;
    this.d = d;
    this.labels = labels;
    this.trainer =
        new OnlineTrainer(config, d, !labels.binary(), labels.classes(), null, StateLayout.PLANAR);
    this.outputs = new AbstractOptimizer[trainer.outputs()];
    for (int c = 0; c < outputs.length; c++) {
      if (!(trainer.optimizer(c) instanceof AbstractOptimizer o)) {
        trainer.close();
        throw new IllegalArgumentException(
            "algorithm " + config.algorithm().name() + " has no merge rule");
      }
      outputs[c] = o;
    }
  }

  /** The state to broadcast to the partitions. */
  StateSnapshot snapshot() {
    return new StateSnapshot(outputs);
  }

  /** Merges a round's combined result into the state. */
  void merge(RoundResult root) {
    for (int c = 0; c < outputs.length; c++) {
      root.outputs()[c].mergeInto(outputs[c]);
    }
  }

  /** The model the state reads out now. */
  LinearModel model() {
    return trainer.model();
  }

  /** Whether the calling thread may use this state. */
  boolean ownedByCaller() {
    return outputs[0].owner() == Thread.currentThread();
  }

  @Override
  public void close() {
    trainer.close();
  }
}
