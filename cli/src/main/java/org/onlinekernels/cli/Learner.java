package org.onlinekernels.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.data.RowSource;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.AtomicFiles;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.checkpoint.CheckpointException;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * One single-thread learner of the command line: the library's {@link OnlineTrainer}, used through
 * its public API, that can start from a state file, hand its optimizers' state out for one, hold
 * examples out ({@link Holdout}) and train row by row ({@code serve --learn}). Its training passes
 * are the trainer's {@code fit}, the fused rounds, whatever the options: so a run continued from a
 * state computes the same bits as one uninterrupted run.
 *
 * <p>Confined to the creating thread (the trainer's state lives in a confined arena).
 */
final class Learner implements AutoCloseable {
  private final OnlineTrainer trainer;
  private final TrainerConfig config;
  private final int d;
  private final boolean multiclass;
  private final int outputs;

  /** The scores of the last example {@link #learn} trained on. */
  private final double[] lastScores;

  /** Keeps the progressive scores in {@link #lastScores}: made once, not per example. */
  private final OnlineTrainer.ProgressiveSink keepScores;

  /** A learner with fresh optimizers; {@code classes} is ignored for binary labels. */
  Learner(TrainerConfig config, int d, boolean multiclass, int classes) {
    this.trainer = new OnlineTrainer(config, d, multiclass, classes);
    this.config = config;
    this.d = d;
    this.multiclass = multiclass;
    this.outputs = trainer.outputs();
    this.lastScores = new double[outputs];
    this.keepScores = (epoch, row, label, yhat, k) -> System.arraycopy(yhat, 0, lastScores, 0, k);
  }

  /**
   * A learner with the optimizers' state of {@code state} (read from {@code file}), bit for bit.
   */
  static Learner resume(TrainingState state, RunSettings s, TrainerConfig config, Path file)
      throws Failure {
    Learner l = new Learner(config, s.d(), s.multiclass(), s.outputs());
    try {
      for (int c = 0; c < l.outputs; c++) {
        state
            .images()
            .get(c)
            .restore(
                file + (l.outputs > 1 ? ", output " + (c + 1) : ""),
                resumable(l.trainer.optimizer(c), config));
      }
    } catch (CheckpointException e) {
      l.close();
      throw new Failure(e.getMessage());
    } catch (IOException e) {
      l.close();
      throw new Failure("cannot read " + file + ": " + AtomicFiles.reason(e));
    } catch (Failure | RuntimeException e) {
      l.close();
      throw e;
    }
    return l;
  }

  private static AbstractOptimizer resumable(LinearModelOptimizer o, TrainerConfig config)
      throws Failure {
    if (o instanceof AbstractOptimizer a) {
      return a;
    }
    throw new Failure(
        config.algorithm().name()
            + " (the baseline) keeps no resumable state; --save-state and"
            + " --initial need one of the rules");
  }

  /** Each output's optimizer, whose checkpoint a {@link TrainingState} saves. */
  List<AbstractOptimizer> resumables() throws Failure {
    List<AbstractOptimizer> resumables = new ArrayList<>();
    for (int c = 0; c < outputs; c++) {
      resumables.add(resumable(trainer.optimizer(c), config));
    }
    return resumables;
  }

  /** Number of outputs. */
  int outputs() {
    return outputs;
  }

  /** The trainer's settings this learner was made with. */
  TrainerConfig config() {
    return config;
  }

  /** Dimension. */
  int dimension() {
    return d;
  }

  /** Whether the outputs are classes (one-vs-rest) rather than one for labels {@code +1/-1}. */
  boolean multiclass() {
    return multiclass;
  }

  /** The current model (read-out weights). */
  LinearModel model() {
    return trainer.model();
  }

  /**
   * Runs the configured epochs over {@code data} (less the rows {@code holdout} holds out, if
   * given) and evaluates the final model on {@code test} (may be null).
   *
   * @param sink receives every trained example's progressive scores with its row in {@code data},
   *     or null
   * @param readOut whether the result carries the model (always with {@code test}); without it the
   *     run reads no weight out ({@link TrainResult#model()} is null)
   * @throws OnlineTrainer.TrainingException when an update is refused
   * @throws IllegalArgumentException when {@code test}'s labels do not fit the model (nothing is
   *     trained)
   */
  TrainResult train(
      SparseDataset data,
      SparseDataset test,
      PrintStream progress,
      OnlineTrainer.ProgressiveSink sink,
      Holdout holdout,
      boolean readOut) {
    if (test != null) {
      Metrics.checkLabels(
          test, multiclass, outputs, "the test data"); // before training, as OnlineTrainer.train
    }
    SparseDataset rows = holdout == null ? data : holdout.training();
    trainer.setProgressiveSink(
        sink == null || holdout == null
            ? sink
            : (epoch, row, label, yhat, k) ->
                sink.accept(epoch, holdout.fileRow(row), label, yhat, k));
    long total = (long) rows.size() * config.epochs();
    // The steady-state span starts at the first call at or after half the examples: exactly the
    // half without a holdout (the trainer ends a block of rounds where a call is due).
    long half = total / 2;
    long[] steadyStart = {0, 0};
    int every =
        holdout != null
            ? holdout.period() - 1
            : (int) Math.min(Integer.MAX_VALUE, Math.max(1, half));
    long t0 = System.nanoTime();
    steadyStart[1] = t0;
    Metrics[] epochs =
        trainer.fit(
            rows,
            progress,
            every,
            (seen, t) -> {
              if (steadyStart[0] == 0 && seen >= half && seen < total) {
                steadyStart[0] = seen;
                steadyStart[1] = System.nanoTime();
              }
              if (holdout != null) {
                holdout.at(seen, t);
              }
            });
    long t1 = System.nanoTime();
    LinearModel model = readOut || test != null ? trainer.model() : null;
    Metrics prog = Metrics.combine(epochs);
    Metrics testMetrics = test == null ? null : Metrics.evaluate(model, test);
    return new TrainResult(
        model,
        prog,
        epochs,
        testMetrics,
        prog.examples(),
        rows.totalNonZeros() * config.epochs(),
        (t1 - t0) / 1e9,
        steadyStart[0] == 0 ? 0 : total - steadyStart[0], // 0: no call fell in the second half
        steadyStart[0] == 0 ? 0 : (t1 - steadyStart[1]) / 1e9,
        trainer.handoverAt(),
        trainer.kernels());
  }

  /**
   * Runs the configured epochs over the passes of {@code source} as they arrive ({@link
   * OnlineTrainer#fit(RowSource, PrintStream, int, OnlineTrainer.Checkpoint)}); {@code sink}
   * receives every trained row's progressive scores with its file row, or is null; without {@code
   * readOut} the result carries no model (as {@link #train}).
   *
   * @throws IOException if the input cannot be read or is malformed
   * @throws OnlineTrainer.TrainingException when an update is refused
   */
  TrainResult trainStream(
      RowSource source, PrintStream progress, OnlineTrainer.ProgressiveSink sink, boolean readOut)
      throws IOException {
    trainer.setProgressiveSink(sink);
    return trainer.fit(source, progress, 0, null, readOut);
  }

  /** Scores a held-out row of a stream with the model as it stands ({@link Holdout#score}). */
  void scoreHeldOut(
      Holdout holdout, int[] idx, double[] val, int s, int e, double y, int epoch, long id) {
    holdout.score(trainer, idx, val, s, e, y, epoch, id);
  }

  /**
   * Trains on the rows of {@code rows} in their order, one pass through the trainer's {@code fit}
   * (the fused rounds: the configuration must not shuffle to match {@code train --no-shuffle}), and
   * writes the last row's progressive scores (taken before its update) to {@code yhat[0..K)}.
   *
   * @throws OnlineTrainer.TrainingException when an update is refused
   * @throws IllegalArgumentException when a label or the dimension does not fit the model
   */
  void learn(SparseDataset rows, double[] yhat) {
    trainer.setProgressiveSink(keepScores);
    trainer.fit(rows, null, 0, null);
    System.arraycopy(lastScores, 0, yhat, 0, outputs);
  }

  @Override
  public void close() {
    trainer.close();
  }
}
