package org.onlinekernels.trainer;

/**
 * What a training run produced.
 *
 * @param model        final weights
 * @param progressive  progressive validation over all epochs: every example's loss and error
 *                     taken with the weights before the update on it
 * @param epochs       progressive validation per epoch
 * @param test         the final model on the test set, or {@code null} without one
 * @param examples     examples trained on (rows x epochs)
 * @param nonzeros     stored entries read in training (nnz x epochs)
 * @param seconds      wall time of the training passes (packing, predict, loss, update; not
 *                     reading the file, not the test evaluation)
 */
public record TrainResult(LinearModel model, Metrics progressive, Metrics[] epochs, Metrics test, long examples,
    long nonzeros, double seconds) {
  /** Training examples per second of wall time. */
  public double examplesPerSecond() {
    return examples / seconds;
  }

  /** Stored input entries per second of wall time. */
  public double nonzerosPerSecond() {
    return nonzeros / seconds;
  }
}
