package org.onlinekernels.rules.kt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.KtParams;
import org.onlinekernels.rules.RuleDriver;

/**
 * KT coin betting rounds worked by hand (d = 2, epsilon = 1, Lg = 1), every provider, element type
 * and layout; the coin's clipping; and the wealth's saturation under one sign held.
 */
class KtOptimizerTest {
  private static final String ALL =
      """
      vector,FLOAT,PLANAR
      vector,DOUBLE,PLANAR
      scalar,FLOAT,PLANAR
      scalar,DOUBLE,PLANAR
      vector,DOUBLE,INTERLEAVED
      scalar,FLOAT,INTERLEAVED
      """;

  @ParameterizedTest
  @CsvSource(textBlock = ALL)
  void threeRoundsByHand(String impl, ElementType t, StateLayout layout) {
    KernelProvider k = impl.equals("vector") ? KernelProvider.vector() : KernelProvider.scalar();
    try (Arena a = Arena.ofConfined();
        KtOptimizer o = new KtOptimizer(2, t, KtParams.defaults(), layout, a, k)) {
      RuleDriver r = new RuleDriver(o, a);
      // Round 1: theta = 0, so w = 0. g = -0.5, x = (2, -0.5): g x = (-1, 0.25), coins (1, -0.25);
      // W = 1 + coin * 0 = 1; theta = (1, -0.25); k = (1, 1).
      assertEquals(Double.valueOf(0.0), Double.valueOf(r.round(-0.5, 2, -0.5)));
      assertArrayEquals(new double[] {1, -0.25}, r.state("theta"));
      assertArrayEquals(new double[] {1, 1}, r.state("W"));
      assertArrayEquals(new double[] {1, 1}, r.state("k"));
      // Round 2, x = (1, 1): w = (1/2 * 1, -0.25/2 * 1) = (0.5, -0.125), yhat = 0.375.
      // g = 1: coins (-1, -1); W = (1 - 0.5, 1 + 0.125) = (0.5, 1.125); theta = (0, -1.25); k = (2,
      // 2).
      assertEquals(Double.valueOf(0.375), Double.valueOf(r.round(1, 1, 1)));
      assertArrayEquals(new double[] {0.5, 1.125}, r.state("W"));
      assertArrayEquals(new double[] {0, -1.25}, r.state("theta"));
      assertArrayEquals(new double[] {0, -1.25 / 3 * 1.125}, r.weights());
      // Round 3, x = (3, 0), g = -1: g x_0 = -3 gives the coin clamp(3, -1, 1) = 1 (clipped); w0 =
      // 0,
      // so W0 stays 0.5; theta0 = 1, k0 = 3. Coordinate 1 has x = 0: untouched.
      r.round(-1, 3, 0);
      assertArrayEquals(new double[] {1, -1.25}, r.state("theta"));
      assertArrayEquals(new double[] {0.5, 1.125}, r.state("W"));
      assertArrayEquals(new double[] {3, 2}, r.state("k"));
      assertEquals(Double.valueOf(0.125), Double.valueOf(r.weights()[0]));
    }
  }

  /**
   * The coin held at +1: the wealth is epsilon C(2k, k) / 2^k after k touches, past float's range
   * after about 132 and double's after about 1,030. The bet {@code k / (k + 1) W} meets the weight
   * bound ({@code 2^56} float, {@code 2^512} double: {@link InputPolicy#weightBound}) first, at the
   * touch the exact wealth says (about 60 and 517); from there the bet is the bound and the wealth
   * grows by it each touch, below its cap; every weight stays finite, below the wealth.
   */
  @ParameterizedTest
  @EnumSource(ElementType.class)
  void betSaturatesAtTheWeightBoundUnderOneSign(ElementType t) {
    double cap = t == ElementType.FLOAT ? Kt.FLOAT_WEALTH_CAP : Kt.DOUBLE_WEALTH_CAP;
    double bound = InputPolicy.weightBound(t);
    try (Arena a = Arena.ofConfined();
        KtOptimizer o = new KtOptimizer(1, t, KtParams.defaults())) {
      RuleDriver r = new RuleDriver(o, a);
      int reached = -1;
      int expected = -1;
      double exact = 1;
      for (int s = 0; s < 3000; s++) {
        // Touch s + 1 bets with the wealth and fraction after s touches.
        if (expected < 0 && exact * s / (s + 1) >= bound) {
          expected = s + 1;
        }
        double weight = r.weights()[0];
        if (reached < 0 && weight == bound) {
          reached = s + 1;
        }
        double before = r.state("W")[0];
        o.step(r.vec(-1));
        exact *= (2.0 * s + 1) / (s + 1);
        double w = r.state("W")[0];
        if (reached < 0) {
          assertEquals(exact, w, exact * 1e-5, "wealth after " + (s + 1) + " touches");
        } else {
          double sum = t == ElementType.FLOAT ? (float) (before + bound) : before + bound;
          assertEquals(sum, w, "the bet is the bound");
        }
        assertTrue(
            Double.isFinite(weight) && weight <= before && weight >= 0 && w < cap,
            "weight " + weight + " at wealth " + before);
      }
      assertTrue(reached > 0, "the bet reached the bound");
      assertEquals(expected, reached, 2, "touches to the bound");
    }
  }
}
