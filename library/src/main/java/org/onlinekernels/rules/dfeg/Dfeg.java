package org.onlinekernels.rules.dfeg;

import org.onlinekernels.kernel.annotations.Lanes;
import org.onlinekernels.kernel.annotations.Sum;
import org.onlinekernels.kernel.annotations.Update;

/**
 * DFEG, dimension-free exponentiated gradient (Orabona 2013, Algorithm 1; docs/ALGORITHMS.md
 * section 5). Per coordinate {@code theta} (the negative sum of gradients); the weights are {@code
 * c * theta} with one scale {@code c = exp(||theta|| / alpha) / (beta ||theta||)} per round,
 * computed by the optimizer from its scalars {@code H} and {@code ||theta||^2}.
 *
 * <pre>
 *   update:   theta_i = theta_i - g * x_i
 *             ||theta||^2 changes by sum_i (g x_i) ((g x_i) - 2 theta_i)   (sparse: over the touched coordinates)
 * </pre>
 */
public final class Dfeg {
  private Dfeg() {}

  /** The per-coordinate math, in float: the source of every generated form. */
  @Lanes(
      fields = {"theta"},
      weight = "theta")
  static final class Rule {
    private Rule() {}

    /** The change of {@code ||theta||^2} at this coordinate, written so that it does not cancel. */
    @Update
    @Sum
    static float normChange(float gx, float theta) {
      return gx * (gx - 2 * theta);
    }

    @Update
    static float theta(float theta, float gx) {
      return theta - gx;
    }
  }
}
