package org.onlinekernels.rules.freegrad;

import org.onlinekernels.kernel.KernelChecks;
import org.onlinekernels.kernel.annotations.Check;
import org.onlinekernels.kernel.annotations.Lanes;
import org.onlinekernels.kernel.annotations.Predict;
import org.onlinekernels.kernel.annotations.Update;
import org.onlinekernels.kernel.lanes.FloatLaneMath;
import org.onlinekernels.optimizer.InputPolicy;

/**
 * FreeGrad per coordinate (Mhammedi and Koolen 2020, "Diagonal FreeGrad" as its first author
 * implements it; docs/ALGORITHMS.md section 13.3): parameter-free and scale-free. Per coordinate
 * {@code G} (sum of clipped gradients), {@code Vsum} (the first hint squared plus the sum of
 * squared clipped gradients; the paper's {@code V}), {@code h1} (the first nonzero {@code |g|}) and
 * {@code ht} (the largest {@code |g|} so far: the current hint).
 *
 * <pre>
 *   weight:  A = |G| ;  D = Vsum + ht * A
 *            w = (((((-G / D) * eps) * ((1 + Vsum / D) / 2)) * h1) * (h1 / sqrt(Vsum))) * exp(min((A * (A / D)) / 2, cap))
 *            (0 while h1 == 0 or Vsum == 0)
 *   update:  a = |g_i|                                                        g_i = g * x_i, nothing where g_i == 0
 *            first nonzero g_i:  h1 = ht = a ;  Vsum = Vsum + a * a ;  c = g_i
 *            a > ht:             c = g_i * (ht / a) ;  ht = a                 (clipped to the previous hint)
 *            else:               c = g_i
 *            G = G + c ;  Vsum = Vsum + c * c
 * </pre>
 *
 * In real arithmetic the weight is the implementations' {@code -G eps (2V + h|G|) h1^2 / (2 (V +
 * h|G|)^2 sqrt(V)) exp(|G|^2 / (2V + 2h|G|))}; factored so that no intermediate overflows. {@code
 * exp(e)} is {@code expm1(e) + 1} with the lane math's polynomial, the exponent capped at {@link
 * #FLOAT_EXP_CAP} / {@link #DOUBLE_EXP_CAP} (ScInOL1's caps), the weight clamped into {@code
 * [-bound, bound]} ({@link InputPolicy#FLOAT_WEIGHT_BOUND}, {@link
 * InputPolicy#DOUBLE_WEIGHT_BOUND}), so that a prediction within the CHECKED inputs is finite.
 */
public final class FreeGrad {
  private FreeGrad() {}

  /** Cap of the exponent for float state: {@code e^64} is about {@code 6.2e27}. */
  public static final double FLOAT_EXP_CAP = 64;

  /** Cap of the exponent for double state and the reference. */
  public static final double DOUBLE_EXP_CAP = 640;

  /** The per-coordinate math, in float: the source of every generated form. */
  @Lanes(fields = {"G", "Vsum", "h1", "ht"})
  static final class Rule {
    private Rule() {}

    static final float EXP_CAP = (float) FLOAT_EXP_CAP;

    /** The weight's clamp: a prediction within CHECKED inputs stays finite. */
    static final float W_MAX = (float) InputPolicy.FLOAT_WEIGHT_BOUND;

    @Check
    static void checkEpsilon(double eps) {
      KernelChecks.positive("eps (epsilon)", eps);
    }

    @Predict
    static float w(float G, float Vsum, float h1, float ht, float eps) {
      if (h1 == 0 || Vsum == 0) {
        return 0;
      }
      float a = Math.abs(G);
      float d = Vsum + ht * a;
      float r = -G / d;
      float m = (1 + Vsum / d) / 2;
      float q = h1 / (float) Math.sqrt(Vsum);
      float e = Math.min(a * (a / d) / 2, EXP_CAP);
      float w = r * eps * m * h1 * q * (FloatLaneMath.expm1(e) + 1);
      return Math.max(-W_MAX, Math.min(w, W_MAX));
    }

    /** The clipped gradient, from the hints before this update. */
    @Update
    static float clip(float gx, float h1, float ht) {
      float a = Math.abs(gx);
      return h1 != 0 && a > ht ? gx * (ht / a) : gx;
    }

    @Update
    static float G(float G, float gx, float clip) {
      return gx == 0 ? G : G + clip;
    }

    /**
     * On the first nonzero gradient the hint's square goes in first, then the (unclipped) square:
     * two additions, as both implementations.
     */
    @Update
    static float Vsum(float Vsum, float gx, float h1, float clip) {
      if (gx == 0) {
        return Vsum;
      }
      float a = Math.abs(gx);
      float v = h1 == 0 ? Vsum + a * a : Vsum;
      return v + clip * clip;
    }

    @Update
    static float h1(float h1, float gx) {
      return h1 == 0 ? Math.abs(gx) : h1;
    }

    @Update
    static float ht(float ht, float gx) {
      return Math.max(ht, Math.abs(gx));
    }
  }
}
