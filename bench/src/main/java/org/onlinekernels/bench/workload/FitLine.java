package org.onlinekernels.bench.workload;

/**
 * Least-squares line {@code t = a + b x} through points {@code (x_i, t_i)}: here the fit time per
 * row against nonzeros per row, {@code a} the fixed cost of a row (ns), {@code b} the cost per
 * nonzero (ns).
 *
 * @param a intercept
 * @param b slope
 * @param maxResidual largest {@code |t_i - (a + b x_i)|} relative to {@code t_i}, to show how well
 *     a line fits
 * @param points number of points
 */
public record FitLine(double a, double b, double maxResidual, int points) {
  /** The fit through {@code x}, {@code t} (at least two distinct {@code x}). */
  public static FitLine of(double[] x, double[] t) {
    int n = x.length;
    if (n < 2 || t.length != n)
      throw new IllegalArgumentException("need at least two points, got " + n);
    double mx = 0;
    double mt = 0;
    for (int i = 0; i < n; i++) {
      mx += x[i];
      mt += t[i];
    }
    mx /= n;
    mt /= n;
    double sxx = 0;
    double sxt = 0;
    for (int i = 0; i < n; i++) {
      sxx += (x[i] - mx) * (x[i] - mx);
      sxt += (x[i] - mx) * (t[i] - mt);
    }
    if (sxx == 0) throw new IllegalArgumentException("the x values are all equal");
    double b = sxt / sxx;
    double a = mt - b * mx;
    double res = 0;
    for (int i = 0; i < n; i++) res = Math.max(res, Math.abs(t[i] - (a + b * x[i])) / t[i]);
    return new FitLine(a, b, res, n);
  }
}
