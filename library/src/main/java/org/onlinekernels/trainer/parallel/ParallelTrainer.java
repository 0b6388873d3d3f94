package org.onlinekernels.trainer.parallel;

import java.util.List;
import java.util.Random;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.optimizer.parallel.CoordinateMerge;
import org.onlinekernels.optimizer.parallel.SharedState;
import org.onlinekernels.trainer.BlockLoop;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.ThreadReport;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.TrainingMode;
import org.onlinekernels.trainer.handover.KernelHandover;
import org.onlinekernels.trainer.model.LinearModel;

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
 * the distinct coordinates they named, not {@code O(T d)}. A coordinate only one thread's rows
 * named is copied from that thread's learner rather than combined, and not checked for overflow (a
 * sum of one term cannot overflow): the same bits for less work. Every phase of the merge is split
 * by position in the round's ascending list of coordinates, a fixed share per thread ({@link
 * #share}): collecting the marks, placing them in the list, checking and writing; only the merge's
 * preparation and its scalars are thread 0's; a rule without summed state has no overflow check,
 * and then no check phase. The threads live for the whole {@link #fit} and meet at barriers between
 * the phases (train, mark, merge); the merged state stays with the calling thread (thread 0).
 *
 * <p>Kernels: the learners start on the scalar kernels and move to the vector kernels at a round
 * boundary once the sequential trainer's handover ({@link KernelHandover}) is due, all in the same
 * round ({@link MixingHandover}); both kernels compute the same bits.
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

  /** The learners' move to the vector kernels; null: on the chosen kernels throughout. */
  private final MixingHandover handover;

  /** The learners, thread by thread, output by output. */
  private final Learners learners;

  /** Whether merges visit only the coordinates the rows named (else every coordinate). */
  private final boolean local;

  private SteadySpan span = new SteadySpan(0, 0, 1, 1);

  private final DirtyCoordinates dirty;
  private final CoordinateMerge[] merges;

  /** Per thread (a cache line apart): the positions it wrote, over every fit. */
  private final long[][] writtenPositions;

  /** The positions of every round's list, summed (thread 0). */
  private long listedPositions;

  private final Random shuffler;
  private final int maxNnz;
  private final Team team;
  private long rounds;

  /** Examples trained by the fits before this one. */
  private long examples;

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
    this(
        config,
        threads,
        mergeEvery,
        d,
        multiclass,
        classes,
        maxNnz,
        KernelHandover.forConfig(config));
  }

  /**
   * Same, with the scalar-to-vector handover given: {@code null} for the chosen kernels from the
   * first example, {@link KernelHandover#after} for the first round boundary at or after a fixed
   * example count (tests, measurements).
   */
  public ParallelTrainer(
      TrainerConfig config,
      int threads,
      int mergeEvery,
      int d,
      boolean multiclass,
      int classes,
      int maxNnz,
      KernelHandover handover) {
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
    this.handover = handover == null ? null : new MixingHandover(handover, config, d, threads);
    try {
      this.learners =
          new Learners(config, d, threads, k, handover == null ? null : KernelProvider.scalar());
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    this.local = SharedState.lockFree(learners.of(0)[0]);
    this.dirty = local ? new DirtyCoordinates(d, threads) : null;
    this.merges = new CoordinateMerge[k];
    this.writtenPositions = new long[threads][8];
    this.shuffler = new Random(config.seed());
    this.team = new Team(threads);
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
        learners.of(j)[c].copyStateFrom((AbstractOptimizer) merged.optimizer(c));
      }
    }
    int epochs = config.epochs();
    SteadySpan steady = new SteadySpan(n, epochs, threads, BlockLoop.BLOCK);
    // The last round of an epoch is this long.
    int lastRound = n - (n - 1) / round * round;
    if (handover != null) {
      handover.fitStarts((long) n * epochs);
      handover.look(0);
    }
    team.run(
        j -> {
          // Made on the worker's own thread, in its own allocation buffer: the running sums it
          // writes every row must not share a cache line with another worker's.
          BlockLoop loop = new BlockLoop(k, k > 1, config.epochs(), BlockLoop.IN_ORDER);
          loops[j] = loop;
          AbstractOptimizer[] mine = learners.of(j);
          BlockLoop.Rounds train =
              (c, from, to, y, yhat, losses) ->
                  mine[c].rounds(sparse, order, from, to, y, loss, yhat, losses);
          for (int e = 0; e < epochs; e++) {
            if (j == 0 && config.shuffle()) {
              Datasets.shuffle(order, shuffler);
            }
            team.await(j);
            for (int lo = 0; lo < n; lo += round) {
              int hi = Math.min(n, lo + round);
              if (handover != null && handover.dueNow()) {
                moveLearners(j, examples + (long) e * n + lo);
              }
              if (j == 0) {
                long at = (long) e * n + lo;
                steady.starting(lo > 0 ? at - round : at - lastRound, at);
              }
              int from = lo + (int) ((long) (hi - lo) * j / threads);
              int to = lo + (int) ((long) (hi - lo) * (j + 1) / threads);
              loop.run(rows.labels, order, from, to, BlockLoop.BLOCK, e + 1, train);
              team.clocks().block(j, to - from);
              if (local) {
                dirty.mark(j, rows, order, from, to);
              }
              team.await(j);
              mergeRound(j, (long) e * n + hi);
            }
            loop.endEpoch(e);
          }
        },
        (j, thread) -> {
          for (AbstractOptimizer o : learners.of(j)) {
            o.transferOwnership(thread);
          }
        });
    steady.end();
    span = steady;
    examples += (long) n * epochs;
    if (handover != null) {
      handover.fitEnds((long) n * epochs);
    }
    return BlockLoop.metrics(loops, n);
  }

  /**
   * Thread {@code j} at a round start, the handover due: moves its learners; then thread 0 frees
   * the first learners' state once every thread has moved.
   */
  private void moveLearners(int j, long done) {
    long since = System.nanoTime();
    handover.move(j, learners.of(j));
    team.clocks().handedOver(j, since, done);
    team.await(j);
    if (j == 0 && handover.moved()) {
      learners.freeFirst();
    }
  }

  @Override
  public ThreadReport threadReport() {
    return team.clocks().report();
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
   * range of words collected and placed in the round's list; thread 0 prepares the merges; every
   * thread checks (where the rule has summed state), then writes, its share of the list; thread 0
   * merges the scalars and, {@code done} examples into the fit, looks at the handover. Returns with
   * every learner holding the merged state.
   */
  private void mergeRound(int j, long done) {
    if (local) {
      dirty.collect(j);
      team.await(j);
      dirty.place(j);
      team.await(j);
    }
    if (j == 0) {
      long since = System.nanoTime();
      int[] coords = local ? dirty.list() : null;
      int count = local ? dirty.count() : d;
      for (int c = 0; c < k; c++) {
        merges[c] =
            CoordinateMerge.prepare(
                (AbstractOptimizer) merged.optimizer(c),
                learners.output(c),
                coords,
                count,
                local ? dirty.owners() : null);
      }
      listedPositions += (long) count * k;
      team.clocks().alone(j, since);
    }
    team.await(j);
    boolean checks = false;
    for (CoordinateMerge m : merges) {
      checks |= m.checks();
    }
    if (checks) {
      for (CoordinateMerge m : merges) {
        m.check(share(m.size(), j), share(m.size(), j + 1));
      }
      team.await(j);
    }
    for (CoordinateMerge m : merges) {
      int lo = share(m.size(), j);
      int hi = share(m.size(), j + 1);
      m.write(lo, hi);
      writtenPositions[j][0] += hi - lo;
    }
    team.await(j);
    if (j == 0) {
      long since = System.nanoTime();
      for (CoordinateMerge m : merges) {
        m.finish();
      }
      rounds++;
      if (handover != null) {
        handover.look(done);
      }
      team.clocks().alone(j, since);
    }
    team.await(j);
  }

  /**
   * The start of thread {@code j}'s share of {@code size} positions of a round's list: the shares
   * {@code [share(size, j), share(size, j + 1))} for {@code j = 0..T-1} cover every position once,
   * fixed by {@code size} and {@code T} alone (not by timing).
   */
  private int share(int size, int j) {
    return (int) ((long) size * j / threads);
  }

  /**
   * The positions the merges' shares wrote, over every fit, summed over the threads and outputs.
   */
  long positionsWritten() {
    long p = 0;
    for (long[] w : writtenPositions) {
      p += w[0];
    }
    return p;
  }

  /** The positions of the merges' lists (coordinates times outputs), over every fit. */
  long positionsListed() {
    return listedPositions;
  }

  /** The number of merges so far. */
  public long merges() {
    return rounds;
  }

  /**
   * After how many examples (over every fit) the learners were moved to the vector kernels, or -1
   * if they were not (yet).
   */
  public long handoverAt() {
    return handover == null ? -1 : handover.at();
  }

  /** The kernels every learner runs on now, thread after thread, output after output. */
  public List<KernelProvider> kernels() {
    return learners.kernels();
  }

  /** The merged model, as {@link OnlineTrainer#model()} reads it out. */
  @Override
  public LinearModel model() {
    return merged.model();
  }

  @Override
  public void close() {
    if (learners != null) {
      learners.close();
    }
    merged.close();
    if (handover != null) {
      handover.close();
    }
  }
}
