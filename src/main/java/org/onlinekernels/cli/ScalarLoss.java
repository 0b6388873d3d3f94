package org.onlinekernels.cli;

/**
 * A loss of a real prediction against a {@code +1/-1} label, with its derivative in the
 * prediction. Defined here rather than taken from {@code org.onlinekernels.loss.Loss} so that the
 * demo's loop does not wait for that package; {@code Loss.LOGISTIC::value} and
 * {@code ::derivative} fit it directly once it exists.
 */
public interface ScalarLoss {
  /** The loss {@code l(y, yhat)}. */
  double value(double y, double yhat);

  /** {@code d l(y, yhat) / d yhat}. */
  double derivative(double y, double yhat);

  /**
   * Logistic loss {@code ln(1 + exp(-y yhat))}, evaluated so that it neither overflows for large
   * negative margins nor loses its tail to rounding for large positive ones.
   */
  ScalarLoss LOGISTIC = new ScalarLoss() {
    @Override
    public double value(double y, double yhat) {
      double z = y * yhat;
      return z > 0 ? Math.log1p(Math.exp(-z)) : -z + Math.log1p(Math.exp(z));
    }

    @Override
    public double derivative(double y, double yhat) {
      return -y / (1.0 + Math.exp(y * yhat));
    }

    @Override
    public String toString() {
      return "logistic";
    }
  };
}
