package org.onlinekernels.trainer.parallel;

import org.onlinekernels.optimizer.RefusedRoundException;
import org.onlinekernels.trainer.Metrics;

/**
 * One worker's online loop over blocks of rows, as {@code OnlineTrainer} runs sparse rows: per
 * block and output one {@code rounds} call (the output's labels, one-vs-rest for multiclass), then
 * the block's progressive loss and error added to the worker's running sums in the sequential
 * trainer's order, so that one worker reproduces its metrics bit for bit. Allocates nothing per
 * block.
 */
final class BlockLoop {
  /** Rows per {@code rounds} call, as the sequential trainer's blocks. */
  static final int BLOCK = 256;

  /** Runs rounds of output {@code output} on positions {@code [from, to)} of the order. */
  @FunctionalInterface
  interface Rounds {
    void run(int output, int from, int to, double[] y, double[] yhat, double[] losses);
  }

  private final int k;
  private final boolean multiclass;
  private final double[] labels;
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

  BlockLoop(int outputs, boolean multiclass, double[] labels, int epochs) {
    this.epochLoss = new double[epochs];
    this.epochErr = new double[epochs];
    this.k = outputs;
    this.multiclass = multiclass;
    this.labels = labels;
    this.yhat = new double[outputs][BLOCK];
    this.losses = new double[outputs][BLOCK];
    this.scores = new double[outputs];
  }

  /** Ends epoch {@code e} (0-based): its sums are kept, the next epoch's start at 0. */
  void endEpoch(int e) {
    epochLoss[e] = lossSum;
    epochErr[e] = errSum;
    lossSum = 0;
    errSum = 0;
  }

  /**
   * The progressive metrics of each epoch of {@code n} rows, the loops' sums added in their order
   * (one loop: its sums as they are, as the sequential trainer's).
   */
  static Metrics[] metrics(BlockLoop[] loops, int n) {
    Metrics[] m = new Metrics[loops[0].epochLoss.length];
    for (int e = 0; e < m.length; e++) {
      double loss = 0;
      double err = 0;
      for (BlockLoop l : loops) {
        loss += l.epochLoss[e];
        err += l.epochErr[e];
      }
      m[e] = new Metrics(n, n == 0 ? Double.NaN : loss / n, n == 0 ? Double.NaN : err / n);
    }
    return m;
  }

  /**
   * Runs the blocks that start at positions {@code first, first + step, ...} below {@code end},
   * each of at most {@link #BLOCK} rows and none past {@code end}.
   *
   * @param epoch 1-based, for the message of a refused round
   * @throws IllegalArgumentException for a refused round, naming the epoch and the example
   */
  void run(int[] order, int first, int end, int step, int epoch, Rounds rounds) {
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
          throw refused(epoch, e.position(), e);
        } catch (IllegalArgumentException | IllegalStateException e) {
          throw refused(epoch, q0, e);
        }
      }
      for (int q = q0; q < q1; q++) {
        double rowLoss = 0;
        for (int c = 0; c < k; c++) {
          scores[c] = yhat[c][q - q0];
          rowLoss += losses[c][q - q0];
        }
        lossSum += multiclass ? rowLoss : losses[0][q - q0];
        errSum += Metrics.error(multiclass, labels[order[q]], scores, k);
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
