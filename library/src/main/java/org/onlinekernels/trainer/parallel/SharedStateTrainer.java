package org.onlinekernels.trainer.parallel;

import java.lang.foreign.Arena;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.optimizer.parallel.HotRecords;
import org.onlinekernels.optimizer.parallel.SharedState;
import org.onlinekernels.trainer.BlockLoop;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.ThreadReport;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.TrainingMode;
import org.onlinekernels.trainer.handover.KernelHandover;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * Shared-state ("Hogwild", Niu, Recht, Ré and Wright 2011) online training on {@code T} threads:
 * every output's state is one {@link SharedState}, and each thread runs fused rounds on it through
 * its own view, without locks where the rule allows (docs/parallel/README.md says what a race can
 * do to each rule). Every epoch is shuffled as {@link OnlineTrainer} shuffles it and dealt out in
 * blocks of 256 rows, each thread taking the next block when it has finished one, so the threads
 * move through the epoch side by side, as one thread would, and a thread the machine runs slower
 * (other load, a slower core) takes fewer blocks instead of holding up the end of the epoch. Each
 * row is scored before its update (progressive validation); the metrics are summed over the
 * threads.
 *
 * <p>Not reproducible: which update a race loses depends on the timing. With {@code T = 1} it is
 * the sequential trainer's model and metrics, bit for bit. Sparse rows only, the library's rules
 * only; the state keeps the layout the sequential trainer gives it ({@link
 * TrainerConfig#stateLayout}).
 *
 * <p><b>Hot records.</b> With {@code T >= 2} and a lock-free rule, each worker keeps private copies
 * of the records of the fit's {@link #hotRecords} most named coordinates ({@link HotRecords}: the
 * worker renames each block it takes into a buffer of its own, {@link RenamedBlock}, so that its
 * rows name its copies instead) and folds them into the shared state at the end of each of its
 * blocks, so the cache lines both cores write on every row are the cold coordinates' only. The
 * state then has {@code T} times that many coordinates more than the data; the model holds the
 * data's {@code d}.
 */
public final class SharedStateTrainer implements ParallelTraining.Fit {
  /**
   * The system property that sets {@link #hotRecords}: the most hot coordinates whose records each
   * worker keeps private; 0 (the default) turns private records off.
   */
  public static final String HOT_PROPERTY = "onlinekernels.shared.hot";

  /**
   * The private hot records each worker keeps by default ({@link #HOT_PROPERTY} unset), per rule; a
   * rule not listed keeps none. 64 for ScInOL2 and AdaGrad: measured
   * (bench-report/threads-2026-11-29.md, sessions 7 and 8) with each worker renaming its own
   * blocks, 64 private records made two threads' whole run faster than the shared state alone in
   * every round, for both rules, and since the fold composes a wealth's factors ({@link
   * org.onlinekernels.optimizer.state.MergePlan#compounding}) no run diverges by a fold (the old
   * fold added two shrinking wealths' increments into a negative wealth, which then grew against
   * the gradients).
   */
  public static final Map<String, Integer> DEFAULT_HOT = Map.of("scinol2", 64, "adagrad", 64);

  /**
   * Rules without private hot records: a per-coordinate variable of theirs is not the sum of its
   * rounds' changes, so a fold that adds both sides' increments would overshoot it. ScInOL1's
   * {@code beta} is a running minimum (both sides lowering it gave a sum below either, and ScInOL1
   * 0.008 above one thread on the margin test, against 0.005); FreeGrad's {@code h1} is set once,
   * at a coordinate's first nonzero gradient (two sides setting it would add up).
   */
  static final Set<String> NOT_ADDITIVE = Set.of("scinol1", "freegrad");

  /**
   * The most hot coordinates each worker keeps private for rule {@code algorithm}: {@link
   * #HOT_PROPERTY} where it is set (for every rule), else the rule's {@link #DEFAULT_HOT}.
   */
  public static int hotRecords(String algorithm) {
    Integer set = Integer.getInteger(HOT_PROPERTY);
    return Math.max(0, set != null ? set : DEFAULT_HOT.getOrDefault(algorithm, 0));
  }

  /**
   * Whether a fit of {@code config} on {@code threads >= 2} threads keeps private hot records, as
   * {@code --threads auto} needs to know: shared-state training of a rule that folds, with {@link
   * #hotRecords} above 0.
   */
  public static boolean keepsHotRecords(TrainerConfig config, int threads) {
    return hotCapacity(config, threads, 1, hotRecords(config.algorithm().name())) > 0;
  }

  private final TrainerConfig config;
  private final int threads;
  private final int d;
  private final int k;
  private final boolean multiclass;
  private final SharedState[] states;

  /** Per output, the workers' private hot records; null without them. */
  private final HotRecords[] hot;

  /** The hot coordinates of the fit and each worker's rows naming its copies; null without. */
  private final HotCoordinates hotCoordinates;

  private final Random shuffler;
  private final Team team;

  /**
   * The scalar-to-vector handover, as the sequential trainer's (KernelHandover): the views start on
   * the scalar kernels and move to their later views once it is due; null: the chosen kernels
   * throughout.
   */
  private final KernelHandover handover;

  /** Set by worker 0 once the handover is due; each worker moves at its next block. */
  private volatile boolean handOverNow;

  /** Worker 0 found that the handover will never be due. */
  private boolean lookedForGood;

  private SteadySpan span = new SteadySpan(0, 0, 1, 1);

  /** Examples trained by the fits before this one. */
  private long examples;

  /**
   * A trainer for data of dimension {@code d}.
   *
   * @param config algorithm, element type, loss, epochs, shuffling (dense must be off)
   * @param threads {@code T >= 1}
   * @param multiclass one-vs-rest over {@code classes} outputs, else one binary output
   */
  public SharedStateTrainer(
      TrainerConfig config, int threads, int d, boolean multiclass, int classes) {
    this(config, threads, d, multiclass, classes, KernelHandover.forConfig(config));
  }

  /**
   * Same, with the scalar-to-vector handover given: {@code null} for the chosen kernels from the
   * first example, {@link KernelHandover#after} for a fixed moment (tests, measurements).
   */
  public SharedStateTrainer(
      TrainerConfig config,
      int threads,
      int d,
      boolean multiclass,
      int classes,
      KernelHandover handover) {
    ParallelTraining.check(config, threads);
    if (multiclass && classes < 2) {
      throw new IllegalArgumentException(
          "multiclass training needs at least 2 classes, got " + classes);
    }
    this.config = config;
    this.handover = handover;
    this.threads = threads;
    this.d = d;
    this.multiclass = multiclass;
    this.k = multiclass ? classes : 1;
    this.states = new SharedState[k];
    int capacity = hotCapacity(config, threads, d, hotRecords(config.algorithm().name()));
    this.hot = capacity > 0 ? new HotRecords[k] : null;
    this.hotCoordinates = capacity > 0 ? new HotCoordinates(d, capacity) : null;
    int stateD = d + threads * capacity;
    try {
      for (int c = 0; c < k; c++) {
        states[c] =
            SharedState.create(
                arena -> make(arena, stateD, handover == null ? null : KernelProvider.scalar()),
                handover == null ? null : arena -> make(arena, stateD, handover.target()),
                threads);
        for (int j = 0; j < threads; j++) {
          states[c].view(j).setInputPolicy(config.inputPolicy());
        }
        if (hot != null) {
          hot[c] = new HotRecords(states[c].owner(), d, threads, capacity);
        }
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    this.shuffler = new Random(config.seed());
    this.team = new Team(threads);
  }

  private LinearModelOptimizer make(Arena arena, int dimension, KernelProvider kernels) {
    return config
        .algorithm()
        .create(dimension, config.precision(), config.stateLayout(), arena, kernels);
  }

  /**
   * The hot records each worker keeps: {@code wanted} at most and at most {@code d}, within the int
   * range of coordinates; none on one thread, for a rule whose rounds run under the lock or one of
   * {@link #NOT_ADDITIVE}.
   */
  static int hotCapacity(TrainerConfig config, int threads, int d, int wanted) {
    if (threads < 2
        || wanted < 1
        || NOT_ADDITIVE.contains(config.algorithm().name())
        || ParallelTraining.fastest(config) != TrainingMode.SHARED) {
      return 0;
    }
    long room = ((long) Integer.MAX_VALUE - d) / threads;
    return (int) Math.min(Math.min(wanted, d), room);
  }

  @Override
  public Metrics[] fit(SparseDataset data) {
    if (data.dimension() > d) {
      throw new IllegalArgumentException(
          "the data has " + data.dimension() + " features but the model " + d);
    }
    Metrics.checkLabels(data, multiclass, k, "the training data");
    Rows rows = new Rows(data);
    SparseRows sparse = rows.sparse(config);
    if (hot != null) {
      // A count over a sample of the rows; each worker renames its own blocks as it takes them.
      hotCoordinates.choose(sparse);
    }
    Loss loss = config.loss();
    int n = rows.size();
    int[] order = rows.fileOrder();
    BlockLoop[] loops = new BlockLoop[threads];
    int epochs = config.epochs();
    if (handover != null) {
      handover.fitStarts((long) n * epochs);
    }
    SteadySpan steady = new SteadySpan(n, epochs, threads, BlockLoop.BLOCK);
    // The last block of an epoch is this long.
    int lastBlock = n - (n - 1) / BlockLoop.BLOCK * BlockLoop.BLOCK;
    // The next block to train; reset by thread 0 before the barrier that starts an epoch.
    AtomicInteger next = new AtomicInteger();
    // The fit's first block is trained alone: the scalars a view starts from are then the shared
    // ones after it, never the start values under weights another view has already trained
    // (global AdaGrad's rate from a near-zero sum of squares would overflow).
    CountDownLatch firstBlock = new CountDownLatch(1);
    team.run(
        j -> {
          // Made on the worker's own thread, in its own allocation buffer: the running sums it
          // writes every row must not share a cache line with another worker's.
          BlockLoop loop = new BlockLoop(k, multiclass, config.epochs(), BlockLoop.IN_ORDER);
          loops[j] = loop;
          RenamedBlock block = hot == null ? null : new RenamedBlock(sparse.elementType());
          BlockLoop.Rounds rounds =
              block == null
                  ? (c, from, to, y, yhat, losses) ->
                      states[c].rounds(j, sparse, order, from, to, y, loss, yhat, losses)
                  : (c, from, to, y, yhat, losses) ->
                      block.rounds(states[c], j, from, to, y, loss, yhat, losses);
          for (int e = 0; e < epochs; e++) {
            if (j == 0) {
              if (config.shuffle()) {
                Datasets.shuffle(order, shuffler);
              }
              for (SharedState s : states) {
                s.begin();
              }
              if (hot != null) {
                int[] coords = hotCoordinates.coords();
                for (HotRecords h : hot) {
                  h.use(coords, coords.length);
                }
              }
              next.set(0);
            }
            team.await(j);
            if (handover != null) {
              // A worker that takes no block in an epoch still moves at the next epoch's start.
              lookAtHandover(j, (long) e * n);
            }
            for (int b = next.getAndIncrement();
                (long) b * BlockLoop.BLOCK < n;
                b = next.getAndIncrement()) {
              if (e == 0 && b > 0) {
                long since = System.nanoTime();
                awaitFirst(firstBlock);
                team.clocks().waited(j, since);
              }
              int q0 = b * BlockLoop.BLOCK;
              long at = (long) e * n + q0;
              steady.starting(q0 > 0 ? at - BlockLoop.BLOCK : at - lastBlock, at);
              if (handover != null) {
                lookAtHandover(j, at);
              }
              long since = System.nanoTime();
              int q1 = Math.min(n, q0 + BlockLoop.BLOCK);
              try {
                if (block != null) {
                  block.fill(hotCoordinates, sparse, order, q0, q1, j, e > 0);
                }
                loop.run(rows.labels, order, q0, q1, BlockLoop.BLOCK, e + 1, rounds);
                if (hot != null) {
                  for (HotRecords h : hot) {
                    h.fold(j);
                  }
                }
              } finally {
                if (b == 0) {
                  firstBlock.countDown();
                }
              }
              if (b == 0 && e == 0) {
                team.clocks().alone(j, since);
              }
              team.clocks().block(j, q1 - q0);
            }
            team.await(j);
            if (j == 0) {
              if (hot != null) {
                for (HotRecords h : hot) {
                  h.park();
                }
              }
              for (SharedState s : states) {
                s.end();
              }
            }
            loop.endEpoch(e);
          }
        },
        (j, thread) -> {
          for (SharedState s : states) {
            s.transferView(j, thread);
          }
        });
    steady.end();
    span = steady;
    examples += (long) n * epochs;
    return BlockLoop.metrics(loops, n);
  }

  /** Waits until the fit's first block has been trained (or has failed: the team then stops). */
  private static void awaitFirst(CountDownLatch firstBlock) {
    try {
      firstBlock.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the first block trained", e);
    }
  }

  /**
   * At worker {@code j}'s next block, at {@code at} examples of this fit: worker 0 decides whether
   * the handover is due (a fixed example count, or the race won), every worker moves once it is.
   */
  private void lookAtHandover(int j, long at) {
    if (!handOverNow && j == 0 && !lookedForGood) {
      switch (handover.lookInFit(config, d, at, at)) {
        case NOW -> handOverNow = true;
        case NEVER -> lookedForGood = true;
        case LATER -> {}
      }
    }
    if (handOverNow && !states[0].handedOver(j)) {
      long since = System.nanoTime();
      for (SharedState s : states) {
        s.handOver(j);
      }
      team.clocks().handedOver(j, since, examples + at);
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

  @Override
  public LinearModel model() {
    AbstractOptimizer[] owners = new AbstractOptimizer[k];
    for (int c = 0; c < k; c++) {
      owners[c] = states[c].owner();
    }
    return LinearModel.readOut(config, multiclass, d, owners);
  }

  /** The last fit's hot coordinates, ascending (empty without private hot records). */
  int[] hotCoordinates() {
    return hotCoordinates == null ? new int[0] : hotCoordinates.coords().clone();
  }

  /** Output {@code c}'s private hot records, or null without them (tests and probes watch them). */
  HotRecords hotRecords(int c) {
    return hot == null ? null : hot[c];
  }

  /** The shared state of output {@code c} (for tests and experiments that inspect it). */
  public SharedState state(int c) {
    return states[c];
  }

  @Override
  public void close() {
    if (handover != null) {
      handover.stop();
    }
    for (SharedState s : states) {
      if (s != null) {
        s.close();
      }
    }
  }
}
