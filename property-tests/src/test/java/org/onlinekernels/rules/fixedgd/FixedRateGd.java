package org.onlinekernels.rules.fixedgd;

import org.onlinekernels.kernel.KernelChecks;
import org.onlinekernels.kernel.annotations.Check;
import org.onlinekernels.kernel.annotations.Lanes;
import org.onlinekernels.kernel.annotations.Update;

/**
 * Per-coordinate gradient descent with a fixed rate, a rule that exists only to prove the steps of
 * docs/ADDING_A_RULE.md ({@code AddedRuleTest}): step 1, the rule's source.
 *
 * <pre>
 *   w_i = w_i - eta * g_i        g_i = g * x_i   (unchanged where g_i == 0)
 * </pre>
 */
public final class FixedRateGd {
  private FixedRateGd() {}

  /** The per-coordinate math, in float: the source of every generated form. */
  @Lanes(
      fields = {"w"},
      weight = "w")
  static final class Rule {
    private Rule() {}

    @Check
    static void checkEta(double eta) {
      KernelChecks.positive("eta", eta);
    }

    /**
     * The step; a zero {@code g_i} (which may be {@code -0}) leaves {@code w_i} as it is, a signed
     * zero included.
     */
    @Update
    static float w(float w, float gx, float eta) {
      return gx == 0 ? w : w - eta * gx;
    }
  }
}
