package org.onlinekernels.rules.freegrad;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.FreeGradParams;
import org.onlinekernels.rules.RuleDriver;

/**
 * FreeGrad rounds worked by hand (d = 2, epsilon = 1), every provider, element type and layout;
 * scale-freeness bit for bit (the paper's claim); the exponent's saturation under one sign held.
 */
class FreeGradOptimizerTest {
  private static final String ALL =
      """
      vector,FLOAT,PLANAR
      vector,DOUBLE,PLANAR
      scalar,FLOAT,PLANAR
      scalar,DOUBLE,PLANAR
      vector,FLOAT,INTERLEAVED
      scalar,DOUBLE,INTERLEAVED
      """;

  private static KernelProvider provider(String impl) {
    return impl.equals("vector") ? KernelProvider.vector() : KernelProvider.scalar();
  }

  @ParameterizedTest
  @CsvSource(textBlock = ALL)
  void twoRoundsByHand(String impl, ElementType t, StateLayout layout) {
    double tol = t == ElementType.FLOAT ? 1e-6 : 1e-15;
    try (Arena a = Arena.ofConfined();
        FreeGradOptimizer o =
            new FreeGradOptimizer(2, t, FreeGradParams.defaults(), layout, a, provider(impl))) {
      RuleDriver r = new RuleDriver(o, a);
      // Round 1: no hint yet, w = 0. g = -0.5, x = (2, -0.5): g x = (-1, 0.25), both first
      // gradients:
      // h1 = ht = (1, 0.25); V = (0 + 1) + 1 = 2 and (0 + 0.0625) + 0.0625 = 0.125; G = (-1, 0.25).
      assertEquals(Double.valueOf(0.0), Double.valueOf(r.round(-0.5, 2, -0.5)));
      assertArrayEquals(new double[] {-1, 0.25}, r.state("G"));
      assertArrayEquals(new double[] {2, 0.125}, r.state("Vsum"));
      assertArrayEquals(new double[] {1, 0.25}, r.state("h1"));
      assertArrayEquals(new double[] {1, 0.25}, r.state("ht"));
      // Weights: coordinate 0: A = 1, D = 2 + 1 = 3, -G eps (2V + h A) h1^2 / (2 D^2 sqrt(V))
      // exp(A^2 / (2D))
      // = 5 / (18 sqrt(2)) e^(1/6); coordinate 1 saw -0.25 times coordinate 0's gradient: the
      // opposite weight.
      double w0 = 5 / (18 * Math.sqrt(2)) * Math.exp(1.0 / 6);
      assertArrayEquals(new double[] {w0, -w0}, r.weights(), tol * w0);
      // Round 2, x = (1, 1), g = 4: both clipped to their hints: c = 4 (1/4) = 1 and 4 (0.25/4) =
      // 0.25;
      // ht = 4; G = (0, 0.5); V = (3, 0.1875).
      assertEquals(0.0, r.round(4, 1, 1), tol * w0);
      assertArrayEquals(new double[] {0, 0.5}, r.state("G"));
      assertArrayEquals(new double[] {3, 0.1875}, r.state("Vsum"));
      assertArrayEquals(new double[] {4, 4}, r.state("ht"));
      // G_0 = +0: the weight's sign factor -G makes it -0.0.
      assertEquals(Double.valueOf(-0.0), Double.valueOf(r.weights()[0]));
    }
  }

  /**
   * Scale-freeness ("parameter-free and scale-free", the paper's abstract): gradients of every
   * coordinate multiplied by c = 2^k leave every weight unchanged, bit for bit (powers of two scale
   * G, h1, ht, A exactly and V, D by c^2, and sqrt(c^2 V) = c sqrt(V)); 500 steps of Gaussian
   * gradients with per-coordinate scales 2^-10 .. 2^10.
   */
  @ParameterizedTest
  @EnumSource(ElementType.class)
  void weightsAreScaleFreeBitForBit(ElementType t) {
    int d = 10, steps = 500;
    int[] ks = t == ElementType.FLOAT ? new int[] {-20, -3, 5, 20} : new int[] {-30, -3, 5, 30};
    SplittableRandom rnd = new SplittableRandom(3);
    double[][] g = new double[steps][d];
    for (int i = 0; i < d; i++) {
      double scale = Math.scalb(1.0, rnd.nextInt(-10, 11));
      for (int s = 0; s < steps; s++) {
        g[s][i] =
            t == ElementType.FLOAT
                ? (float) (scale * rnd.nextGaussian())
                : scale * rnd.nextGaussian();
      }
    }
    try (Arena a = Arena.ofConfined();
        FreeGradOptimizer base = new FreeGradOptimizer(d, t, FreeGradParams.defaults())) {
      RuleDriver rb = new RuleDriver(base, a);
      FreeGradOptimizer[] scaled = new FreeGradOptimizer[ks.length];
      for (int j = 0; j < ks.length; j++) {
        scaled[j] = new FreeGradOptimizer(d, t, FreeGradParams.defaults());
      }
      for (int s = 0; s < steps; s++) {
        base.step(rb.vec(g[s]));
        double[] want = rb.weights();
        for (int j = 0; j < ks.length; j++) {
          RuleDriver rs = new RuleDriver(scaled[j], a);
          double[] gs = new double[d];
          for (int i = 0; i < d; i++) {
            gs[i] = Math.scalb(g[s][i], ks[j]);
          }
          scaled[j].step(rs.vec(gs));
          assertArrayEquals(want, rs.weights(), "step " + s + ", gradients times 2^" + ks[j]);
        }
      }
      for (FreeGradOptimizer o : scaled) {
        o.close();
      }
    }
  }

  /**
   * One sign held: the exponent, {@code k^2 / (4k + 2)} after k touches, reaches its cap (64 float,
   * 640 double) at about k = 4 cap. The weight grows like {@code e^(k/4)} until it meets the weight
   * bound ({@code 2^56} float, {@code 2^512} double: {@link InputPolicy#weightBound}), before the
   * cap, and stays there; finite throughout.
   */
  @ParameterizedTest
  @EnumSource(ElementType.class)
  void exponentSaturatesUnderOneSign(ElementType t) {
    double cap = t == ElementType.FLOAT ? FreeGrad.FLOAT_EXP_CAP : FreeGrad.DOUBLE_EXP_CAP;
    double bound = InputPolicy.weightBound(t);
    try (Arena a = Arena.ofConfined();
        FreeGradOptimizer o = new FreeGradOptimizer(1, t, FreeGradParams.defaults())) {
      RuleDriver r = new RuleDriver(o, a);
      double previous = 0;
      int boundAt = -1;
      int capAt = -1;
      for (int s = 1; s <= 4000; s++) {
        o.step(r.vec(-1));
        double w = r.weights()[0];
        assertTrue(Double.isFinite(w) && w >= previous, "step " + s + ": weight " + w);
        previous = w;
        if (boundAt < 0 && w == bound) {
          boundAt = s;
        }
        double g = r.state("G")[0];
        double v = r.state("Vsum")[0];
        double h = r.state("ht")[0];
        double abs = Math.abs(g);
        if (capAt < 0 && abs * (abs / (v + h * abs)) / 2 >= cap) {
          capAt = s;
        }
      }
      assertEquals(4 * cap, capAt, 2, "the exponent reaches its cap");
      assertTrue(boundAt > 0 && boundAt < capAt, "the weight met its bound, at " + boundAt);
      assertEquals(bound, previous, "and stayed there");
    }
  }
}
