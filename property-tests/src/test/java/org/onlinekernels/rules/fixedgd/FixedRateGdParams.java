package org.onlinekernels.rules.fixedgd;

/**
 * The parameters of {@link FixedRateGd}: the rate.
 *
 * @param eta the rate, positive and finite
 */
public record FixedRateGdParams(double eta) {
  /** Refuses a rate that is not positive and finite. */
  public FixedRateGdParams {
    if (!(eta > 0) || Double.isInfinite(eta)) {
      throw new IllegalArgumentException("eta must be positive and finite, got " + eta);
    }
  }
}
