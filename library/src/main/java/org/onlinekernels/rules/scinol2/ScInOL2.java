package org.onlinekernels.rules.scinol2;

import org.onlinekernels.kernel.annotations.Lanes;
import org.onlinekernels.kernel.annotations.Predict;
import org.onlinekernels.kernel.annotations.Update;

/**
 * ScInOL2 (Kempka, Kotlowski and Warmuth 2019, Algorithm 2; docs/ALGORITHMS.md section 4):
 * scale-invariant, no tuning. Per coordinate {@code G} (negative sum of gradients), {@code S2} (sum
 * of squared gradients), {@code M} (largest {@code |x|} seen) and the wealth {@code eta} (starts at
 * {@code epsilon}).
 *
 * <pre>
 *   predict:  M_i   = max(M_i, |x_i|)
 *             s     = sqrt(S2_i + M_i*M_i)
 *             theta = G_i / s                                            (0 where s == 0)
 *             w_i   = ((sgn(theta) * min(|theta|, 1)) * eta_i) / (2 * s)  (0 where s == 0)
 *   update:   G_i   = G_i - g * x_i
 *             S2_i  = S2_i + (g * x_i) * (g * x_i)
 *             eta_i = eta_i - (g * x_i) * w_i                             (unchanged where g * x_i == 0)
 * </pre>
 *
 * The parenthesisation is the evaluation order of every form and of the reference. Saturation:
 * {@code w_i} is clamped into the element type's finite range after the division (a tiny {@code s}
 * can take it past), and the wealth into {@code [-cap, cap]} ({@link #FLOAT_WEALTH_CAP}, {@link
 * #DOUBLE_WEALTH_CAP}); a coordinate with {@code x_i = 0} keeps its wealth even if its weight is
 * infinite.
 */
public final class ScInOL2 {
  private ScInOL2() {}

  /**
   * Saturation bound of the wealth for float state: with one gradient sign held the wealth grows
   * like {@code exp(sqrt(t))} and would overflow float after about 7,800 rounds; clamped, {@code
   * |x_i w_i| <= |eta_i| / 2} keeps {@code yhat} finite for {@code d < 2^37}.
   */
  public static final double FLOAT_WEALTH_CAP = 0x1p90;

  /** Saturation bound of the wealth for double state and the reference. */
  public static final double DOUBLE_WEALTH_CAP = 0x1p900;

  /** The per-coordinate math, in float: the source of every generated form. */
  @Lanes(
      fields = {"G", "S2", "M", "eta"},
      mixed = {"M"})
  static final class Rule {
    private Rule() {}

    static final float W_MAX = Float.MAX_VALUE;
    static final float WEALTH_CAP = (float) FLOAT_WEALTH_CAP;

    @Predict
    static float M(float M, float x) {
      return Math.max(M, Math.abs(x));
    }

    /**
     * {@code sgn(theta) * min(|theta|, 1)} is {@code theta} clamped to {@code [-1, 1]}, written as
     * {@code copySign(min(|theta|, 1), theta)}: branch-free (the sign of {@code G} and whether
     * {@code |theta| > 1} vary from coordinate to coordinate, and mispredicted branches cost more
     * than the two operations), the same bits, signed zeros and NaN included.
     */
    @Predict
    static float w(float G, float S2, float M, float eta) {
      float s = (float) Math.sqrt(S2 + M * M);
      if (s == 0) {
        return 0;
      }
      float theta = G / s;
      float c = Math.copySign(Math.min(Math.abs(theta), 1f), theta);
      float w = c * eta / (2 * s);
      // Only an infinite w lies beyond W_MAX: practically never taken, and NaN stays NaN.
      return Math.abs(w) > W_MAX ? Math.copySign(W_MAX, w) : w;
    }

    @Update
    static float G(float G, float gx) {
      return G - gx;
    }

    @Update
    static float S2(float S2, float gx) {
      return S2 + gx * gx;
    }

    @Update
    static float eta(float eta, float gx, float w) {
      if (gx == 0) {
        return eta;
      }
      float e = eta - gx * w;
      return Math.abs(e) > WEALTH_CAP ? Math.copySign(WEALTH_CAP, e) : e;
    }
  }
}
