package org.onlinekernels.params;

/**
 * Parameters of per-coordinate FTRL-Proximal (McMahan et al. 2013, Algorithm 1; docs/ALGORITHMS.md
 * section 13.1). The per-coordinate rate is {@code alpha / (beta + sqrt(sum of g^2))}; {@code
 * lambda1} puts exact zeros into the weights (a coordinate whose {@code |z|} stays within it),
 * {@code lambda2} shrinks them.
 *
 * @param alpha the rate's scale, finite and {@code > 0} (default 0.5; data-dependent, worth tuning)
 * @param beta added to the rate's denominator, finite and {@code >= 0} (default 1)
 * @param lambda1 L1 strength, finite and {@code >= 0} (default 0)
 * @param lambda2 L2 strength, finite and {@code >= 0} (default 0)
 */
public record FtrlParams(double alpha, double beta, double lambda1, double lambda2) {
  public FtrlParams {
    Checks.positiveFinite("alpha", alpha);
    Checks.nonNegativeFinite("beta", beta);
    Checks.nonNegativeFinite("lambda1", lambda1);
    Checks.nonNegativeFinite("lambda2", lambda2);
  }

  /**
   * {@code alpha = 0.5, beta = 1, lambda1 = lambda2 = 0}: Vowpal Wabbit's {@code --ftrl} defaults.
   */
  public static FtrlParams defaults() {
    return new FtrlParams(0.5, 1, 0, 0);
  }
}
