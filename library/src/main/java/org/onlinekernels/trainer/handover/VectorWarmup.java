package org.onlinekernels.trainer.handover;

import java.util.SplittableRandom;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.TrainingData;

/**
 * The race behind {@link KernelHandover}: on a daemon thread of its own, trains a small private
 * problem of the trainer's configuration (algorithm, precision, loss, sparse or dense, state
 * layout; binary, at most {@value #MAX_DIMENSION} coordinates, {@value #ROWS} synthetic rows) on
 * the scalar and on the vector kernels in turn, one pass each, and decides by the ratio of each
 * pair's times ({@link RaceVerdict}: the vector kernels win when the median of the last pairs is at
 * most 0.9; a tie is no win a second after the median first came within 10 % of 1). The race ends
 * without a winner on a tie, after {@value #MAX_PAIRS} pairs, or after {@value #GIVE_UP_SECONDS} s;
 * the trainer then stays on the scalar kernels. A race costs its thread little CPU: a win is over
 * in a few dozen short passes once the vector kernels are compiled, a tie in about a second. Both
 * sides run the same rows on the same thread, so load on the machine hits them alike; the JIT
 * compiles the kernels for the real trainer as a side effect (compiled code is shared by all
 * threads). It stops as soon as its trainer is closed, and never touches the trainer's state.
 */
final class VectorWarmup implements Runnable {
  static final int ROWS = 256;
  static final int MAX_DIMENSION = 1024;
  // Sparse rounds' lanes were still uncompiled after 64 pairs (over 1 s) with a trainer busy
  // beside the race on 2 cores, and a tie must hold for a second of short pairs (RaceVerdict):
  // the deadline, not this count, ends a slow race.
  static final int MAX_PAIRS = 1 << 16;
  static final int GIVE_UP_SECONDS = 30;
  private static final int MAX_NNZ = 16;

  private final TrainerConfig config;
  private final int d;
  private final KernelProvider vector;
  private final Thread thread;
  private volatile boolean won;
  private volatile boolean tied;
  private volatile boolean stopped;

  private VectorWarmup(TrainerConfig config, int d, KernelProvider vector) {
    this.config = config.withEpochs(1).withShuffle(false, 1);
    this.d = Math.min(d, MAX_DIMENSION);
    this.vector = vector;
    this.thread = Thread.ofPlatform().daemon().name("online-kernels-warmup").unstarted(this);
  }

  /** Starts the race for a trainer of {@code config} and dimension {@code d}. */
  static VectorWarmup start(TrainerConfig config, int d, KernelProvider vector) {
    VectorWarmup w = unstarted(config, d, vector);
    w.begin();
    return w;
  }

  /** The race for a trainer of {@code config} and dimension {@code d}, not started yet. */
  static VectorWarmup unstarted(TrainerConfig config, int d, KernelProvider vector) {
    return new VectorWarmup(config, d, vector);
  }

  /** Starts a race made by {@link #unstarted}. */
  void begin() {
    thread.start();
  }

  /** Whether the vector kernels have won. */
  boolean won() {
    return won;
  }

  /** Whether the race ended in a tie (neither side clearly faster). */
  boolean tied() {
    return tied;
  }

  /** Whether the race is over (won, tied, given up, failed or stopped). */
  boolean over() {
    return !thread.isAlive();
  }

  /** Asks the race to stop after its current round (does not wait). */
  void stop() {
    stopped = true;
  }

  @Override
  public void run() {
    TrainingData rows = TrainingData.of(rows(d));
    try (OnlineTrainer scalar =
            new OnlineTrainer(config, d, false, 1, KernelProvider.scalar(), config.stateLayout());
        OnlineTrainer vec = new OnlineTrainer(config, d, false, 1, vector, config.stateLayout())) {
      long deadline = System.nanoTime() + GIVE_UP_SECONDS * 1_000_000_000L;
      RaceVerdict verdict = new RaceVerdict();
      for (int pair = 0; !stopped && pair < MAX_PAIRS && System.nanoTime() < deadline; pair++) {
        long s = timePass(scalar, rows);
        long v = timePass(vec, rows);
        switch (verdict.add(s, v, System.nanoTime())) {
          case WON -> {
            won = true;
            return;
          }
          case TIED -> {
            tied = true;
            return;
          }
          case OPEN -> {}
        }
      }
    } catch (RuntimeException e) {
      // The race is an optimisation: if it fails, the trainer stays on the scalar kernels.
    }
  }

  /** One pass over the rows, as the trainer runs it. */
  private static long timePass(OnlineTrainer t, TrainingData rows) {
    long t0 = System.nanoTime();
    t.fit(rows, null, 0, null);
    return System.nanoTime() - t0;
  }

  /**
   * {@value #ROWS} rows of up to {@value #MAX_NNZ} consecutive coordinates, values in [-1, 1),
   * labels +1/-1.
   */
  private static SparseDataset rows(int d) {
    SplittableRandom rnd = new SplittableRandom(1);
    int nnz = Math.min(d, MAX_NNZ);
    int[] idx = new int[nnz];
    double[] val = new double[nnz];
    SparseDataset.Builder b = new SparseDataset.Builder().minDimension(d);
    for (int r = 0; r < ROWS; r++) {
      int from = rnd.nextInt(d - nnz + 1);
      for (int j = 0; j < nnz; j++) {
        idx[j] = from + j;
        val[j] = rnd.nextDouble() * 2 - 1;
      }
      b.addRow(rnd.nextBoolean() ? 1 : -1, idx, val);
    }
    return b.build();
  }
}
