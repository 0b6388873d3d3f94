package org.onlinekernels.rules.globaladagrad;

import org.onlinekernels.kernel.KernelChecks;
import org.onlinekernels.kernel.annotations.Check;
import org.onlinekernels.kernel.annotations.Lanes;
import org.onlinekernels.kernel.annotations.Update;

/**
 * Global-rate AdaGrad (Streeter and McMahan 2010, Theorem 2; docs/ALGORITHMS.md section 1): one
 * rate {@code eta_t = alpha D / (delta + sqrt(2 sum_s ||g_s||^2))} per round, computed by the
 * optimizer, then per coordinate
 *
 * <pre>
 *   w_i = clamp(w_i - eta_t * g_i, lo_i, hi_i)        g_i = g * x_i
 * </pre>
 *
 * with one box for all coordinates or, in the per-coordinate variant, {@code lo} and {@code hi}
 * buffers.
 */
public final class GlobalAdaGrad {
  private GlobalAdaGrad() {}

  /** The per-coordinate math, in float: the source of every generated form. */
  @Lanes(
      fields = {"w"},
      weight = "w",
      perCoordinate = {"lo", "hi"})
  static final class Rule {
    private Rule() {}

    /**
     * The round's rate: 0 is legal (if useless); an infinite one would write +-inf or NaN into w.
     */
    @Check
    static void checkEta(double eta) {
      KernelChecks.nonNegative("eta", eta);
    }

    @Check
    static void checkBox(double lo, double hi) {
      KernelChecks.box(lo, hi);
    }

    @Update
    static float w(float w, float gx, float eta, float lo, float hi) {
      return Math.min(Math.max(w - eta * gx, lo), hi);
    }
  }
}
