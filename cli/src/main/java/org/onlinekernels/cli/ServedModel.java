package org.onlinekernels.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.VisibleText;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * The model {@code serve} answers with, shared by every connection.
 *
 * <p>Without {@code --learn} it is a {@link LinearModel}: immutable weights, read by any number of
 * connections at once without a lock, scored exactly as {@code predict} scores.
 *
 * <p>With {@code --learn} it is a {@link Learner} resumed from a state file, and every example goes
 * through one <em>model thread</em> that owns it: the trainer's state lives in a thread-confined
 * arena, and one thread is also the simplest correct scheme for concurrent clients: it serializes
 * every predict-then-update as one lock around both would, so the model sees the examples one at a
 * time in the order they arrive, exactly as {@code train --no-shuffle} sees a file's lines. The
 * state is saved on that thread too (every {@code --save-every} examples and at shutdown), between
 * two examples, through {@link TrainingState#save} (temporary file, fsync, atomic rename).
 */
final class ServedModel implements AutoCloseable {
  private final LinearModel model;
  private final boolean multiclass;
  private final int outputs;
  private final ExecutorService owner;
  private final Learner[] learner = new Learner[1];
  private final RunSettings settings;
  private final Path saveState;
  private final long saveEvery;
  private volatile String summary;
  private final PrintStream err;
  private long learned;

  private ServedModel(
      LinearModel model,
      ExecutorService owner,
      RunSettings settings,
      Path saveState,
      long saveEvery,
      PrintStream err) {
    this.model = model;
    this.owner = owner;
    this.settings = settings;
    this.saveState = saveState;
    this.saveEvery = saveEvery;
    this.err = err;
    this.multiclass = model != null ? model.multiclass() : settings.multiclass();
    this.outputs = model != null ? model.outputs() : settings.outputs();
  }

  /** A model that only predicts. */
  static ServedModel predicting(LinearModel model) {
    return new ServedModel(model, null, null, null, 0, null);
  }

  /**
   * A model that learns from every example, resumed from {@code state} (read from {@code from}).
   *
   * @param saveState where to save the state, or null
   * @param saveEvery save every this many examples (0: at shutdown only)
   * @param err where a failed periodic save is reported
   */
  static ServedModel learning(
      TrainingState state,
      RunSettings s,
      Path from,
      Path saveState,
      long saveEvery,
      PrintStream err)
      throws Failure {
    ExecutorService owner =
        Executors.newSingleThreadExecutor(
            r -> Thread.ofPlatform().name("serve-model").daemon().unstarted(r));
    ServedModel m = new ServedModel(null, owner, s, saveState, saveEvery, err);
    m.onOwner(
        () -> {
          m.learner[0] = Learner.resume(state, s, s.config(1, Main.DEFAULT_SEED, false), from);
          return null;
        });
    return m;
  }

  /** Whether examples are trained on. */
  boolean learns() {
    return owner != null;
  }

  /** Whether the model is multiclass (its predictions are a class and K scores). */
  boolean multiclass() {
    return multiclass;
  }

  /** Number of outputs K. */
  int outputs() {
    return outputs;
  }

  /**
   * Writes the example's scores to {@code yhat[0..K)}: the model's ({@link LinearModel#scores});
   * when learning, the progressive scores (before the update), then trains on the example.
   *
   * @throws ServeRows.BadLine when the example cannot be trained on (label, dimension, update)
   * @throws Failure when the server is shutting down
   */
  void answer(SparseDataset one, double[] yhat) throws ServeRows.BadLine, Failure {
    if (owner == null) {
      model.scores(one.indices(), one.values(), 0, one.nnz(0), yhat);
      return;
    }
    try {
      onOwner(
          () -> {
            learner[0].learn(one, yhat);
            learned++;
            if (saveEvery > 0 && learned % saveEvery == 0) {
              try {
                save();
              } catch (Failure e) {
                err.println("error: " + VisibleText.of(e.getMessage()) + "; serving on");
              }
            }
            return null;
          });
    } catch (OnlineTrainer.TrainingException | IllegalArgumentException e) {
      throw new ServeRows.BadLine(e.getMessage());
    }
  }

  /** Writes the state to {@code --save-state}, on the model thread. */
  private void save() throws Failure {
    if (saveState != null) {
      TrainingState.save(saveState, settings.plus(learned).toMap(), learner[0].resumables());
    }
  }

  /**
   * What {@link #close} did, for the user: {@code state: FILE (T examples trained in all; N learned
   * while serving)}, or that the N examples learned were not saved (no {@code --save-state}); null
   * for a model that does not learn or is not closed yet.
   */
  String summary() {
    return summary;
  }

  /** Number of examples trained on since the start. */
  long learned() throws Failure {
    return owner == null ? 0 : onOwner(() -> learned);
  }

  /**
   * Saves the state (with {@code --save-state}) after every example already submitted, and frees
   * the learner; later examples are refused.
   */
  @Override
  public void close() throws Failure {
    if (owner == null || owner.isShutdown()) {
      return;
    }
    try {
      onOwner(
          () -> {
            try {
              save();
              summary =
                  saveState != null
                      ? "state: "
                          + saveState
                          + " ("
                          + settings.plus(learned).examples()
                          + " examples trained in all; "
                          + learned
                          + " learned while serving)"
                      : learned + " examples learned while serving, not saved (no --save-state)";
            } finally {
              learner[0].close();
            }
            return null;
          });
    } finally {
      owner.shutdown();
      try {
        owner.awaitTermination(1, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Runs {@code task} on the model thread and waits for it. */
  private <T> T onOwner(Callable<T> task) throws Failure {
    try {
      return owner.submit(task).get();
    } catch (RejectedExecutionException e) {
      throw new Failure("the server is shutting down");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Failure("interrupted");
    } catch (ExecutionException e) {
      switch (e.getCause()) {
        case Failure f -> throw f;
        case RuntimeException r -> throw r;
        case Error x -> throw x;
        default -> throw new IllegalStateException(e.getCause());
      }
    }
  }
}
