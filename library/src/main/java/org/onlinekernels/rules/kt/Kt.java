package org.onlinekernels.rules.kt;

import org.onlinekernels.kernel.KernelChecks;
import org.onlinekernels.kernel.annotations.Check;
import org.onlinekernels.kernel.annotations.Lanes;
import org.onlinekernels.kernel.annotations.Predict;
import org.onlinekernels.kernel.annotations.Update;
import org.onlinekernels.optimizer.InputPolicy;

/**
 * Krichevsky-Trofimov coin betting per coordinate, betting-fraction form (Orabona and Pal 2016,
 * Algorithm 1 on each coordinate; docs/ALGORITHMS.md section 13.2): no learning rate. Per
 * coordinate {@code theta} (the sum of the coins), the wealth {@code W} (starts at {@code epsilon})
 * and {@code k} (the number of nonzero coins).
 *
 * <pre>
 *   weight:  w_i    = clamp((theta_i / (k_i + 1)) * W_i, -bound, bound)   (the KT betting fraction times the wealth)
 *   update:  coin   = clamp(-(g_i / Lg), -1, 1)                       g_i = g * x_i
 *            W_i    = clamp(W_i + coin * w_i, 0, cap)
 *            theta_i = theta_i + coin ;  k_i = k_i + 1                (all unchanged where g_i == 0)
 * </pre>
 *
 * The coin is the reward {@code -g_i} scaled by the gradient bound {@code Lg} and clipped into
 * {@code [-1, 1]}, where the paper's analysis holds. The wealth saturates at {@link
 * #FLOAT_WEALTH_CAP} / {@link #DOUBLE_WEALTH_CAP} (with the coin held at one sign it doubles about
 * every touch); {@code |theta_i| <= k_i} keeps the fraction in {@code [-1, 1]} after rounding, so
 * {@code |w_i| <= W_i}. The weight is clamped into {@code [-bound, bound]} ({@link
 * InputPolicy#FLOAT_WEIGHT_BOUND}, {@link InputPolicy#DOUBLE_WEIGHT_BOUND}): the wealth's cap times
 * an input within the CHECKED limit would overflow the element type (float: {@code 2^90 * 2^39}).
 */
public final class Kt {
  private Kt() {}

  /**
   * Saturation bound of the wealth for float state (ScInOL2's wealth cap): reached after about 94
   * one-sign touches.
   */
  public static final double FLOAT_WEALTH_CAP = 0x1p90;

  /**
   * Saturation bound of the wealth for double state and the reference: reached after about 906
   * one-sign touches.
   */
  public static final double DOUBLE_WEALTH_CAP = 0x1p900;

  /** The per-coordinate math, in float: the source of every generated form. */
  @Lanes(fields = {"theta", "W", "k"})
  static final class Rule {
    private Rule() {}

    static final float WEALTH_CAP = (float) FLOAT_WEALTH_CAP;

    /** The weight's clamp: a prediction within CHECKED inputs stays finite. */
    static final float W_MAX = (float) InputPolicy.FLOAT_WEIGHT_BOUND;

    @Check
    static void checkBound(double Lg) {
      KernelChecks.positive("Lg", Lg);
    }

    @Predict
    static float w(float theta, float W, float k) {
      float w = theta / (k + 1) * W;
      return Math.max(-W_MAX, Math.min(w, W_MAX));
    }

    /**
     * The coin, a reward in {@code [-1, 1]}; {@code -0} where {@code g_i} is {@code +0} (unused
     * there).
     */
    @Update
    static float coin(float gx, float Lg) {
      return Math.min(Math.max(-(gx / Lg), -1f), 1f);
    }

    @Update
    static float W(float W, float gx, float coin, float w) {
      if (gx == 0) {
        return W;
      }
      return Math.min(Math.max(W + coin * w, 0f), WEALTH_CAP);
    }

    @Update
    static float theta(float theta, float gx, float coin) {
      return gx == 0 ? theta : theta + coin;
    }

    @Update
    static float k(float k, float gx) {
      return gx == 0 ? k : k + 1;
    }
  }
}
