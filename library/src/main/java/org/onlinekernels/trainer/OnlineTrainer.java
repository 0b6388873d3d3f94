package org.onlinekernels.trainer;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.util.Random;
import org.onlinekernels.data.RowBlock;
import org.onlinekernels.data.RowFeed;
import org.onlinekernels.data.RowSource;
import org.onlinekernels.data.ShuffleFeed;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.trainer.handover.KernelHandover;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * The fused online trainer: per example, each of the {@code K} optimizers runs one round (predict,
 * loss derivative, update) and the example's loss and error are scored from the rounds' predictions
 * (progressive validation: each prediction is taken before any update on the example).
 *
 * <h2>Sparse rows: fused rounds on interleaved state</h2>
 *
 * The default sparse mode validates the data once ({@link SparseRows}, per element type, kept in
 * the {@link TrainingData}) and calls {@link LinearModelOptimizer#round} per output: no row is
 * copied, nothing is re-validated beyond O(1) per call, and ScInOL2 and AdaGrad keep their state
 * {@link StateLayout#INTERLEAVED}, so a random coordinate costs one cache line. The {@code K}
 * outputs share no state, so running output {@code k}'s update before output {@code k+1}'s
 * prediction changes none of the scores. Dense mode ({@link TrainerConfig#dense}) packs each row
 * into a {@code d}-element segment once, predicts with all {@code K} planar optimizers, then
 * updates them.
 *
 * <h2>Streams: rows as they arrive</h2>
 *
 * {@link #fit(RowSource, PrintStream, int, Checkpoint)} trains from a {@link RowSource}, block by
 * block as its feeds give them, without holding the data: each {@link RowBlock} is validated into
 * one reused {@link SparseRows#buffer} and trained by the same fused rounds as a data set, so a
 * stream in a data set's order gives that data set's model and metrics bit for bit. Memory is the
 * optimizers' state, one block, and what the feed holds (e.g. a {@link ShuffleFeed}'s buffer).
 *
 * <h2>Multiclass: one-vs-rest with {@code K} outputs sharing one instance</h2>
 *
 * Labels {@code 0..K-1} train {@code K} independent binary learners, output {@code k} on the target
 * {@code +1} for class {@code k} and {@code -1} otherwise, with the configured loss; the prediction
 * is the class of the largest score. We chose one-vs-rest over the K-way softmax because it works
 * with all four losses (Streeter and McMahan's hinge-loss experiments need that), keeps every
 * output a plain instance of the paper's binary algorithm (so its guarantees and the scale
 * invariance of ScInOL hold per output), and needs no coupling between the optimizers.
 *
 * <h2>No allocation per example</h2>
 *
 * The rows are prepared once per data set and element type, the dense segment once per trainer, the
 * shuffling permutation once per run, the score array once; losses and the error are computed by
 * static methods on primitives. Progress lines (only to a terminal) are the only allocation in the
 * loop, at most one per second.
 *
 * <p>Not thread-safe; confined to the creating thread (the optimizers' state lives in a confined
 * arena closed by {@link #close}).
 */
public final class OnlineTrainer implements AutoCloseable {

  /** How often (in examples) the loop looks at the clock for the progress line. */
  private static final int PROGRESS_CHECK = 4096;

  /** Sparse rows per {@code rounds} call ({@link BlockLoop#BLOCK}). */
  static final int BLOCK = BlockLoop.BLOCK;

  private final TrainerConfig config;
  private final int d;
  private final int k;
  private final boolean multiclass;
  private final Arena arena = Arena.ofConfined();
  private final LinearModelOptimizer[] opt;
  private final Random shuffler;

  /** The dense rows' round (dense mode), or null. */
  private final DenseRound denseRound;

  /** The sparse rows' loop over blocks (scores, losses, the sums of each epoch). */
  private final BlockLoop blocks;

  private ProgressiveSink progressiveSink;

  /** The scalar-to-vector handover; null without one, and for the {@code ogd} baseline. */
  private final KernelHandover handover;

  private final FitClock clock;

  /**
   * Where the rows of the current call start in its epoch's order: 0 for a data set; for a stream,
   * the rows of the epoch before the current block (for a refused round's message).
   */
  private long positionBase;

  /** The stream passes' reused buffers: the block, its rows validated, the visiting order. */
  private RowBlock streamBlock;

  private SparseRows streamRows;
  private int[] identity = new int[0];

  /**
   * Called every {@code every} training examples during {@link #fit}, e.g. to evaluate on a test
   * set.
   */
  @FunctionalInterface
  public interface Checkpoint {
    /**
     * {@code examplesSeen} examples have been trained on; {@code trainer.model()} is the current
     * model.
     */
    void at(long examplesSeen, OnlineTrainer trainer);
  }

  /**
   * Receives every training example's progressive scores (taken before the update on it), e.g. to
   * write them to a file or to score them by another rule; see {@link #setProgressiveSink}.
   */
  @FunctionalInterface
  public interface ProgressiveSink {
    /**
     * Row {@code row} of the data (0-based, in the data's order; for a {@link RowFeed}, the row's
     * id) with label {@code label} was scored {@code yhat[0..k)} in epoch {@code epoch} (1-based);
     * {@code yhat} is only valid during the call.
     */
    void accept(int epoch, long row, double label, double[] yhat, int k);
  }

  /**
   * A trainer with fresh optimizers.
   *
   * @param d dimension
   * @param multiclass whether labels are classes (one-vs-rest) rather than {@code +1/-1}
   * @param classes number of classes {@code K} when multiclass (ignored otherwise)
   */
  public OnlineTrainer(TrainerConfig config, int d, boolean multiclass, int classes) {
    this(config, d, multiclass, classes, config.stateLayout(), KernelHandover.forConfig(config));
  }

  /**
   * Same, with a kernel implementation ({@code null}: {@link KernelProvider#get()}), e.g. the
   * scalar one to compare against or to measure the trainer's own loop.
   */
  public OnlineTrainer(
      TrainerConfig config, int d, boolean multiclass, int classes, KernelProvider kernels) {
    this(config, d, multiclass, classes, kernels, config.stateLayout());
  }

  /**
   * Same with the optimizers' state in {@code layout} instead of {@link TrainerConfig#stateLayout}:
   * the parallel and Spark trainers keep planar state, on which the merge rules act.
   */
  public OnlineTrainer(
      TrainerConfig config,
      int d,
      boolean multiclass,
      int classes,
      KernelProvider kernels,
      StateLayout layout) {
    this(config, d, multiclass, classes, kernels, layout, null);
  }

  /**
   * A trainer that starts on the scalar kernels and hands its optimizers over to {@code handover}'s
   * kernels (see {@link KernelHandover}); {@code null}: none.
   */
  OnlineTrainer(
      TrainerConfig config,
      int d,
      boolean multiclass,
      int classes,
      StateLayout layout,
      KernelHandover handover) {
    this(
        config,
        d,
        multiclass,
        classes,
        handover == null ? null : KernelProvider.scalar(),
        layout,
        handover);
  }

  private OnlineTrainer(
      TrainerConfig config,
      int d,
      boolean multiclass,
      int classes,
      KernelProvider kernels,
      StateLayout layout,
      KernelHandover handover) {
    if (multiclass && classes < 2) {
      throw new IllegalArgumentException(
          "multiclass training needs at least 2 classes, got " + classes);
    }
    this.config = config;
    this.d = d;
    this.multiclass = multiclass;
    this.k = multiclass ? classes : 1;
    this.opt = new LinearModelOptimizer[k];
    try {
      for (int c = 0; c < k; c++) {
        // Sparse rows touch coordinates at random: one cache line per coordinate (interleaved)
        // instead of one per state variable; dense rows stream planar buffers through SIMD.
        // Optimizers that will be handed over own their arena, so that their state is freed then.
        opt[c] =
            config
                .algorithm()
                .create(d, config.precision(), layout, handover == null ? arena : null, kernels);
        if (opt[c] instanceof AbstractOptimizer a) {
          a.setInputPolicy(config.inputPolicy());
        }
      }
    } catch (RuntimeException e) {
      closeOptimizers();
      arena.close();
      throw e;
    }
    this.shuffler = new Random(config.seed());
    this.denseRound =
        config.dense()
            ? new DenseRound(arena, d, config.type(), opt, config.loss(), multiclass)
            : null;
    this.blocks =
        new BlockLoop(
            k,
            multiclass,
            config.epochs(),
            (ep, p, c) -> new TrainingException(ep, positionBase + p + 1, c));
    // The ogd baseline runs no kernels: nothing to hand over.
    this.handover = opt[0] instanceof AbstractOptimizer ? handover : null;
    this.clock =
        new FitClock(
            this.handover, () -> this.handover.moveAll(opt, config, d, layout, arena), config, d);
  }

  /**
   * Trains on {@code train} for the configured epochs and evaluates the final model on {@code test}
   * (may be null). The dimension is the larger of the two files'; the classes are those of the
   * training file (and of the test file, if it has more).
   *
   * @param progress where the progress line goes, or {@code null} for none
   */
  public static TrainResult train(
      TrainerConfig config, SparseDataset train, SparseDataset test, PrintStream progress) {
    return train(config, train, test, progress, null);
  }

  /** Same, with a receiver of every training example's progressive scores ({@code null}: none). */
  public static TrainResult train(
      TrainerConfig config,
      SparseDataset train,
      SparseDataset test,
      PrintStream progress,
      ProgressiveSink sink) {
    return TrainRun.run(config, train, test, progress, sink);
  }

  /** When the steady-state span of the last {@link #fit} started ({@link System#nanoTime}). */
  long steadyStartNanos() {
    return clock.steadyStartNanos();
  }

  /**
   * Sets (or with {@code null} removes) the receiver of every example's progressive scores in the
   * following {@link #fit} calls; without one the loop pays one null test per example.
   */
  public void setProgressiveSink(ProgressiveSink sink) {
    this.progressiveSink = sink;
  }

  /**
   * After how many examples the optimizers were handed over from the scalar to the vector kernels
   * ({@link KernelHandover}), or -1 if they were not (yet).
   */
  public long handoverAt() {
    return clock.handoverAt();
  }

  /**
   * The kernels the optimizers run on now: {@code vector} or {@code scalar} (before a handover, or
   * for good when the vector kernels did not win in time), or {@code none} for the {@code ogd}
   * baseline.
   */
  public String kernels() {
    return opt[0] instanceof AbstractOptimizer a ? a.kernels().name() : "none";
  }

  /** Number of outputs {@code K}. */
  public int outputs() {
    return k;
  }

  /** The optimizers, one per output (for experiments that inspect state). */
  public LinearModelOptimizer optimizer(int output) {
    return opt[output];
  }

  /**
   * Runs the configured epochs over {@code data} and returns the progressive metrics of each.
   *
   * @param progress progress line target or {@code null}
   * @param every call {@code checkpoint} after every {@code every} examples (0: never)
   * @param checkpoint may be null
   * @throws TrainingException when an update is refused (e.g. a non-finite gradient)
   */
  public Metrics[] fit(SparseDataset data, PrintStream progress, int every, Checkpoint checkpoint) {
    return fit(TrainingData.of(data), progress, every, checkpoint);
  }

  /**
   * Same as {@link #fit(SparseDataset, PrintStream, int, Checkpoint)} on prepared data, which is
   * reused between calls (its visiting order carries over); allocates O(1) besides the checkpoint
   * and progress output.
   */
  public Metrics[] fit(
      TrainingData prepared, PrintStream progress, int every, Checkpoint checkpoint) {
    SparseDataset data = prepared.source;
    if (data.dimension() > d) {
      throw new IllegalArgumentException(
          "the data has " + data.dimension() + " features but the model " + d);
    }
    Metrics.checkLabels(data, multiclass, k, "the training data");
    // Everything the loop touches is fetched or allocated here, once.
    final int n = prepared.size();
    final int[] order = prepared.order;
    final double[] label = prepared.labels;
    final boolean dense = denseRound != null;
    final SparseRows rows = dense ? null : prepared.rows(config.type());
    final Loss loss = config.loss();
    final BlockLoop.Rounds rounds =
        (c, from, to, y, yh, losses) -> opt[c].rounds(rows, order, from, to, y, loss, yh, losses);
    blocks.setSink(progressiveSink);
    final int epochs = config.epochs();
    final ProgressiveSink sink = progressiveSink;
    Metrics[] result = new Metrics[epochs];
    final int checkEvery = checkpoint == null ? 0 : every;
    clock.fitStarts(n, epochs);
    final ProgressLine line = progress == null ? null : new ProgressLine(progress, epochs, n);
    for (int e = 0; e < epochs; e++) {
      if (config.shuffle()) {
        Datasets.shuffle(order, shuffler);
      }
      if (!dense) {
        // Sparse rows: one rounds() call per output and block (BlockLoop), then the block's
        // metrics. A block ends where the clock has an event (a checkpoint, the handover, the
        // steady-state span), so checkpoints see the same state as row by row.
        for (int q0 = 0; q0 < n; ) {
          clock.atRow(e, q0);
          int q1 = clock.blockEnd(e, q0, Math.min(n, q0 + BLOCK), checkEvery);
          blocks.run(label, order, q0, q1, BLOCK, e + 1, rounds);
          if (clock.advance(q1 - q0, checkEvery)) {
            checkpoint.at(clock.seen(), this);
          }
          if (line != null) {
            line.at(e, q1);
          }
          q0 = q1;
        }
        blocks.endEpoch(e);
      }
      for (int q = 0; dense && q < n; q++) {
        clock.atRow(e, q);
        denseRound.row(prepared, order[q], e + 1, q, sink);
        if (clock.advance(1, checkEvery)) {
          checkpoint.at(clock.seen(), this);
        }
        if (line != null && (q & (PROGRESS_CHECK - 1)) == 0) {
          line.at(e, q + 1);
        }
      }
      result[e] = dense ? denseRound.endEpoch(n) : blocks.epoch(e, n);
    }
    if (line != null) {
      line.end();
    }
    return result;
  }

  /**
   * Trains on a stream: one pass per epoch, each over a feed {@code source} opens ({@code
   * config.epochs()} passes), the rows trained block by block in the feed's order, as they arrive;
   * when the configuration shuffles, each pass goes through a {@link ShuffleFeed} of {@link
   * ShuffleFeed#DEFAULT_ROWS} rows drawn by this trainer's seeded generator (a feed that shuffles
   * itself goes with a configuration that does not). Every row is scored before its update
   * (progressive validation) and its scores go to the {@link #setProgressiveSink sink} with its id.
   * Labels must fit the trainer: {@code +1/-1} for a binary one, class numbers {@code 0..K-1} for
   * one of {@code K} outputs; indices below its dimension.
   *
   * <p>Memory is the state, one block and the feed's own; allocates O(1) per block besides the
   * progress output and what the feed and the checkpoint allocate.
   *
   * @param progress progress line target or {@code null}
   * @param every call {@code checkpoint} after every {@code every} examples (0: never)
   * @param checkpoint may be null
   * @return the run's figures, as {@link #train} gives them for a data set (no test metrics); its
   *     steady-state span starts at the first block end at or after half the examples
   * @throws IOException if a feed cannot be opened or read
   * @throws IllegalArgumentException if a row's label or index does not fit the trainer (the
   *     message names the row by its id, 1-based), or {@code source} is null; the blocks before it
   *     are trained
   * @throws TrainingException when an update is refused
   */
  public TrainResult fit(RowSource source, PrintStream progress, int every, Checkpoint checkpoint)
      throws IOException {
    return fit(source, progress, every, checkpoint, true);
  }

  /**
   * Same, and with {@code readOut} false the result carries no model ({@link TrainResult#model()}
   * is null): for a caller that writes no model and scores nothing with it, the read-out of every
   * weight ({@link #model()}, as large as the model and computed from the whole state) is work for
   * nothing; {@link #model()} still reads the model out afterwards, on demand.
   *
   * @throws IOException if a feed cannot be opened or read
   */
  public TrainResult fit(
      RowSource source, PrintStream progress, int every, Checkpoint checkpoint, boolean readOut)
      throws IOException {
    if (source == null) {
      throw new IllegalArgumentException("source must not be null");
    }
    if (streamBlock == null) {
      streamBlock = new RowBlock();
      streamRows = SparseRows.buffer(config.type());
    }
    final int epochs = config.epochs();
    Metrics[] result = new Metrics[epochs];
    clock.streamStarts();
    long seen0 = clock.seen();
    SpanLog log = new SpanLog(0);
    ProgressLine line = progress == null ? null : new ProgressLine(progress, epochs, -1);
    long[] nonzeros = {0};
    long t0 = System.nanoTime();
    for (int e = 0; e < epochs; e++) {
      try (RowFeed feed = shuffled(source.open(e + 1))) {
        result[e] = pass(feed, e, checkpoint == null ? 0 : every, checkpoint, log, line, nonzeros);
      }
    }
    long t1 = System.nanoTime();
    if (line != null) {
      line.end();
    }
    long total = clock.seen() - seen0;
    return new TrainResult(
        readOut ? model() : null,
        Metrics.combine(result),
        result,
        null,
        total,
        nonzeros[0],
        (t1 - t0) / 1e9,
        log.examplesFrom(total / 2, total),
        log.nanosFrom(total / 2, t1) / 1e9,
        handoverAt(),
        kernels());
  }

  /** {@code feed}, through a shuffle buffer when the configuration shuffles. */
  private RowFeed shuffled(RowFeed feed) {
    if (feed == null) {
      throw new IllegalArgumentException("the source opened no feed (null)");
    }
    return config.shuffle() ? new ShuffleFeed(feed, ShuffleFeed.DEFAULT_ROWS, shuffler) : feed;
  }

  /** One pass of a stream run: epoch {@code e} (0-based) over {@code feed}. */
  private Metrics pass(
      RowFeed feed,
      int e,
      int checkEvery,
      Checkpoint checkpoint,
      SpanLog log,
      ProgressLine line,
      long[] nonzeros)
      throws IOException {
    final RowBlock block = streamBlock;
    final SparseRows rows = streamRows;
    final Loss loss = config.loss();
    final BlockLoop.Rounds rounds =
        (c, from, to, y, yh, losses) ->
            opt[c].rounds(rows, identity, from, to, y, loss, yh, losses);
    final boolean dense = denseRound != null;
    final ProgressiveSink sink = progressiveSink;
    blocks.setSink(sink);
    long n = 0;
    while (feed.next(block)) {
      int m = block.size();
      checkBlock(block);
      if (!dense) {
        try {
          rows.refill(block.size(), block.startArray(), block.indexArray(), block.valueArray());
        } catch (IllegalArgumentException ex) {
          throw new IllegalArgumentException(inBlock(block, ex.getMessage()), ex);
        }
      }
      if (identity.length < m) {
        identity = new int[Math.max(m, 2 * identity.length)];
        for (int i = 0; i < identity.length; i++) {
          identity[i] = i;
        }
      }
      positionBase = n;
      for (int q0 = 0; q0 < m; ) {
        clock.atRow(e, q0);
        int q1 = clock.blockEnd(e, q0, Math.min(m, q0 + BLOCK), checkEvery);
        if (dense) {
          int[] starts = block.startArray();
          for (int q = q0; q < q1; q++) {
            denseRound.row(
                block.indexArray(),
                block.valueArray(),
                starts[q],
                starts[q + 1] - starts[q],
                block.labelArray()[q],
                block.idArray()[q],
                e + 1,
                n + q,
                sink);
          }
        } else {
          blocks.run(block.labelArray(), identity, q0, q1, BLOCK, e + 1, rounds, block.idArray());
        }
        if (clock.advance(q1 - q0, checkEvery)) {
          checkpoint.at(clock.seen(), this);
        }
        q0 = q1;
      }
      n += m;
      nonzeros[0] += block.entries();
      log.at(clock.seen());
      clock.streamRead((e + progressOf(feed)) / config.epochs());
      if (line != null) {
        line.at(e, n, clock.seen());
      }
    }
    positionBase = 0;
    if (dense) {
      return denseRound.endEpoch(n);
    }
    blocks.endEpoch(e);
    return blocks.epoch(e, n);
  }

  private static double progressOf(RowFeed feed) {
    double p = feed.progress();
    return p >= 0 && p <= 1 ? p : Double.NaN;
  }

  /**
   * Refuses a block whose labels do not fit this trainer or whose indices reach past its dimension,
   * naming the first such row by its id (1-based).
   */
  private void checkBlock(RowBlock block) {
    double[] y = block.labelArray();
    int[] idx = block.indexArray();
    int[] starts = block.startArray();
    for (int r = 0; r < block.size(); r++) {
      double label = y[r];
      boolean fits =
          multiclass
              ? label >= 0 && label < k && label == Math.rint(label)
              : label == 1.0 || label == -1.0;
      if (!fits) {
        throw new IllegalArgumentException(
            "row "
                + (block.id(r) + 1)
                + " has label "
                + label
                + (multiclass
                    ? " but the model knows only classes 0.." + (k - 1)
                    : " but the model is binary (+1/-1)"));
      }
      if (starts[r + 1] > starts[r] && idx[starts[r + 1] - 1] >= d) {
        throw new IllegalArgumentException(
            "row "
                + (block.id(r) + 1)
                + " has feature index "
                + idx[starts[r + 1] - 1]
                + " but the model has dimension "
                + d);
      }
    }
  }

  /** A message of {@link SparseRows#refill} about the block's row {@code r}, naming it by id. */
  private static String inBlock(RowBlock block, String message) {
    if (message.startsWith("row ")) {
      int end = message.indexOf(',');
      try {
        int r = Integer.parseInt(message.substring(4, end));
        return "row " + (block.id(r) + 1) + message.substring(end);
      } catch (RuntimeException notARow) {
        return message;
      }
    }
    return message;
  }

  /**
   * The current weights of every output (read-out per ALGORITHMS.md; does not change the state).
   */
  public LinearModel model() {
    return LinearModel.readOut(config, multiclass, opt);
  }

  private void closeOptimizers() {
    for (LinearModelOptimizer x : opt) {
      if (x != null) {
        x.close();
      }
    }
  }

  /** Frees the optimizers' state (and stops a running warm-up race). */
  @Override
  public void close() {
    if (handover != null) {
      handover.stop();
    }
    closeOptimizers();
    if (arena.scope().isAlive()) {
      arena.close();
    }
  }

  /** An optimizer refused an update; the message says where (epoch, example) and why. */
  public static final class TrainingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TrainingException(int epoch, long example, RuntimeException cause) {
      super(
          "training stopped at epoch " + epoch + ", example " + example + ": " + cause.getMessage(),
          cause);
    }
  }
}
