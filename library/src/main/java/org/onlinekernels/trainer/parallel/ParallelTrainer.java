package org.onlinekernels.trainer.parallel;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.CoordinateMerge;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.SharedState;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.trainer.BlockLoop;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.LinearModel;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.TrainingMode;

/**
 * Online training on {@code T} threads by iterative parameter mixing (McDonald, Hall and Mann
 * 2010): every epoch is shuffled as {@link OnlineTrainer} shuffles it and cut into rounds of {@code
 * N} examples; in each round every thread trains its own learners, which hold the merged state, on
 * its contiguous {@code 1/T} of the round; then the learners are merged (docs/MERGING.md) into the
 * state the next round starts from. The last, shorter round of an epoch is merged too.
 *
 * <p>Deterministic: for fixed {@code T}, {@code N}, seed and data the model is the same bit for bit
 * in every run (each thread's slice depends only on those, and the merge on the learners' states,
 * not on which thread finished first). With {@code T = 1} it is exactly {@link OnlineTrainer}'s
 * model and metrics (merging one learner is the identity).
 *
 * <p>Cheap merges: a sparse round changes only its row's coordinates (for every rule but Adaptive
 * OGD on the ball), so each thread marks the coordinates its rows name, and the merge ({@link
 * CoordinateMerge}) visits only those, split by coordinate range over the same threads, writing the
 * merged values into the merged state and into every learner at once: a round costs its rows plus
 * the distinct coordinates they named, not {@code O(T d)}. The threads live for the whole {@link
 * #fit} and meet at barriers between the phases (train, mark, merge); the merged state stays with
 * the calling thread (thread 0).
 *
 * <p>Sparse rows only ({@code config.dense()} is refused), the library's rules only (not the {@code
 * ogd} baseline); the state keeps the sequential trainer's layout.
 */
public final class ParallelTrainer implements ParallelTraining.Fit {
  private final TrainerConfig config;
  private final int threads;
  private final int mergeEvery;
  private final int d;
  private final int k;
  private final OnlineTrainer merged;
  private final Arena shared = Arena.ofShared();

  /** learners[j][c]: thread j's learner of output c. */
  private final AbstractOptimizer[][] learners;

  /** Per output, the learners as a merge takes them. */
  private final List<List<AbstractOptimizer>> byOutput = new ArrayList<>();

  /** Whether merges visit only the coordinates the rows named (else every coordinate). */
  private final boolean local;

  private SteadySpan span = new SteadySpan(0, 0, 1, 1);

  private final DirtyCoordinates dirty;
  private final CoordinateMerge[] merges;
  private final Random shuffler;
  private final int maxNnz;
  private final Team team;
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
    ParallelTraining.check(config, threads);
    if (mergeEvery < 0) {
      throw new IllegalArgumentException(
          "merge interval N must be >= 1 (or 0: once per epoch), got " + mergeEvery);
    }
    this.config = config;
    this.threads = threads;
    this.mergeEvery = mergeEvery;
    this.d = d;
    this.maxNnz = Math.max(1, maxNnz);
    this.merged = new OnlineTrainer(config, d, multiclass, classes, null, config.stateLayout());
    this.k = merged.outputs();
    this.learners = new AbstractOptimizer[threads][k];
    try {
      for (int j = 0; j < threads; j++) {
        for (int c = 0; c < k; c++) {
          learners[j][c] =
              library(
                  config
                      .algorithm()
                      .create(d, config.precision(), config.stateLayout(), shared, null));
          learners[j][c].setInputPolicy(config.inputPolicy());
        }
      }
      for (int c = 0; c < k; c++) {
        List<AbstractOptimizer> l = new ArrayList<>(threads);
        for (int j = 0; j < threads; j++) {
          l.add(learners[j][c]);
        }
        byOutput.add(l);
      }
      this.local = SharedState.lockFree(learners[0][0]);
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    this.dirty = local ? new DirtyCoordinates(d, threads) : null;
    this.merges = new CoordinateMerge[k];
    this.shuffler = new Random(config.seed());
    this.team = new Team(threads);
  }

  private AbstractOptimizer library(LinearModelOptimizer o) {
    if (!(o instanceof AbstractOptimizer a)) {
      o.close();
      throw new IllegalArgumentException(
          "algorithm "
              + config.algorithm().name()
              + " has no merge rule (docs/MERGING.md); the parallel trainer needs one of the library's optimizers");
    }
    return a;
  }

  /**
   * Trains on {@code train} by parameter mixing and evaluates on {@code test} (may be null), like
   * {@link OnlineTrainer#train}; the result's progressive metrics are summed over all threads.
   *
   * @param mergeEvery {@code N}, or 0 for once per epoch
   */
  public static TrainResult train(
      TrainerConfig config, int threads, int mergeEvery, SparseDataset train, SparseDataset test) {
    return ParallelTraining.train(config, threads, TrainingMode.MIXING, mergeEvery, train, test);
  }

  /**
   * Runs the configured epochs over {@code data}.
   *
   * @param data rows of dimension {@code <= d}, at most {@code maxNnz} nonzeros each
   * @return progressive metrics per epoch, summed over the threads
   */
  @Override
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
    Metrics.checkLabels(data, k > 1, k, "the training data");
    Rows rows = new Rows(data);
    if (local) {
      // The merges mark the rows' coordinates: copied here, before the clock of the first round.
      rows.indices();
    }
    SparseRows sparse = rows.sparse(config);
    Loss loss = config.loss();
    int n = rows.size();
    int[] order = rows.fileOrder();
    int round = mergeEvery == 0 ? Math.max(1, n) : mergeEvery;
    BlockLoop[] loops = new BlockLoop[threads];
    for (int j = 0; j < threads; j++) {
      for (int c = 0; c < k; c++) {
        learners[j][c].copyStateFrom((AbstractOptimizer) merged.optimizer(c));
      }
    }
    int epochs = config.epochs();
    SteadySpan steady = new SteadySpan(n, epochs, threads, BlockLoop.BLOCK);
    // The last round of an epoch is this long.
    int lastRound = n - (n - 1) / round * round;
    team.run(
        j -> {
          // Made on the worker's own thread, in its own allocation buffer: the running sums it
          // writes every row must not share a cache line with another worker's.
          BlockLoop loop = new BlockLoop(k, k > 1, config.epochs(), BlockLoop.IN_ORDER);
          loops[j] = loop;
          AbstractOptimizer[] mine = learners[j];
          BlockLoop.Rounds train =
              (c, from, to, y, yhat, losses) ->
                  mine[c].rounds(sparse, order, from, to, y, loss, yhat, losses);
          for (int e = 0; e < epochs; e++) {
            if (j == 0 && config.shuffle()) {
              Datasets.shuffle(order, shuffler);
            }
            team.await();
            for (int lo = 0; lo < n; lo += round) {
              int hi = Math.min(n, lo + round);
              if (j == 0) {
                long at = (long) e * n + lo;
                steady.starting(lo > 0 ? at - round : at - lastRound, at);
              }
              int from = lo + (int) ((long) (hi - lo) * j / threads);
              int to = lo + (int) ((long) (hi - lo) * (j + 1) / threads);
              loop.run(rows.labels, order, from, to, BlockLoop.BLOCK, e + 1, train);
              if (local) {
                dirty.mark(j, rows, order, from, to);
              }
              team.await();
              mergeRound(j);
            }
            loop.endEpoch(e);
          }
        },
        (j, thread) -> {
          for (AbstractOptimizer o : learners[j]) {
            o.transferOwnership(thread);
          }
        });
    steady.end();
    span = steady;
    return BlockLoop.metrics(loops, n);
  }

  @Override
  public long steadyExamples() {
    return span.examples();
  }

  @Override
  public double steadySeconds() {
    return span.seconds();
  }

  /**
   * Thread {@code j}'s part of one merge, after the round's training: the marked coordinates of its
   * range of words collected; thread 0 prepares the merges; every thread checks, then writes, its
   * range of the coordinates; thread 0 merges the scalars. Returns with every learner holding the
   * merged state.
   */
  private void mergeRound(int j) {
    if (local) {
      dirty.collect(j);
      team.await();
    }
    if (j == 0) {
      int[] coords = local ? dirty.gather() : null;
      int count = local ? dirty.count() : d;
      for (int c = 0; c < k; c++) {
        merges[c] =
            CoordinateMerge.prepare(
                (AbstractOptimizer) merged.optimizer(c), byOutput.get(c), coords, count);
      }
    }
    team.await();
    for (CoordinateMerge m : merges) {
      m.check(part(m.size(), j), part(m.size(), j + 1));
    }
    team.await();
    for (CoordinateMerge m : merges) {
      m.write(part(m.size(), j), part(m.size(), j + 1));
    }
    team.await();
    if (j == 0) {
      for (CoordinateMerge m : merges) {
        m.finish();
      }
      rounds++;
    }
    team.await();
  }

  /** The start of thread {@code j}'s share of {@code size} positions. */
  private int part(int size, int j) {
    return (int) ((long) size * j / threads);
  }

  /** The number of merges so far. */
  public long merges() {
    return rounds;
  }

  /** The merged model, as {@link OnlineTrainer#model()} reads it out. */
  @Override
  public LinearModel model() {
    return merged.model();
  }

  @Override
  public void close() {
    for (AbstractOptimizer[] row : learners) {
      for (AbstractOptimizer o : row) {
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
