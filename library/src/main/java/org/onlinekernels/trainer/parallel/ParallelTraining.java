package org.onlinekernels.trainer.parallel;

import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.parallel.SharedState;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.ThreadReport;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.TrainingMode;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * Training on several threads, either mode (docs/parallel/README.md): {@link TrainingMode#SHARED}
 * ({@link SharedStateTrainer}) or {@link TrainingMode#MIXING} ({@link ParallelTrainer}); {@link
 * #fastest} picks the faster for a rule.
 */
public final class ParallelTraining {
  private ParallelTraining() {}

  /** A trainer of one mode: epochs over a data set, then its model. */
  public interface Fit extends AutoCloseable {
    /** Runs the configured epochs over {@code data}; returns the progressive metrics per epoch. */
    Metrics[] fit(SparseDataset data);

    /** The model now. */
    LinearModel model();

    /**
     * Examples of the last fit's steady-state span: from the first block or round at or after half
     * of its examples to its end (0 before a fit).
     */
    long steadyExamples();

    /** Wall seconds of the last fit's steady-state span. */
    double steadySeconds();

    /** Where the threads spent their time, over every fit so far ({@link ThreadReport}). */
    ThreadReport threadReport();

    @Override
    void close();
  }

  /** The default number of examples between merges in {@link TrainingMode#MIXING}. */
  public static final int DEFAULT_MERGE_EVERY = 10_000;

  /**
   * The faster mode for {@code config}'s rule: {@link TrainingMode#SHARED} where its rounds run
   * lock-free (every rule whose round writes only its row's coordinates), else {@link
   * TrainingMode#MIXING} (shared state would run its rounds one at a time under a lock).
   */
  public static TrainingMode fastest(TrainerConfig config) {
    try (LinearModelOptimizer probe =
        config.algorithm().create(1, config.precision(), StateLayout.PLANAR, null, null)) {
      return probe instanceof AbstractOptimizer a && !SharedState.lockFree(a)
          ? TrainingMode.MIXING
          : TrainingMode.SHARED;
    }
  }

  /**
   * Trains on {@code train} with {@code threads} threads in {@code mode} ({@code mergeEvery}:
   * examples between merges in {@link TrainingMode#MIXING}, 0 for once per epoch; ignored
   * otherwise) and evaluates the final model on {@code test} (may be null), as {@link
   * OnlineTrainer#train} does; the progressive metrics are summed over the threads.
   */
  public static TrainResult train(
      TrainerConfig config,
      int threads,
      TrainingMode mode,
      int mergeEvery,
      SparseDataset train,
      SparseDataset test) {
    if (mode == TrainingMode.SEQUENTIAL) {
      throw new IllegalArgumentException(
          "mode SEQUENTIAL is OnlineTrainer.train's; pass SHARED or MIXING");
    }
    Datasets.Shape shape = Datasets.shape(train, test);
    int dim = shape.d();
    boolean multi = shape.multiclass();
    int classes = shape.classes();
    try (Fit t =
        mode == TrainingMode.SHARED
            ? new SharedStateTrainer(config, threads, dim, multi, classes)
            : new ParallelTrainer(
                config, threads, mergeEvery, dim, multi, classes, Datasets.maxNnz(train))) {
      long t0 = System.nanoTime();
      Metrics[] epochs = t.fit(train);
      double seconds = (System.nanoTime() - t0) / 1e9;
      LinearModel model = t.model();
      Metrics prog = Metrics.combine(epochs);
      return new TrainResult(
          model,
          prog,
          epochs,
          test == null ? null : Metrics.evaluate(model, test),
          prog.examples(),
          train.totalNonZeros() * config.epochs(),
          seconds,
          t.steadyExamples(),
          t.steadySeconds(),
          -1,
          null,
          threads,
          mode,
          t.threadReport());
    }
  }

  /** The checks both modes make of their configuration. */
  static void check(TrainerConfig config, int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    if (config.dense()) {
      throw new IllegalArgumentException(
          "the parallel trainers feed sparse rows; turn dense input off");
    }
  }
}
