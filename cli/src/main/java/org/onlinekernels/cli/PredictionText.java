package org.onlinekernels.cli;

import org.onlinekernels.trainer.Metrics;

/**
 * One prediction as text, as {@code predict --out} and {@code serve} write it: the score {@code <w,
 * x>} for a binary model; for a multiclass model the predicted class, then the K scores,
 * space-separated.
 */
final class PredictionText {
  private PredictionText() {}

  /** Appends the prediction of scores {@code yhat[0..k)} to {@code line}. */
  static StringBuilder append(StringBuilder line, boolean multiclass, double[] yhat, int k) {
    if (multiclass) {
      line.append(Metrics.argmax(yhat, k));
      for (int c = 0; c < k; c++) {
        line.append(' ').append(yhat[c]);
      }
    } else {
      line.append(yhat[0]);
    }
    return line;
  }
}
