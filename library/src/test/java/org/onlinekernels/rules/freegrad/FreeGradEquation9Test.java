package org.onlinekernels.rules.freegrad;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.FreeGradParams;
import org.onlinekernels.rules.RuleDriver;

/**
 * FreeGrad's weight against Equation 9 of Mhammedi and Koolen 2020 as its first author transcribes
 * it in both of his implementations (Vowpal Wabbit's {@code freegrad.cc}, whose comment cites
 * "Equation 9 in paper", and {@code zmhammedi/FreeGrad}'s {@code diagonal_freegrad_learn};
 * docs/ALGORITHMS.md Appendix A.1, A.4): {@code w = -G eps (2V + h|G|) h1^2 / (2 (V + h|G|)^2
 * sqrt(V)) exp(|G|^2 / (2V + 2h|G|))}, written here literally, in that order, with {@code
 * Math.pow}, {@code Math.sqrt} and {@code Math.exp} (not our factored form, not {@code
 * ReferenceFreeGrad}), and checked in turn to be minus the {@code G}-derivative of the potential
 * {@code eps h1^2 / sqrt(V) exp(G^2 / (2V + 2h|G|))} by a central difference, so that a slip common
 * to the transcription and the rule (a sign, a factor 2, {@code h} for {@code h1}) shows.
 *
 * <p>The paper's text is not in the repository or the team's folder: the equation rests on the
 * author's two transcriptions, which agree (docs/ALGORITHMS.md 13.3).
 */
class FreeGradEquation9Test {
  /**
   * Largest relative difference allowed between the rule's weight and Equation 9 at the same state:
   * double rounding of about twenty operations and of the lane polynomial's {@code exp}, whose
   * relative error grows with the exponent (below 4 here). Measured at most 2.5e-15 in double.
   */
  private static final double DOUBLE_TOLERANCE = 1e-13;

  /** The same in float (the factored form's rounding in float; measured at most 1.3e-6). */
  private static final double FLOAT_TOLERANCE = 1e-5;

  /** Equation 9, literally: the weight from the sums {@code G}, {@code V} and the hints. */
  static double equation9(double bigG, double v, double h1, double h, double eps) {
    double absG = Math.abs(bigG);
    return -bigG
        * eps
        * (2 * v + h * absG)
        * Math.pow(h1, 2)
        / (2 * Math.pow(v + h * absG, 2) * Math.sqrt(v))
        * Math.exp(Math.pow(absG, 2) / (2 * v + 2 * h * absG));
  }

  /** The potential whose negative {@code G}-derivative Equation 9 is. */
  private static double potential(double bigG, double v, double h1, double h, double eps) {
    return eps * h1 * h1 / Math.sqrt(v) * Math.exp(bigG * bigG / (2 * v + 2 * h * Math.abs(bigG)));
  }

  @Test
  void equation9IsMinusTheDerivativeOfThePotential() {
    SplittableRandom rnd = new SplittableRandom(9);
    for (int n = 0; n < 1000; n++) {
      double h1 = Math.scalb(0.5 + rnd.nextDouble(), rnd.nextInt(-8, 9));
      double h = h1 * (1 + 4 * rnd.nextDouble());
      double v = h1 * h1 + h * h * 50 * rnd.nextDouble();
      double bigG = (rnd.nextDouble() * 2 - 1) * 2 * Math.sqrt(v);
      double eps = 0.25 + rnd.nextDouble();
      double step = 1e-5 * Math.sqrt(v);
      double numeric =
          -(potential(bigG + step, v, h1, h, eps) - potential(bigG - step, v, h1, h, eps))
              / (2 * step);
      double w = equation9(bigG, v, h1, h, eps);
      assertEquals(
          numeric,
          w,
          1e-6 * Math.abs(w) + 1e-9 * potential(bigG, v, h1, h, eps) / Math.sqrt(v),
          "G = " + bigG + ", V = " + v + ", h1 = " + h1 + ", h = " + h);
    }
  }

  /**
   * After every step of a stream whose hints rise (so {@code h > h1} and gradients get clipped),
   * with zero entries and per-coordinate scales {@code 2^-12 .. 2^12}, every weight the optimizer
   * reads out is Equation 9 at its state ({@code G}, {@code Vsum}, {@code h1}, {@code ht}).
   */
  @ParameterizedTest
  @CsvSource({
    "vector, DOUBLE, PLANAR",
    "scalar, DOUBLE, PLANAR",
    "vector, DOUBLE, INTERLEAVED",
    "vector, FLOAT, PLANAR",
    "scalar, FLOAT, INTERLEAVED"
  })
  void everyWeightIsEquation9OfTheState(String impl, ElementType t, StateLayout layout) {
    int d = 8;
    int steps = 400;
    double eps = 0.75;
    double tol = t == ElementType.FLOAT ? FLOAT_TOLERANCE : DOUBLE_TOLERANCE;
    KernelProvider kernels =
        impl.equals("vector") ? KernelProvider.vector() : KernelProvider.scalar();
    SplittableRandom rnd = new SplittableRandom(23);
    double[] scale = new double[d];
    double[] bias = new double[d];
    for (int i = 0; i < d; i++) {
      scale[i] = Math.scalb(1.0, rnd.nextInt(-12, 13));
      bias[i] = rnd.nextDouble() - 0.5;
    }
    int clipped = 0;
    int tested = 0;
    try (Arena a = Arena.ofConfined();
        FreeGradOptimizer o =
            new FreeGradOptimizer(d, t, new FreeGradParams(eps), layout, a, kernels)) {
      RuleDriver r = new RuleDriver(o, a);
      for (int s = 0; s < steps; s++) {
        double[] g = new double[d];
        for (int i = 0; i < d; i++) {
          // A slowly rising magnitude raises the hint now and then; one entry in five is zero.
          double grow = 1 + s / 100.0;
          g[i] = rnd.nextInt(5) == 0 ? 0 : scale[i] * grow * (bias[i] + rnd.nextGaussian());
        }
        o.step(r.vec(g));
        double[] w = r.weights();
        double[] bigG = r.state("G");
        double[] v = r.state("Vsum");
        double[] h1 = r.state("h1");
        double[] h = r.state("ht");
        for (int i = 0; i < d; i++) {
          if (h1[i] == 0) {
            assertEquals(0.0, w[i], "no gradient yet at coordinate " + i);
            continue;
          }
          if (h[i] > h1[i]) {
            clipped++;
          }
          double want = equation9(bigG[i], v[i], h1[i], h[i], eps);
          assertEquals(
              want,
              w[i],
              tol * Math.abs(want),
              "step " + s + ", coordinate " + i + ": G = " + bigG[i] + ", V = " + v[i]);
          tested++;
        }
      }
    }
    assertTrue(clipped > steps, "the stream raised the hints in only " + clipped + " checks");
    assertTrue(tested > steps * d / 2, "only " + tested + " weights checked");
  }
}
