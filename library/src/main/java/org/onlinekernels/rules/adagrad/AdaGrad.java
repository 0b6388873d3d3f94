package org.onlinekernels.rules.adagrad;

import org.onlinekernels.kernel.KernelChecks;
import org.onlinekernels.kernel.annotations.Check;
import org.onlinekernels.kernel.annotations.Lanes;
import org.onlinekernels.kernel.annotations.Uniform;
import org.onlinekernels.kernel.annotations.Update;

/**
 * Per-coordinate AdaGrad (Streeter and McMahan 2010, Algorithm 1; diagonal AdaGrad;
 * docs/ALGORITHMS.md section 1) with an optional box:
 *
 * <pre>
 *   Q_i = Q_i + g_i * g_i                                       g_i = g * x_i
 *   w_i = clamp(w_i - (eta_i * g_i) / (delta + sqrt(Q_i)), lo_i, hi_i)   (unchanged where the denominator is 0)
 * </pre>
 *
 * The rate {@code eta}, {@code delta} and the box are one value for every coordinate, or, in the
 * per-coordinate variant, {@code eta}, {@code lo} and {@code hi} are read-only buffers (a box per
 * coordinate, with {@code eta_i = alpha (hi_i - lo_i)} when the rate comes from the box width).
 */
public final class AdaGrad {
  private AdaGrad() {}

  /** The per-coordinate math, in float: the source of every generated form. */
  @Lanes(
      fields = {"w", "Q"},
      weight = "w",
      mixed = {"w"},
      perCoordinate = {"eta", "lo", "hi"})
  static final class Rule {
    private Rule() {}

    /**
     * The kernel's rate: 0 is legal (if useless); an infinite one would write +-inf or NaN into w.
     */
    @Check
    static void checkEta(double eta) {
      KernelChecks.positive("eta", eta);
    }

    @Check
    static void checkDelta(double delta) {
      KernelChecks.nonNegative("delta", delta);
    }

    @Check
    static void checkBox(double lo, double hi) {
      KernelChecks.box(lo, hi);
    }

    /**
     * Whether the box bounds anything: an infinite box skips the clamp, which is then the identity
     * bit for bit.
     */
    @Uniform
    static boolean bounded(float lo, float hi) {
      return !(lo == Float.NEGATIVE_INFINITY && hi == Float.POSITIVE_INFINITY);
    }

    @Update
    static float Q(float Q, float gx) {
      return Q + gx * gx;
    }

    @Update
    static float w(
        float w, float Q, float gx, float eta, float delta, float lo, float hi, boolean bounded) {
      float denom = delta + (float) Math.sqrt(Q);
      if (!(denom > 0)) {
        return w;
      }
      float step = w - (eta * gx) / denom;
      return bounded ? Math.min(Math.max(step, lo), hi) : step;
    }
  }
}
