package org.onlinekernels.cli;

import java.util.Objects;
import java.util.function.Supplier;
import org.onlinekernels.data.SparseDataset;

/**
 * One online pass with progressive validation: each example is first predicted and scored, and
 * only then used for training. The mean of these scores estimates the loss on unseen data without
 * a held-out set (Blum, Kalai and Langford 1999), and for online learning it is the quantity the
 * regret bounds talk about.
 */
public final class ProgressiveValidation {
  private ProgressiveValidation() {}

  /**
   * What one pass of one learner produced.
   *
   * @param name      learner name as shown in the table
   * @param params    parameter summary as shown in the table
   * @param examples  number of examples seen
   * @param meanLoss  mean progressive loss ({@code NaN} when there were no examples)
   * @param errorRate fraction of examples whose prediction had the wrong sign; a tie
   *                  ({@code yhat = 0}) counts as half an error, like a fair coin, and a NaN
   *                  prediction as a whole one
   * @param seconds   wall time of the pass (predict, loss, update)
   */
  public record Result(String name, String params, long examples, double meanLoss, double errorRate,
      double seconds) {
    /** Examples per second of wall time (infinite when the pass took no measurable time). */
    public double examplesPerSecond() {
      return examples / seconds;
    }
  }

  /**
   * Binary targets for {@code data}: its labels when binary, else one-vs-rest
   * ({@code +1} for {@code positiveClass}, {@code -1} for every other class).
   */
  public static double[] binaryTargets(SparseDataset data, int positiveClass) {
    double[] y = new double[data.size()];
    for (int r = 0; r < y.length; r++) {
      double label = data.label(r);
      y[r] = data.isBinary() ? label : (label == positiveClass ? 1.0 : -1.0);
    }
    return y;
  }

  /**
   * Trains a fresh learner from {@code factory} on {@code data} in row order, one pass.
   *
   * @param targets one {@code +1/-1} target per row (see {@link #binaryTargets})
   */
  public static Result run(String name, String params, Supplier<? extends OnlineLearner> factory,
      SparseDataset data, double[] targets, ScalarLoss loss) {
    Objects.requireNonNull(factory, "factory");
    Objects.requireNonNull(loss, "loss");
    if (targets.length != data.size()) {
      throw new IllegalArgumentException(
          "targets has " + targets.length + " entries but the data set has " + data.size() + " rows");
    }
    // Fetched once: the accessors copy, and the learner needs rows starting at position 0.
    int[] indices = data.indices();
    double[] values = data.values();
    int maxRow = 0;
    for (int r = 0; r < data.size(); r++) {
      maxRow = Math.max(maxRow, data.nnz(r));
    }
    int[] idx = new int[maxRow];
    double[] val = new double[maxRow];

    OnlineLearner learner = factory.get();
    double lossSum = 0;
    double errors = 0;
    long t0 = System.nanoTime();
    for (int r = 0; r < data.size(); r++) {
      int s = data.rowStart(r);
      int nnz = data.rowEnd(r) - s;
      System.arraycopy(indices, s, idx, 0, nnz);
      System.arraycopy(values, s, val, 0, nnz);
      double y = targets[r];
      double yhat = learner.predict(idx, val, nnz);
      lossSum += loss.value(y, yhat);
      double margin = y * yhat;
      if (margin == 0) {
        errors += 0.5;
      } else if (!(margin > 0)) {
        errors += 1;
      }
      learner.update(loss.derivative(y, yhat));
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    int n = data.size();
    return new Result(name, params, n, n == 0 ? Double.NaN : lossSum / n, n == 0 ? Double.NaN : errors / n,
        seconds);
  }
}
