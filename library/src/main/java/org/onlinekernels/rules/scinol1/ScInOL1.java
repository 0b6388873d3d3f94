package org.onlinekernels.rules.scinol1;

import org.onlinekernels.kernel.KernelChecks;
import org.onlinekernels.kernel.annotations.Check;
import org.onlinekernels.kernel.annotations.Lanes;
import org.onlinekernels.kernel.annotations.Predict;
import org.onlinekernels.kernel.annotations.Update;
import org.onlinekernels.kernel.lanes.FloatLaneMath;

/**
 * ScInOL1 (Kempka, Kotlowski and Warmuth 2019, Algorithm 1; docs/ALGORITHMS.md section 3):
 * scale-invariant, no tuning. Per coordinate {@code G}, {@code S2}, {@code M} and {@code beta}
 * (starts at {@code epsilon}); the round counter {@code t} (from 1) is one scalar.
 *
 * <pre>
 *   predict:  M_i    = max(M_i, |x_i|)
 *             beta_i = min(beta_i, (epsilon * (S2_i + M_i*M_i)) / ((x_i*x_i) * t))   only where x_i*x_i != 0
 *             s      = sqrt(S2_i + M_i*M_i)
 *             theta  = G_i / s                                                     (0 where s == 0)
 *             w_i    = ((beta_i * sgn(theta)) * expm1(min(|theta| / 2, cap))) / (2 * s)  (0 where s == 0)
 *   update:   G_i  = G_i - g * x_i
 *             S2_i = S2_i + (g * x_i) * (g * x_i)
 * </pre>
 *
 * {@code expm1} is one polynomial for every form ({@code FloatLaneMath.expm1}); the exponent is
 * capped ({@link #FLOAT_EXP_CAP}, {@link #DOUBLE_EXP_CAP}) and the weight clamped into the element
 * type's finite range, so {@code yhat} stays finite.
 */
public final class ScInOL1 {
  private ScInOL1() {}

  /**
   * Cap of the exponent {@code |theta|/2} for float state: {@code e^64} is about {@code 6.2e27}.
   */
  public static final double FLOAT_EXP_CAP = 64;

  /** Cap of the exponent {@code |theta|/2} for double state and the reference. */
  public static final double DOUBLE_EXP_CAP = 640;

  /** The per-coordinate math, in float: the source of every generated form. */
  @Lanes(fields = {"G", "S2", "M", "beta"})
  static final class Rule {
    private Rule() {}

    @Check
    static void checkRound(double t, double eps) {
      if (!(t >= 1) || t == Double.POSITIVE_INFINITY) {
        throw new IllegalArgumentException("round counter t must be finite and >= 1, got " + t);
      }
      KernelChecks.positive("eps (epsilon)", eps);
    }

    static final float EXP_CAP = (float) FLOAT_EXP_CAP;
    static final float W_MAX = Float.MAX_VALUE;

    @Predict
    static float M(float M, float x) {
      return Math.max(M, Math.abs(x));
    }

    /**
     * Unchanged where {@code x*x} is 0 (an underflowed square included: the literal 0/0 = 0 would
     * zero beta for good).
     */
    @Predict
    static float beta(float beta, float x, float S2, float M, float t, float eps) {
      float x2 = x * x;
      return x2 != 0 ? Math.min(beta, eps * (S2 + M * M) / (x2 * t)) : beta;
    }

    @Predict
    static float w(float G, float S2, float M, float beta) {
      float s = (float) Math.sqrt(S2 + M * M);
      if (s == 0) {
        return 0;
      }
      float theta = G / s;
      float w =
          beta * sgn(theta) * FloatLaneMath.expm1(Math.min(Math.abs(theta) / 2, EXP_CAP)) / (2 * s);
      return Math.max(-W_MAX, Math.min(w, W_MAX));
    }

    /** {@code Math.signum} with comparisons: {@code ±0} and NaN pass through unchanged. */
    static float sgn(float v) {
      return v > 0 ? 1 : v < 0 ? -1 : v;
    }

    @Update
    static float G(float G, float gx) {
      return G - gx;
    }

    @Update
    static float S2(float S2, float gx) {
      return S2 + gx * gx;
    }
  }
}
