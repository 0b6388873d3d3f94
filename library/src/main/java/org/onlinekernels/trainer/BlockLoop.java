package org.onlinekernels.trainer;

import org.onlinekernels.optimizer.RefusedRoundException;

/**
 * The online loop over blocks of sparse rows that every trainer runs ({@link OnlineTrainer} and
 * each worker of the trainers in {@code trainer.parallel}): per block and output one {@code rounds}
 * call (the output's labels, one-vs-rest for multiclass), then the block's progressive loss and
 * error added to the running sums row by row, so that one worker reproduces the sequential
 * trainer's metrics bit for bit. Allocates nothing per block. Not for users: the trainers' shared
 * part, public only because the parallel trainers live in a package of their own.
 */
public final class BlockLoop {
  /**
   * Rows per {@code rounds} call: long enough that the per-call checks vanish against the rows (a
   * few ns per row at 256), short enough that the block's labels and scores stay in L1.
   */
  public static final int BLOCK = 256;

  /** Runs rounds of output {@code output} on positions {@code [from, to)} of the order. */
  @FunctionalInterface
  public interface Rounds {
    /** Output {@code output}'s rounds on {@code y}, writing their scores and losses. */
    void run(int output, int from, int to, double[] y, double[] yhat, double[] losses);
  }

  /** The exception for a round refused in a (1-based) epoch at a (0-based) position. */
  @FunctionalInterface
  public interface Refusal {
    /** The exception to throw, with {@code cause} the optimizer's refusal. */
    RuntimeException at(int epoch, int position, RuntimeException cause);
  }

  /** The parallel trainers' refusal: the position in the epoch's order of all rows. */
  public static final Refusal IN_ORDER = BlockLoop::refused;

  private final int k;
  private final boolean multiclass;
  private final double[] y = new double[BLOCK];
  private final double[][] yhat;
  private final double[][] losses;
  private final double[] scores;

  /** Progressive loss and error sums of the rows run since the last epoch ended. */
  private double lossSum;

  private double errSum;

  /** The sums of each ended epoch. */
  private final double[] epochLoss;

  private final double[] epochErr;

  private final Refusal refusal;

  /** The receiver of every row's scores, or null. */
  private OnlineTrainer.ProgressiveSink sink;

  /**
   * A loop for {@code outputs} outputs keeping the sums of {@code epochs} epochs; a refused round
   * throws what {@code refusal} makes.
   */
  public BlockLoop(int outputs, boolean multiclass, int epochs, Refusal refusal) {
    this.refusal = refusal;
    this.epochLoss = new double[epochs];
    this.epochErr = new double[epochs];
    this.k = outputs;
    this.multiclass = multiclass;
    this.yhat = new double[outputs][BLOCK];
    this.losses = new double[outputs][BLOCK];
    this.scores = new double[outputs];
  }

  /** Sets (null: removes) the receiver of every row's progressive scores. */
  public void setSink(OnlineTrainer.ProgressiveSink sink) {
    this.sink = sink;
  }

  /** Ends epoch {@code e} (0-based): its sums are kept, the next epoch's start at 0. */
  public void endEpoch(int e) {
    epochLoss[e] = lossSum;
    epochErr[e] = errSum;
    lossSum = 0;
    errSum = 0;
  }

  /** The progressive metrics of ended epoch {@code e} of {@code n} rows, this loop's alone. */
  public Metrics epoch(int e, long n) {
    return metrics(epochLoss[e], epochErr[e], n);
  }

  private static Metrics metrics(double loss, double err, long n) {
    return new Metrics(n, n == 0 ? Double.NaN : loss / n, n == 0 ? Double.NaN : err / n);
  }

  /**
   * The progressive metrics of each epoch of {@code n} rows, the loops' sums added in their order
   * (one loop: its sums as they are, as the sequential trainer's).
   */
  public static Metrics[] metrics(BlockLoop[] loops, int n) {
    Metrics[] m = new Metrics[loops[0].epochLoss.length];
    for (int e = 0; e < m.length; e++) {
      double loss = 0;
      double err = 0;
      for (BlockLoop l : loops) {
        loss += l.epochLoss[e];
        err += l.epochErr[e];
      }
      m[e] = metrics(loss, err, n);
    }
    return m;
  }

  /**
   * Runs the blocks, on rows labelled {@code labels} (by row number), that start at positions
   * {@code first, first + step, ...} below {@code end}, each of at most {@link #BLOCK} rows and
   * none past {@code end}.
   *
   * @param epoch 1-based, for a refused round's exception and the sink
   */
  public void run(
      double[] labels, int[] order, int first, int end, int step, int epoch, Rounds rounds) {
    run(labels, order, first, end, step, epoch, rounds, null);
  }

  /**
   * {@link #run(double[], int[], int, int, int, int, Rounds)}, the sink given row {@code r}'s id
   * {@code ids[r]} instead of {@code r} (a block of a stream names its rows by their place in the
   * stream); {@code ids} null: {@code r}.
   */
  public void run(
      double[] labels,
      int[] order,
      int first,
      int end,
      int step,
      int epoch,
      Rounds rounds,
      long[] ids) {
    for (int q0 = first; q0 < end; q0 += step) {
      int q1 = Math.min(end, q0 + BLOCK);
      for (int c = 0; c < k; c++) {
        for (int q = q0; q < q1; q++) {
          double label = labels[order[q]];
          y[q - q0] = multiclass ? (c == label ? 1.0 : -1.0) : label;
        }
        try {
          rounds.run(c, q0, q1, y, yhat[c], losses[c]);
        } catch (RefusedRoundException e) {
          throw refusal.at(epoch, e.position(), e);
        } catch (IllegalArgumentException | IllegalStateException | ArithmeticException e) {
          // An ArithmeticException is a rule's own arithmetic refusing the data (an overflow),
          // with the state unchanged: the user's to act on, like a refused input.
          throw refusal.at(epoch, q0, e);
        }
      }
      for (int q = q0; q < q1; q++) {
        double rowLoss = 0;
        for (int c = 0; c < k; c++) {
          scores[c] = yhat[c][q - q0];
          rowLoss += losses[c][q - q0];
        }
        int r = order[q];
        lossSum += multiclass ? rowLoss : losses[0][q - q0];
        errSum += Metrics.error(multiclass, labels[r], scores, k);
        if (sink != null) {
          sink.accept(epoch, ids == null ? r : ids[r], labels[r], scores, k);
        }
      }
    }
  }

  private static IllegalArgumentException refused(int epoch, int position, RuntimeException cause) {
    return new IllegalArgumentException(
        "training stopped at epoch "
            + epoch
            + ", example "
            + (position + 1)
            + " of the epoch's order: "
            + cause.getMessage(),
        cause);
  }
}
