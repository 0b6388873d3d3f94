package org.onlinekernels.trainer;

import java.io.IOException;
import org.onlinekernels.data.RowBlock;
import org.onlinekernels.data.RowFeed;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * Mean loss and error rate over {@code n} examples.
 *
 * <p>Binary ({@code K = 1}, labels {@code +1/-1}): loss {@code l(y, yhat)}; an error is a wrong
 * sign of {@code yhat}, and a tie {@code yhat = 0} counts as half an error (a fair coin), a NaN
 * prediction as a whole one. Multiclass one-vs-rest ({@code K} outputs, labels {@code 0..K-1}): the
 * loss is the sum over {@code k} of {@code l(y_k, yhat_k)} with {@code y_k = +1} for the true class
 * and {@code -1} otherwise (the objective one-vs-rest minimises; with {@code K = 1} it is the
 * binary loss), and the prediction is the first {@code k} of largest {@code yhat_k}.
 *
 * @param examples number of examples
 * @param meanLoss mean loss ({@code NaN} without examples)
 * @param errorRate fraction of errors ({@code NaN} without examples)
 */
public record Metrics(long examples, double meanLoss, double errorRate) {
  /** Loss of one example given its label and the {@code K} scores; allocates nothing. */
  public static double loss(Loss loss, boolean multiclass, double label, double[] yhat, int k) {
    if (!multiclass) {
      return loss.value(label, yhat[0]);
    }
    double s = 0;
    for (int c = 0; c < k; c++) {
      s += loss.value(c == label ? 1.0 : -1.0, yhat[c]);
    }
    return s;
  }

  /** Error (0, 0.5 or 1) of one example; allocates nothing. */
  public static double error(boolean multiclass, double label, double[] yhat, int k) {
    if (!multiclass) {
      double m = label * yhat[0];
      return m > 0 ? 0 : m == 0 ? 0.5 : 1;
    }
    return argmax(yhat, k) == label ? 0 : 1;
  }

  /** First index of the largest of {@code yhat[0..k)} (NaN never wins). */
  public static int argmax(double[] yhat, int k) {
    int best = 0;
    for (int c = 1; c < k; c++) {
      if (yhat[c] > yhat[best] || Double.isNaN(yhat[best])) {
        best = c;
      }
    }
    return best;
  }

  /**
   * Checks that {@code data}'s labels fit a model with {@code k} outputs, {@code multiclass} or
   * not, and throws {@link IllegalArgumentException} with a one-line reason when not.
   */
  public static void checkLabels(SparseDataset data, boolean multiclass, int k, String what) {
    if (data.size() == 0) {
      return;
    }
    if (!multiclass && !data.isBinary()) {
      throw new IllegalArgumentException(
          what
              + " has class labels 0.."
              + (data.numClasses() - 1)
              + " but the model is binary (+1/-1)");
    }
    if (multiclass && data.isBinary()) {
      throw new IllegalArgumentException(
          what + " has +1/-1 labels but the model has " + k + " classes");
    }
    if (multiclass && data.numClasses() > k) {
      throw new IllegalArgumentException(
          what
              + " has class "
              + (data.numClasses() - 1)
              + " but the model knows only classes 0.."
              + (k - 1));
    }
  }

  /** Evaluates a fixed model on {@code data} (no learning), e.g. a test set. */
  public static Metrics evaluate(LinearModel model, SparseDataset data) {
    return evaluate(model, data, null);
  }

  /**
   * Evaluates {@code model} on {@code data}; when {@code sink} is not null it receives every row's
   * scores (the array is reused between calls).
   */
  public static Metrics evaluate(LinearModel model, SparseDataset data, ScoreSink sink) {
    checkLabels(data, model.multiclass(), model.outputs(), "the data");
    int[] idx = data.indices();
    double[] val = data.values();
    int k = model.outputs();
    double[] yhat = new double[k];
    double lossSum = 0;
    double scaledSum = 0;
    double errors = 0;
    for (int r = 0; r < data.size(); r++) {
      int s = data.rowStart(r);
      model.scores(idx, val, s, data.rowEnd(r) - s, yhat);
      double y = data.label(r);
      double l = loss(model.loss(), model.multiclass(), y, yhat, k);
      lossSum += l;
      scaledSum += Math.scalb(l, -SCALE);
      errors += error(model.multiclass(), y, yhat, k);
      if (sink != null) {
        sink.accept(r, yhat);
      }
    }
    int n = data.size();
    return new Metrics(
        n, n == 0 ? Double.NaN : mean(lossSum, scaledSum, n), n == 0 ? Double.NaN : errors / n);
  }

  /**
   * Evaluates {@code model} on prepared data (its arrays are not copied again), e.g. a test set
   * scored at many checkpoints.
   */
  public static Metrics evaluate(LinearModel model, TrainingData data) {
    checkLabels(data.source, model.multiclass(), model.outputs(), "the data");
    int k = model.outputs();
    double[] yhat = new double[k];
    double lossSum = 0;
    double scaledSum = 0;
    double errors = 0;
    int n = data.size();
    for (int r = 0; r < n; r++) {
      int s = data.start[r];
      model.scores(data.indices, data.values, s, data.start[r + 1] - s, yhat);
      double l = loss(model.loss(), model.multiclass(), data.labels[r], yhat, k);
      lossSum += l;
      scaledSum += Math.scalb(l, -SCALE);
      errors += error(model.multiclass(), data.labels[r], yhat, k);
    }
    return new Metrics(
        n, n == 0 ? Double.NaN : mean(lossSum, scaledSum, n), n == 0 ? Double.NaN : errors / n);
  }

  /**
   * Scale of the second loss sum, which stays finite where losses near Double.MAX_VALUE (saturated
   * scores) add up.
   */
  private static final int SCALE = 64;

  /**
   * {@code lossSum / n}, or the scaled sum's mean where the plain sum overflowed but no loss was
   * infinite.
   */
  private static double mean(double lossSum, double scaledSum, long n) {
    return Double.isInfinite(lossSum) && Double.isFinite(scaledSum)
        ? Math.scalb(scaledSum / n, SCALE)
        : lossSum / n;
  }

  /**
   * Evaluates {@code model} on the rows of {@code feed} (no learning), e.g. a test file read as a
   * stream: the same loss and error as {@link #evaluate(LinearModel, SparseDataset, ScoreSink)} on
   * those rows, holding one block at a time; {@code sink} (may be null) receives every row's id,
   * label and scores.
   *
   * @throws IllegalArgumentException if a row's label does not fit the model (naming it, 1-based)
   * @throws IOException if the feed cannot be read
   */
  public static Metrics evaluate(LinearModel model, RowFeed feed, RowScoreSink sink)
      throws IOException {
    int k = model.outputs();
    double[] yhat = new double[k];
    double lossSum = 0;
    double scaledSum = 0;
    double errors = 0;
    long n = 0;
    RowBlock b = new RowBlock();
    while (feed.next(b)) {
      int[] start = b.startArray();
      for (int r = 0; r < b.size(); r++) {
        double y = b.label(r);
        boolean fits =
            model.multiclass() ? y >= 0 && y < k && y == Math.rint(y) : y == 1.0 || y == -1.0;
        if (!fits) {
          throw new IllegalArgumentException(
              "row "
                  + (b.id(r) + 1)
                  + " has label "
                  + y
                  + (model.multiclass()
                      ? " but the model knows only classes 0.." + (k - 1)
                      : " but the model is binary (+1/-1)"));
        }
        model.scores(b.indexArray(), b.valueArray(), start[r], start[r + 1] - start[r], yhat);
        double l = loss(model.loss(), model.multiclass(), y, yhat, k);
        lossSum += l;
        scaledSum += Math.scalb(l, -SCALE);
        errors += error(model.multiclass(), y, yhat, k);
        if (sink != null) {
          sink.accept(b.id(r), y, yhat);
        }
      }
      n += b.size();
    }
    return new Metrics(
        n, n == 0 ? Double.NaN : mean(lossSum, scaledSum, n), n == 0 ? Double.NaN : errors / n);
  }

  /** Receives one row's scores during {@link #evaluate(LinearModel, RowFeed, RowScoreSink)}. */
  @FunctionalInterface
  public interface RowScoreSink {
    /** Row {@code id}, label {@code label}: its scores; {@code yhat} only valid during the call. */
    void accept(long id, double label, double[] yhat);
  }

  /** Receives one row's scores during {@link #evaluate(LinearModel, SparseDataset, ScoreSink)}. */
  @FunctionalInterface
  public interface ScoreSink {
    /** Row {@code row}'s {@code K} scores; {@code yhat} is only valid during the call. */
    void accept(int row, double[] yhat);
  }

  /**
   * The metrics of several passes together: examples summed, loss and error weighted by examples.
   */
  public static Metrics combine(Metrics[] passes) {
    long n = 0;
    double loss = 0;
    double err = 0;
    for (Metrics m : passes) {
      n += m.examples();
      loss += m.meanLoss() * m.examples();
      err += m.errorRate() * m.examples();
    }
    return new Metrics(n, loss / n, err / n);
  }
}
