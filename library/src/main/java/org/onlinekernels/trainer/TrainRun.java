package org.onlinekernels.trainer;

import java.io.PrintStream;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * One whole training run, as {@link OnlineTrainer#train} makes it: the dimension and classes from
 * the data, a trainer for them, the configured epochs, the final model on the test data, and the
 * figures of {@link TrainResult}.
 */
final class TrainRun {
  private TrainRun() {}

  /** See {@link OnlineTrainer#train(TrainerConfig, SparseDataset, SparseDataset, PrintStream)}. */
  static TrainResult run(
      TrainerConfig config,
      SparseDataset train,
      SparseDataset test,
      PrintStream progress,
      OnlineTrainer.ProgressiveSink sink) {
    Datasets.Shape shape = Datasets.shape(train, test);
    try (OnlineTrainer t =
        new OnlineTrainer(config, shape.d(), shape.multiclass(), shape.classes())) {
      t.setProgressiveSink(sink);
      long t0 = System.nanoTime();
      Metrics[] epochs = t.fit(train, progress, 0, null);
      long t1 = System.nanoTime();
      double seconds = (t1 - t0) / 1e9;
      LinearModel model = t.model();
      Metrics test1 = test == null ? null : Metrics.evaluate(model, test);
      Metrics prog = Metrics.combine(epochs);
      long n = prog.examples();
      return new TrainResult(
          model,
          prog,
          epochs,
          test1,
          n,
          train.totalNonZeros() * config.epochs(),
          seconds,
          n - n / 2,
          (t1 - t.steadyStartNanos()) / 1e9,
          t.handoverAt(),
          t.kernels());
    }
  }
}
