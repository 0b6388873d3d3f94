package org.onlinekernels.testkit;

/**
 * The agreement bounds, derived from the operations (u = unit roundoff of the element type: 2^-24
 * for float, 2^-53 for double).
 *
 * <p><b>Reductions</b> ({@code yhat = sum x_i w_i}, norms). Every kernel sums with at most a few
 * independent partial sums and a final tree; the longest chain of dependent additions is at most
 * {@code n/2 + 16} for {@code n} terms (scalar sparse: 2 partial sums; dense: 4, or 4 vectors), and
 * each product adds one rounding. The classical bound for any summation order, {@code |err| <=
 * (chain + 1) u sum|t_i|}, gives {@link #reduction}.
 *
 * <p><b>State after T rounds.</b> Each round replaces a state element by an expression of at most
 * about 8 rounded operations whose inputs carry the errors of earlier rounds. Additive recurrences
 * ({@code Q += g^2}, {@code G -= g x}, {@code w -= step}) pass earlier errors on unchanged and add
 * one rounding of the new value, so after T rounds the error is at most {@code (T + 8) u} times the
 * sum of the magnitudes involved; bounding those magnitudes by the element's path length {@code P =
 * sum_t |s_t - s_{t-1}|} plus its largest value {@code M} gives {@code (T + 8) u (P + M)}. Where a
 * rule multiplies a relative error (a square root halves it, a ratio of two accumulated sums
 * doubles it, {@code exp(z)} multiplies it by {@code |z|}), the subject's factor {@code C} says by
 * how much: {@link #state}.
 *
 * <p><b>Predictions</b> add to the reduction bound the effect of the weights' own error: {@code sum
 * |x_i| * C (t + 8) u (|w_i| + P_w_i)}, with the weights' path from the reference.
 *
 * <p>A bug (a wrong operation, a dropped or doubled coordinate, a stale lane) produces errors of
 * order 1 relative to these magnitudes; the bounds are many orders of magnitude below that.
 */
public final class Tolerance {
  private Tolerance() {}

  /** Longest addition chain of our summations of {@code n} terms, plus one product rounding. */
  public static double chain(int n) {
    return n / 2.0 + 17;
  }

  /** Bound for a sum of {@code n} products whose absolute values sum to {@code sumAbs}. */
  public static double reduction(double u, int n, double sumAbs) {
    return chain(n) * u * sumAbs;
  }

  /**
   * Bound for a state element after {@code t} rounds with path {@code path} and peak {@code peak}.
   */
  public static double state(double u, double factor, int t, double path, double peak) {
    return factor * (t + 8) * u * (path + peak);
  }
}
