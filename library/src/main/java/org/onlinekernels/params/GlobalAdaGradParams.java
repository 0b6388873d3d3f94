package org.onlinekernels.params;

/**
 * Parameters of the global-rate AdaGrad variant (Streeter and McMahan, Theorem 2): {@code eta_t =
 * alpha * D / (delta + sqrt(2 * sum_{s<=t} ||g_s||^2))}, then {@code w_i = clamp(w_i - eta_t g_i,
 * a_i, b_i)}.
 *
 * @param alpha tuning factor, {@code > 0} (default 1)
 * @param delta {@code >= 0} (default 0)
 * @param box feasible box
 * @param diameter {@code D}; {@code NaN} means the box's Euclidean diameter (then the box must be
 *     finite)
 */
public record GlobalAdaGradParams(double alpha, double delta, Box box, double diameter) {
  public GlobalAdaGradParams {
    Checks.positiveFinite("alpha", alpha);
    Checks.nonNegativeFinite("delta", delta);
    if (box == null) {
      throw new IllegalArgumentException("box must not be null; use Box.none() for no box");
    }
    if (Double.isNaN(diameter)) {
      if (!box.isFinite()) {
        throw new IllegalArgumentException(
            "diameter D: give D explicitly, or a finite box so that D can be its Euclidean diameter");
      }
    } else {
      Checks.positiveFinite("diameter D", diameter);
    }
  }

  /** Box and {@code D} from the box, {@code alpha = 1}, {@code delta = 0}. */
  public static GlobalAdaGradParams of(Box box) {
    return new GlobalAdaGradParams(1, 0, box, Double.NaN);
  }

  /** An explicit diameter {@code D}, no box, {@code alpha = 1}, {@code delta = 0}. */
  public static GlobalAdaGradParams ofDiameter(double d) {
    return new GlobalAdaGradParams(1, 0, Box.none(), d);
  }

  public GlobalAdaGradParams withAlpha(double a) {
    return new GlobalAdaGradParams(a, delta, box, diameter);
  }

  public GlobalAdaGradParams withDelta(double d) {
    return new GlobalAdaGradParams(alpha, d, box, diameter);
  }

  public GlobalAdaGradParams withBox(Box b) {
    return new GlobalAdaGradParams(alpha, delta, b, diameter);
  }

  /** {@code D} for a model of dimension {@code d}. */
  public double diameter(int d) {
    return Double.isNaN(diameter) ? box.euclideanDiameter(d) : diameter;
  }
}
