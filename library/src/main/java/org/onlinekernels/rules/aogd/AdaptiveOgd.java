package org.onlinekernels.rules.aogd;

import org.onlinekernels.kernel.KernelChecks;
import org.onlinekernels.kernel.annotations.Check;
import org.onlinekernels.kernel.annotations.Lanes;
import org.onlinekernels.kernel.annotations.Update;

/**
 * Adaptive Online Gradient Descent (Bartlett, Hazan and Rakhlin 2007, Algorithm 2;
 * docs/ALGORITHMS.md section 2), per coordinate: the recurrence run on each coordinate with {@code
 * G_i = |g_i|}, its own {@code Lsum_i} and the box {@code [-R_i, R_i]}; {@code Hsum} (the sum of
 * curvatures) is one scalar.
 *
 * <pre>
 *   s       = Hsum + Lsum_i
 *   c       = 8 g_i g_i / (3 (R_i R_i))
 *   lambda  = c / (2 (sqrt(s s + c) + s))            (0 where the denominator is 0)
 *   Lsum_i  = Lsum_i + lambda
 *   w_i     = clamp(w_i - (1 / (Hsum + Lsum_i)) (g_i + lambda w_i), -R_i, R_i)
 *             (unchanged where Hsum + Lsum_i is not > 0, or g_i == 0)
 * </pre>
 *
 * The ball form's step ({@link Ball}) is {@code (w - eta (g + lambda w)) p} on every coordinate,
 * with {@code eta}, {@code lambda} and the projection factor {@code p} computed by its optimizer.
 */
public final class AdaptiveOgd {
  private AdaptiveOgd() {}

  /** The per-coordinate form, in float: the source of every generated form. */
  @Lanes(
      fields = {"w", "Lsum"},
      weight = "w",
      perCoordinate = {"R"})
  static final class Rule {
    private Rule() {}

    @Check
    static void checkHsum(double Hsum) {
      KernelChecks.nonNegative("Hsum (sum of curvatures)", Hsum);
    }

    @Check
    static void checkR(double R) {
      KernelChecks.positive("R (radius)", R);
    }

    @Update
    static float lambda(float gx, float Hsum, float Lsum, float R) {
      float s = Hsum + Lsum;
      float c = 8 * gx * gx / (3 * (R * R));
      float den = 2 * ((float) Math.sqrt(s * s + c) + s);
      return den > 0 ? c / den : 0;
    }

    @Update
    static float Lsum(float Lsum, float lambda) {
      return Lsum + lambda;
    }

    /**
     * Computing the step where {@code g == 0} could give {@code inf * 0 = NaN} once a subnormal
     * {@code Hsum} makes {@code eta} overflow.
     */
    @Update
    static float w(float w, float gx, float lambda, float Hsum, float Lsum, float R) {
      float den = Hsum + Lsum;
      if (!(den > 0) || gx == 0) {
        return w;
      }
      float eta = 1 / den;
      return Math.min(Math.max(w - eta * (gx + lambda * w), -R), R);
    }
  }

  /** The ball form's step, in float: the source of its generated forms. */
  @Lanes(
      fields = {"w"},
      weight = "w",
      everyCoordinate = true)
  static final class Ball {
    private Ball() {}

    @Check
    static void checkStep(double eta, double lambda, double p) {
      KernelChecks.positive("eta", eta);
      KernelChecks.nonNegative("lambda", lambda);
      // p = min(1, R/||v||): anything outside (0, 1] is not a projection factor.
      if (!(p > 0 && p <= 1)) {
        throw new IllegalArgumentException("p (projection factor) must be in (0, 1], got " + p);
      }
    }

    @Update
    static float w(float w, float gx, float eta, float lambda, float p) {
      return (w - eta * (gx + lambda * w)) * p;
    }
  }
}
