package org.onlinekernels.params;

/**
 * Parameters of the per-coordinate AdaGrad rule (ALGORITHMS.md section 1): {@code Q_i += g_i^2; w_i
 * = clamp(w_i - eta_i g_i / (delta + sqrt(Q_i)), a_i, b_i)}.
 *
 * @param rate {@code eta} when {@code rateFromWidth} is false, else {@code alpha}
 * @param rateFromWidth when true, {@code eta_i = alpha * D_i} with {@code D_i} the box width
 * @param delta additive constant of the denominator, {@code >= 0}
 * @param q0 initial value of every {@code Q_i}, {@code >= 0}
 * @param box feasible box (must be finite when {@code rateFromWidth})
 */
public record AdaGradParams(double rate, boolean rateFromWidth, double delta, double q0, Box box) {
  public AdaGradParams {
    Checks.positiveFinite(rateFromWidth ? "alpha" : "eta", rate);
    Checks.nonNegativeFinite("delta", delta);
    Checks.nonNegativeFinite("Q0", q0);
    if (box == null) {
      throw new IllegalArgumentException("box must not be null; use Box.none() for no box");
    }
    if (rateFromWidth && !box.isFinite()) {
      throw new IllegalArgumentException(
          "alpha*D_i needs a finite box (D_i = b_i - a_i); give a finite box or a scalar eta instead");
    }
  }

  /** Scalar rate {@code eta}, no box, {@code delta = 0}, {@code Q0 = 0}. */
  public static AdaGradParams eta(double eta) {
    return new AdaGradParams(eta, false, 0, 0, Box.none());
  }

  /** Rate {@code alpha * D_i} over the given finite box, {@code delta = 0}, {@code Q0 = 0}. */
  public static AdaGradParams alphaTimesWidth(double alpha, Box box) {
    return new AdaGradParams(alpha, true, 0, 0, box);
  }

  public AdaGradParams withDelta(double d) {
    return new AdaGradParams(rate, rateFromWidth, d, q0, box);
  }

  public AdaGradParams withQ0(double q) {
    return new AdaGradParams(rate, rateFromWidth, delta, q, box);
  }

  public AdaGradParams withBox(Box b) {
    return new AdaGradParams(rate, rateFromWidth, delta, q0, b);
  }

  /** {@code eta_i} for coordinate {@code i}. */
  public double etaOf(int i) {
    return rateFromWidth ? rate * box.width(i) : rate;
  }
}
