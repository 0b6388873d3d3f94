package org.onlinekernels.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Locale;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * Scores a stream of (label, scores) pairs by the command line's rules: the error under the chosen
 * {@link Ties} rule and, for multiclass, the K-way softmax log loss; optionally writes every
 * example's scores to a file (the progressive predictions of {@code --progressive-out}). Fed by the
 * trainer's progressive hook and by test or predict evaluation.
 */
final class Scoring implements OnlineTrainer.ProgressiveSink {
  /** What a tie ({@code yhat = 0}, or several classes sharing the largest score) counts as. */
  enum Ties {
    /** Half an error: a fair coin (the library's {@link Metrics} rule). */
    HALF,
    /** A whole error: the rule of most tools, which count only a strictly correct sign. */
    ERROR;

    static Ties parse(String v) throws UsageException {
      if (v == null || v.equals("half")) {
        return HALF;
      }
      if (v.equals("error")) {
        return ERROR;
      }
      throw new UsageException(
          "--ties must be half or error, got '"
              + v
              + "'"
              + DidYouMean.hint(v, java.util.List.of("half", "error")));
    }
  }

  private final Ties ties;
  private final boolean multiclass;
  private final Writer out;
  private final StringBuilder line = new StringBuilder();
  private long n;
  private double errors;
  private double softmaxLoss;

  /**
   * @param out where each example's line goes ({@code EPOCH ROW LABEL SCORES}), or {@code null}
   */
  Scoring(Ties ties, boolean multiclass, Writer out) {
    this.ties = ties;
    this.multiclass = multiclass;
    this.out = out;
  }

  @Override
  public void accept(int epoch, long row, double label, double[] yhat, int k) {
    n++;
    errors += error(label, yhat, k);
    if (multiclass) {
      softmaxLoss += softmaxLogLoss((int) label, yhat, k);
    }
    if (out != null) {
      line.setLength(0);
      line.append(epoch)
          .append(' ')
          .append(row + 1)
          .append(' ')
          .append(label == Math.rint(label) ? Long.toString((long) label) : Double.toString(label));
      if (multiclass) {
        line.append(' ').append(Metrics.argmax(yhat, k));
      }
      for (int c = 0; c < k; c++) {
        line.append(' ').append(yhat[c]);
      }
      try {
        out.write(line.append('\n').toString());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The error of one example under the tie rule. */
  double error(double label, double[] yhat, int k) {
    double tie = ties == Ties.HALF ? 0.5 : 1.0;
    if (!multiclass) {
      double m = label * yhat[0];
      return m > 0 ? 0 : m == 0 ? tie : 1;
    }
    int best = Metrics.argmax(yhat, k);
    if (best != (int) label) {
      return 1;
    }
    if (ties == Ties.ERROR) {
      for (int c = 0; c < k; c++) {
        if (c != best && yhat[c] == yhat[best]) {
          return 1;
        }
      }
    }
    return 0;
  }

  /** {@code -ln softmax(yhat)_label = logsumexp(yhat) - yhat_label}, computed without overflow. */
  static double softmaxLogLoss(int label, double[] yhat, int k) {
    double max = Double.NEGATIVE_INFINITY;
    for (int c = 0; c < k; c++) {
      max = Math.max(max, yhat[c]);
    }
    if (Double.isInfinite(max)) {
      return Double.NaN;
    }
    double sum = 0;
    for (int c = 0; c < k; c++) {
      sum += Math.exp(yhat[c] - max);
    }
    return max + Math.log(sum) - yhat[label];
  }

  /** {@code model} scored on {@code data} under the tie rule (no output file). */
  static Scoring of(LinearModel model, SparseDataset data, Ties ties) {
    Scoring s = new Scoring(ties, model.multiclass(), null);
    Metrics.evaluate(
        model, data, (row, yhat) -> s.accept(0, row, data.label(row), yhat, model.outputs()));
    return s;
  }

  /**
   * The name of the reported loss: the loss itself for binary labels; for K classes the one-vs-rest
   * sum, e.g. {@code ovr-logistic-sum}, which is not the K-way log loss.
   */
  static String lossName(Loss loss, boolean multiclass) {
    String l = loss.name().toLowerCase(Locale.ROOT);
    return multiclass ? "ovr-" + l + "-sum" : l;
  }

  /**
   * One report line: loss (by its name), softmax log loss for multiclass, error rate and tie rule.
   */
  static String line(String lossName, Metrics m, double error, Scoring s, Ties ties) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "mean %s loss %.6f", lossName, m.meanLoss()));
    if (lossName.startsWith("ovr-")) {
      b.append(" (one-vs-rest: sum of the K outputs' binary losses)");
    }
    if (s != null && !Double.isNaN(s.meanSoftmaxLoss())) {
      b.append(String.format(Locale.ROOT, ", softmax log loss %.6f", s.meanSoftmaxLoss()));
    }
    b.append(String.format(Locale.ROOT, ", error rate %.4f", error));
    if (ties == Ties.ERROR) {
      b.append(" (ties count as errors)");
    }
    return b.toString();
  }

  /** Examples scored. */
  long examples() {
    return n;
  }

  /** Error rate under the tie rule ({@code NaN} without examples). */
  double errorRate() {
    return n == 0 ? Double.NaN : errors / n;
  }

  /** Mean softmax log loss (multiclass; {@code NaN} without examples or for binary). */
  double meanSoftmaxLoss() {
    return n == 0 || !multiclass ? Double.NaN : softmaxLoss / n;
  }
}
