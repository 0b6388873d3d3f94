package org.onlinekernels.cli;

/**
 * The least the demo needs of an online linear learner: predict on a sparse row, then take the
 * derivative of the loss at that prediction. It mirrors the reference models' {@code predictSparse}
 * and {@code update(double g)} so that an adapter is a one-liner, while keeping this package
 * compilable and testable without them.
 *
 * <p>Contract: calls alternate {@code predict, update, predict, update, ...}; {@code update(g)}
 * applies the gradient {@code g * x} of the example last passed to {@code predict}.
 */
public interface OnlineLearner {
  /**
   * The prediction {@code <w, x>} for the row given by the first {@code nnz} entries of
   * {@code idx} (0-based, strictly increasing) and {@code val}. The arrays are only valid for
   * the duration of this call and the next {@code update}.
   */
  double predict(int[] idx, double[] val, int nnz);

  /** Learns from the last predicted row, with {@code g} = d loss / d prediction there. */
  void update(double g);
}
