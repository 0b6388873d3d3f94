package org.onlinekernels.params;

/**
 * Parameters of per-coordinate KT coin betting (Orabona and Pal 2016; docs/ALGORITHMS.md section
 * 13.2). No learning rate: {@code epsilon} is the wealth each coordinate starts with, {@code lg}
 * the bound on {@code |g_i|} that scales a gradient entry into a coin in {@code [-1, 1]} (larger
 * entries are clipped).
 *
 * @param epsilon initial wealth, finite and {@code > 0} (default 1)
 * @param lg the gradient bound {@code Lg}, finite and {@code > 0} (default 1: 1-Lipschitz losses,
 *     {@code |x_i| <= 1})
 */
public record KtParams(double epsilon, double lg) {
  public KtParams {
    Checks.positiveFinite("epsilon", epsilon);
    Checks.positiveFinite("Lg", lg);
  }

  /** {@code epsilon = 1, Lg = 1}. */
  public static KtParams defaults() {
    return new KtParams(1, 1);
  }
}
