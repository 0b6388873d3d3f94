package org.onlinekernels.params;

/**
 * Parameters of DFEG (Orabona 2013, Algorithm 1).
 *
 * @param a in {@code [0.882, 1.109]} (default 0.882)
 * @param l Lipschitz constant {@code L > 0} (default 1)
 * @param delta initial {@code H}, {@code > 0} (default 1)
 */
public record DfegParams(double a, double l, double delta) {
  /** Smallest {@code a} the paper's analysis allows. */
  public static final double A_MIN = 0.882;

  /** Largest {@code a} the paper's analysis allows. */
  public static final double A_MAX = 1.109;

  public DfegParams {
    if (!(a >= A_MIN && a <= A_MAX)) {
      throw new IllegalArgumentException("a must lie in [" + A_MIN + ", " + A_MAX + "], got " + a);
    }
    Checks.positiveFinite("L", l);
    Checks.positiveFinite("delta", delta);
  }

  /** {@code a = 0.882, L = 1, delta = 1}. */
  public static DfegParams defaults() {
    return new DfegParams(A_MIN, 1, 1);
  }
}
