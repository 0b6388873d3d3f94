package org.onlinekernels.trainer.parallel;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.StateLayout;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.LinearModel;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * Online training on {@code T} threads by iterative parameter mixing (McDonald, Hall and Mann
 * 2010): every epoch is shuffled as {@link OnlineTrainer} shuffles it and cut into rounds of {@code
 * N} examples; in each round every thread starts its own learners from the merged state and trains
 * them on its contiguous {@code 1/T} of the round; then the learners are merged (docs/MERGING.md)
 * into the state the next round starts from. The last, shorter round of an epoch is merged too, so
 * the model is merged at the end.
 *
 * <p>Deterministic: for fixed {@code T}, {@code N}, seed and data the model is the same bit for bit
 * in every run (each thread's slice depends only on those, and the merge on the learners' states,
 * not on which thread finished first). With {@code T = 1} it is exactly {@link OnlineTrainer}'s
 * model (merging one learner is the identity).
 *
 * <p>Threads: the merged state lives in an {@link OnlineTrainer} confined to the calling thread;
 * the learners of thread {@code j} live in a shared arena and are handed to that thread for its
 * slice ({@code transferOwnership}) and back for the merge, so the optimizers' confinement checks
 * stay on. Copying the merged state out to the learners and merging them back is serial and costs
 * {@code O(T d)} per round: choose {@code N} so that a round's work, {@code N * nnz}, is large
 * against {@code d}.
 *
 * <p>Sparse rows only ({@code config.dense()} is refused), every algorithm with a merge rule (not
 * the {@code ogd} baseline).
 */
public final class ParallelTrainer implements AutoCloseable {
  private final TrainerConfig config;
  private final int threads;
  private final int mergeEvery;
  private final int d;
  private final OnlineTrainer merged;
  private final Arena shared = Arena.ofShared();
  private final List<ShardWorker> workers = new ArrayList<>();
  private final Random shuffler;
  private final int maxNnz;
  private long rounds;

  /**
   * A trainer for data of dimension {@code d} with rows of at most {@code maxNnz} nonzeros.
   *
   * @param config algorithm, element type, loss, epochs, shuffling (dense must be off)
   * @param threads {@code T >= 1}
   * @param mergeEvery {@code N}: examples per round (all threads together), {@code >= 1}; or 0 for
   *     one round per epoch
   * @param d model dimension
   * @param multiclass one-vs-rest over {@code classes} outputs, else one binary output
   * @param classes number of classes when {@code multiclass}
   * @param maxNnz the most nonzeros of any row to be trained on
   */
  public ParallelTrainer(
      TrainerConfig config,
      int threads,
      int mergeEvery,
      int d,
      boolean multiclass,
      int classes,
      int maxNnz) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1, got " + threads);
    }
    if (mergeEvery < 0) {
      throw new IllegalArgumentException(
          "merge interval N must be >= 1 (or 0: once per epoch), got " + mergeEvery);
    }
    if (config.dense()) {
      throw new IllegalArgumentException(
          "the parallel trainer feeds sparse rows; turn dense input off");
    }
    this.config = config;
    this.threads = threads;
    this.mergeEvery = mergeEvery;
    this.d = d;
    this.maxNnz = Math.max(1, maxNnz);
    // Planar state: the merge rules act on it (docs/MERGING.md).
    this.merged = new OnlineTrainer(config, d, multiclass, classes, null, StateLayout.PLANAR);
    try {
      for (int c = 0; c < merged.outputs(); c++) {
        LinearModelOptimizer o = merged.optimizer(c);
        if (!(o instanceof AbstractOptimizer)) {
          throw new IllegalArgumentException(
              "algorithm "
                  + config.algorithm().name()
                  + " has no merge rule (docs/MERGING.md); the parallel trainer needs one of the library's optimizers");
        }
      }
      for (int j = 0; j < threads; j++) {
        workers.add(new ShardWorker(config, d, multiclass, merged.outputs(), this.maxNnz, shared));
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    this.shuffler = new Random(config.seed());
  }

  /**
   * Trains on {@code train} in parallel and evaluates on {@code test} (may be null), like {@link
   * OnlineTrainer#train}; the result's progressive metrics are summed over all threads.
   *
   * @param config algorithm, element type, loss, epochs, shuffling
   * @param threads {@code T}
   * @param mergeEvery {@code N}, or 0 for once per epoch
   * @param train training data, at least one row
   * @param test test data, or null
   * @return model, metrics, counts and the wall time of training
   */
  public static TrainResult train(
      TrainerConfig config, int threads, int mergeEvery, SparseDataset train, SparseDataset test) {
    if (train.size() == 0) {
      throw new IllegalArgumentException("the training data has no examples");
    }
    int dim = Math.max(1, Math.max(train.dimension(), test == null ? 0 : test.dimension()));
    boolean multi = !train.isBinary();
    int classes =
        multi
            ? Math.max(train.numClasses(), test == null || test.isBinary() ? 0 : test.numClasses())
            : 1;
    if (test != null) {
      Metrics.checkLabels(test, multi, classes, "the test data");
    }
    try (ParallelTrainer t =
        new ParallelTrainer(
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
          seconds);
    }
  }

  /**
   * Runs the configured epochs over {@code data}.
   *
   * @param data rows of dimension {@code <= d}, at most {@code maxNnz} nonzeros each
   * @return progressive metrics per epoch, summed over the threads
   */
  public Metrics[] fit(SparseDataset data) {
    if (data.dimension() > d) {
      throw new IllegalArgumentException(
          "the data has " + data.dimension() + " features but the model " + d);
    }
    if (Datasets.maxNnz(data) > maxNnz) {
      throw new IllegalArgumentException(
          "a row has "
              + Datasets.maxNnz(data)
              + " nonzeros, more than the "
              + maxNnz
              + " this trainer was built for");
    }
    Metrics.checkLabels(data, merged.outputs() > 1, merged.outputs(), "the training data");
    Rows rows = new Rows(data);
    int n = rows.size();
    int[] order = new int[n];
    for (int r = 0; r < n; r++) {
      order[r] = r;
    }
    int round = mergeEvery == 0 ? Math.max(1, n) : mergeEvery;
    Metrics[] result = new Metrics[config.epochs()];
    for (int e = 0; e < config.epochs(); e++) {
      if (config.shuffle()) {
        Datasets.shuffle(order, shuffler);
      }
      for (ShardWorker w : workers) {
        w.lossSum = 0;
        w.errSum = 0;
      }
      for (int lo = 0; lo < n; lo += round) {
        runRound(rows, order, lo, Math.min(n, lo + round));
      }
      double lossSum = 0;
      double errSum = 0;
      for (ShardWorker w : workers) {
        lossSum += w.lossSum;
        errSum += w.errSum;
      }
      result[e] =
          new Metrics(n, n == 0 ? Double.NaN : lossSum / n, n == 0 ? Double.NaN : errSum / n);
    }
    return result;
  }

  /** One round: copy out, train the slices on their threads, hand back, merge. */
  private void runRound(Rows rows, int[] order, int lo, int hi) {
    Thread self = Thread.currentThread();
    int k = merged.outputs();
    Thread[] running = new Thread[threads];
    RuntimeException[] failed = new RuntimeException[threads];
    for (int j = 0; j < threads; j++) {
      ShardWorker w = workers.get(j);
      int from = lo + (int) ((long) (hi - lo) * j / threads);
      int to = lo + (int) ((long) (hi - lo) * (j + 1) / threads);
      int slot = j;
      running[j] =
          new Thread(
              () -> {
                try {
                  w.run(rows, order, from, to);
                } catch (RuntimeException ex) {
                  failed[slot] = ex;
                } finally {
                  for (AbstractOptimizer o : w.learners) {
                    o.transferOwnership(self);
                  }
                }
              },
              "online-kernels-shard-" + j);
      for (int c = 0; c < k; c++) {
        w.learners[c].copyStateFrom((AbstractOptimizer) merged.optimizer(c));
        w.learners[c].transferOwnership(running[j]);
      }
    }
    for (Thread t : running) {
      t.start();
    }
    joinAll(running);
    for (RuntimeException ex : failed) {
      if (ex != null) {
        // The learners are back with this thread; the merged state is that of the last round.
        throw ex;
      }
    }
    for (int c = 0; c < k; c++) {
      List<AbstractOptimizer> learners = new ArrayList<>(threads);
      for (ShardWorker w : workers) {
        learners.add(w.learners[c]);
      }
      ((AbstractOptimizer) merged.optimizer(c)).merge(learners);
    }
    rounds++;
  }

  private static void joinAll(Thread[] running) {
    boolean interrupted = false;
    for (Thread t : running) {
      while (true) {
        try {
          t.join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** The number of merges so far. */
  public long merges() {
    return rounds;
  }

  /** The merged model, as {@link OnlineTrainer#model()} reads it out. */
  public LinearModel model() {
    return merged.model();
  }

  @Override
  public void close() {
    for (ShardWorker w : workers) {
      for (AbstractOptimizer o : w.learners) {
        if (o != null) {
          o.close();
        }
      }
    }
    merged.close();
    if (shared.scope().isAlive()) {
      shared.close();
    }
  }
}
