package org.onlinekernels.rules.ftrl;

import org.onlinekernels.kernel.KernelChecks;
import org.onlinekernels.kernel.annotations.Check;
import org.onlinekernels.kernel.annotations.Lanes;
import org.onlinekernels.kernel.annotations.Predict;
import org.onlinekernels.kernel.annotations.Update;
import org.onlinekernels.optimizer.InputPolicy;

/**
 * Per-coordinate FTRL-Proximal with L1 and L2 regularisation (McMahan et al. 2013, Algorithm 1;
 * docs/ALGORITHMS.md section 13.1). Per coordinate {@code z} (the lazy dual: sum of gradients minus
 * the proximal corrections) and {@code N} (the paper's {@code n}: sum of squared gradients).
 *
 * <pre>
 *   weight:  w_i = 0                                                          where |z_i| &lt;= lambda1
 *                = (copySign(lambda1, z_i) - z_i) / (((beta + sqrt(N_i)) / alpha) + lambda2)   else,
 *                  clamped into [-bound, bound] (InputPolicy.FLOAT_WEIGHT_BOUND, DOUBLE_WEIGHT_BOUND)
 *   update:  sig = (g_i * g_i) / (alpha * (sqrt(N_i + g_i * g_i) + sqrt(N_i)))   (0 where the denominator is 0)
 *            z_i = z_i + (g_i - sig * w_i)                                    g_i = g * x_i
 *            N_i = N_i + g_i * g_i                                            (both unchanged where g_i == 0)
 * </pre>
 *
 * {@code sig} is the paper's {@code (sqrt(N + g^2) - sqrt(N)) / alpha} without the cancellation of
 * the difference of square roots. The weight is never stored: the predict computes it from {@code
 * z} and {@code N}, the update recomputes it (or takes it from the fused round's scratch), and the
 * read-out is the same function, exact zeros included.
 */
public final class Ftrl {
  private Ftrl() {}

  /** The per-coordinate math, in float: the source of every generated form. */
  @Lanes(fields = {"z", "N"})
  static final class Rule {
    private Rule() {}

    /** The weight's clamp: a prediction within CHECKED inputs stays finite. */
    static final float W_MAX = (float) InputPolicy.FLOAT_WEIGHT_BOUND;

    @Check
    static void checkRates(double alpha, double beta) {
      KernelChecks.positive("alpha", alpha);
      KernelChecks.nonNegative("beta", beta);
    }

    @Check
    static void checkRegularisation(double lambda1, double lambda2) {
      KernelChecks.nonNegative("lambda1", lambda1);
      KernelChecks.nonNegative("lambda2", lambda2);
    }

    /**
     * The soft threshold: {@code +0} inside {@code [-lambda1, lambda1]} (so {@code z = 0} too), and
     * {@code +0} while no step size exists ({@code beta = lambda2 = 0} and {@code N = 0}).
     */
    @Predict
    static float w(float z, float N, float alpha, float beta, float lambda1, float lambda2) {
      if (Math.abs(z) <= lambda1) {
        return 0;
      }
      float den = (beta + (float) Math.sqrt(N)) / alpha + lambda2;
      if (!(den > 0)) {
        return 0;
      }
      float w = (Math.copySign(lambda1, z) - z) / den;
      return Math.max(-W_MAX, Math.min(w, W_MAX));
    }

    /**
     * {@code sigma} of the paper, the increase of the inverse rate, read before {@code N} changes.
     */
    @Update
    static float sig(float N, float gx, float alpha) {
      float gg = gx * gx;
      float den = alpha * ((float) Math.sqrt(N + gg) + (float) Math.sqrt(N));
      return den > 0 ? gg / den : 0;
    }

    @Update
    static float z(float z, float gx, float sig, float w) {
      return gx == 0 ? z : z + (gx - sig * w);
    }

    @Update
    static float N(float N, float gx) {
      return gx == 0 ? N : N + gx * gx;
    }
  }
}
