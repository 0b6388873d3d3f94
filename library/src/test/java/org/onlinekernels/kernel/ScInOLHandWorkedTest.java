package org.onlinekernels.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.onlinekernels.kernel.ScInOLVectorScalarTest.get;
import static org.onlinekernels.kernel.ScInOLVectorScalarTest.set;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.rules.scinol1.ScInOL1;
import org.onlinekernels.rules.scinol1.ScInOL1Kernel;
import org.onlinekernels.rules.scinol2.ScInOL2Kernel;

/**
 * Two rounds of d = 2 worked by hand, epsilon = 1, with x_1 = (2, -0.5), g_1 = -0.5 (logistic loss,
 * y = +1 at yhat = 0: -1/(1+e^0)), x_2 = (1, 1), g_2 = 1; plus the underflow and s == 0
 * conventions.
 */
class ScInOLHandWorkedTest {
  private static final String ALL =
      """
      vector,FLOAT
      vector,DOUBLE
      scalar,FLOAT
      scalar,DOUBLE
      """;

  private static KernelProvider provider(String impl) {
    return impl.equals("vector") ? KernelProvider.vector() : KernelProvider.scalar();
  }

  private static MemorySegment vec(Arena a, ElementType t, double... v) {
    MemorySegment m = a.allocate((long) v.length * t.bytes());
    for (int i = 0; i < v.length; i++) set(m, t, i, v[i]);
    return m;
  }

  private static void assertVec(
      MemorySegment m, ElementType t, double tol, String name, double... want) {
    for (int i = 0; i < want.length; i++)
      assertEquals(
          want[i], get(m, t, i), tol * Math.max(1, Math.abs(want[i])), name + "[" + i + "]");
  }

  /** Relative tolerance: a few roundings of the element type (and one expm1 in ScInOL1). */
  private static double tol(ElementType t) {
    return t == ElementType.FLOAT ? 1e-6 : 1e-15;
  }

  @ParameterizedTest
  @CsvSource(delimiter = ',', textBlock = ALL)
  void scinol1TwoRounds(String impl, ElementType t) {
    ScInOL1Kernel k = ScInOL1Kernel.of(provider(impl), t);
    try (Arena a = Arena.ofConfined()) {
      MemorySegment bigG = vec(a, t, 0, 0),
          s2 = vec(a, t, 0, 0),
          m = vec(a, t, 0, 0),
          beta = vec(a, t, 1, 1);
      // Round 1, t = 1: M = (|2|, |-0.5|) = (2, 0.5).
      // beta_1 = min(1, 1*(0 + 4)/(4*1)) = 1, beta_2 = min(1, 1*(0 + 0.25)/(0.25*1)) = 1.
      // s = (2, 0.5), theta = G/s = (0, 0): w = beta sgn(0) expm1(0)/(2s) = 0, yhat = 0.
      double y1 = k.predictDense(bigG, s2, m, beta, vec(a, t, 2, -0.5), 2, 1, 1);
      assertEquals(0.0, y1);
      assertVec(m, t, 0, "M", 2, 0.5);
      assertVec(beta, t, 0, "beta", 1, 1);
      // Update g = -0.5: G = (0 - (-0.5*2), 0 - (-0.5*-0.5)) = (1, -0.25); S2 = (1, 0.0625).
      k.updateDense(bigG, s2, vec(a, t, 2, -0.5), 2, -0.5);
      assertVec(bigG, t, 0, "G", 1, -0.25);
      assertVec(s2, t, 0, "S2", 1, 0.0625);
      // Round 2, t = 2, x = (1, 1): M = (2, 1).
      // beta_1 = min(1, (1 + 4)/(1*2) = 2.5) = 1; beta_2 = min(1, (0.0625 + 1)/(1*2)) = 0.53125.
      // s_1 = sqrt(5) = 2.23606797749979, theta_1 = 1/sqrt(5) = 0.4472135954999579,
      //   expm1(theta_1/2) = 0.2505791921887124, w_1 = 1 * 1 * 0.2505791921887124 /
      // 4.47213595499958
      //   = 0.056031210748094515.
      // s_2 = sqrt(1.0625) = 1.0307764064044151, theta_2 = -0.25/s_2 = -0.24253562503633297,
      //   expm1(|theta_2|/2) = 0.1289272127252936, w_2 = 0.53125 * -1 * 0.1289272127252936 /
      // 2.0615528128088303
      //   = -0.03322378225517893.
      // yhat = w_1 + w_2 = 0.022807428492915588.
      double y2 = k.predictDense(bigG, s2, m, beta, vec(a, t, 1, 1), 2, 2, 1);
      assertVec(m, t, 0, "M", 2, 1);
      assertVec(beta, t, tol(t), "beta", 1, 0.53125);
      assertEquals(0.022807428492915588, y2, 1e-12 + tol(t) * 0.06 * 4);
      MemorySegment w = vec(a, t, 9, 9);
      k.weights(bigG, s2, m, beta, w, 2);
      assertVec(w, t, tol(t) * 4, "w", 0.056031210748094515, -0.03322378225517893);
      // Update g = 1: G = (1 - 1, -0.25 - 1) = (0, -1.25); S2 = (1 + 1, 0.0625 + 1) = (2, 1.0625).
      k.updateDense(bigG, s2, vec(a, t, 1, 1), 2, 1);
      assertVec(bigG, t, 0, "G", 0, -1.25);
      assertVec(s2, t, 0, "S2", 2, 1.0625);
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = ',', textBlock = ALL)
  void scinol2TwoRounds(String impl, ElementType t) {
    ScInOL2Kernel k = ScInOL2Kernel.of(provider(impl), t);
    try (Arena a = Arena.ofConfined()) {
      MemorySegment bigG = vec(a, t, 0, 0),
          s2 = vec(a, t, 0, 0),
          m = vec(a, t, 0, 0),
          eta = vec(a, t, 1, 1);
      // Round 1: M = (2, 0.5), theta = 0, w = 0, yhat = 0.
      assertEquals(0.0, k.predictDense(bigG, s2, m, eta, vec(a, t, 2, -0.5), 2));
      // Update g = -0.5: G = (1, -0.25), S2 = (1, 0.0625), eta = 1 - (g x) * 0 = (1, 1).
      k.updateDense(bigG, s2, m, eta, vec(a, t, 2, -0.5), 2, -0.5);
      assertVec(bigG, t, 0, "G", 1, -0.25);
      assertVec(s2, t, 0, "S2", 1, 0.0625);
      assertVec(eta, t, 0, "eta", 1, 1);
      // Round 2, x = (1, 1): M = (2, 1); |theta| < 1 on both, so w = theta eta/(2s) = G eta/(2 (S2
      // + M^2)):
      // w_1 = 1/(2*5) = 0.1, w_2 = -0.25/(2*1.0625) = -2/17; yhat = 0.1 - 2/17 = -3/170.
      double y2 = k.predictDense(bigG, s2, m, eta, vec(a, t, 1, 1), 2);
      assertEquals(-3.0 / 170, y2, tol(t));
      // Update g = 1: G = (0, -1.25), S2 = (2, 1.0625), eta = (1 - 1*0.1, 1 - 1*(-2/17)) = (0.9,
      // 19/17).
      k.updateDense(bigG, s2, m, eta, vec(a, t, 1, 1), 2, 1);
      assertVec(bigG, t, 0, "G", 0, -1.25);
      assertVec(s2, t, 0, "S2", 2, 1.0625);
      assertVec(eta, t, tol(t), "eta", 0.9, 19.0 / 17);
    }
  }

  /**
   * x_1 = 2^-80: in float its square underflows to 0 (2^-160 < 2^-149), so beta_1 must stay epsilon
   * (the literal 0/0 = 0 would zero it for good), and S2 + M^2 = 0 means s = 0 and w = 0 even after
   * G became non-zero. In double nothing underflows and the normal rule applies.
   */
  @ParameterizedTest
  @CsvSource(delimiter = ',', textBlock = ALL)
  void underflowKeepsBetaAndZeroScaleGivesZeroWeight(String impl, ElementType t) {
    ScInOL1Kernel k1 = ScInOL1Kernel.of(provider(impl), t);
    ScInOL2Kernel k2 = ScInOL2Kernel.of(provider(impl), t);
    int n = 19; // vector body and scalar tail
    double tiny = 0x1p-80;
    try (Arena a = Arena.ofConfined()) {
      double[] xs = new double[n];
      java.util.Arrays.fill(xs, tiny);
      MemorySegment x = vec(a, t, xs);
      MemorySegment bigG = vec(a, t, new double[n]),
          s2 = vec(a, t, new double[n]),
          m = vec(a, t, new double[n]);
      MemorySegment beta = vec(a, t, new double[n]), w = vec(a, t, new double[n]);
      ScInOLVectorScalarTest.fill(beta, t, n, 1.0);
      MemorySegment bigG2 = vec(a, t, new double[n]),
          s22 = vec(a, t, new double[n]),
          m2 = vec(a, t, new double[n]);
      MemorySegment eta = vec(a, t, new double[n]);
      ScInOLVectorScalarTest.fill(eta, t, n, 1.0);
      for (int round = 1; round <= 3; round++) {
        double y1 = k1.predictDense(bigG, s2, m, beta, x, n, round, 1);
        double y2 = k2.predictDense(bigG2, s22, m2, eta, x, n);
        assertFalse(Double.isNaN(y1) || Double.isNaN(y2));
        for (int i = 0; i < n; i++) {
          if (t == ElementType.FLOAT) {
            assertEquals(
                Double.valueOf(1.0),
                Double.valueOf(get(beta, t, i)),
                "beta kept where x^2 underflows");
          } else {
            // (S2 + M^2)/(x^2 t) = (S2 + x^2)/(x^2 t) >= 1/t, so beta = min(1, ...) follows the
            // rule.
            assertEquals(
                Math.min(1.0, (get(s2, t, i) + tiny * tiny) / (tiny * tiny * round)),
                get(beta, t, i),
                1e-15);
          }
        }
        k1.updateDense(bigG, s2, x, n, 0.75);
        k2.updateDense(bigG2, s22, m2, eta, x, n, 0.75);
      }
      k1.weights(bigG, s2, m, beta, w, n);
      for (int i = 0; i < n; i++) {
        double wi = get(w, t, i);
        assertFalse(Double.isNaN(wi));
        if (t == ElementType.FLOAT) {
          assertEquals(
              Double.valueOf(-0.75 * 3 * tiny),
              Double.valueOf(get(bigG, t, i)),
              "G keeps accumulating");
          assertEquals(
              Double.valueOf(0.0), Double.valueOf(wi), "s == 0 gives w = 0 although G != 0");
        }
      }
      k2.weights(bigG2, s22, m2, eta, w, n);
      for (int i = 0; i < n; i++) {
        assertFalse(Double.isNaN(get(w, t, i)));
        assertFalse(Double.isNaN(get(eta, t, i)));
        if (t == ElementType.FLOAT) assertEquals(0.0, get(w, t, i));
      }
    }
  }

  /**
   * Float ScInOL1 past exp's range: G = 400, S2 = 0, M = 1 gives theta = 400, |theta|/2 = 200,
   * beyond float's exp range (88.7). The documented outcome (ScInOL1Kernel, issue 6): the exponent
   * saturates at FLOAT_EXP_CAP = 64, so every w_i = beta * expm1(64) / (2 s) = expm1(64) / 2
   * (finite, about 3.1e27), yhat = the 19 coordinates with x = 1 times that (coordinates with x = 0
   * contribute exactly 0), and the state stays finite because G, S2, M, beta never read w.
   */
  @ParameterizedTest
  @CsvSource({"vector", "scalar"})
  void floatExpOverflowNeverPutsNaNIntoState(String impl) {
    ElementType t = ElementType.FLOAT;
    ScInOL1Kernel k = ScInOL1Kernel.of(provider(impl), t);
    int n = 37;
    try (Arena a = Arena.ofConfined()) {
      MemorySegment bigG = vec(a, t, new double[n]),
          s2 = vec(a, t, new double[n]),
          m = vec(a, t, new double[n]);
      MemorySegment beta = vec(a, t, new double[n]),
          x = vec(a, t, new double[n]),
          w = vec(a, t, new double[n]);
      for (int i = 0; i < n; i++) {
        set(bigG, t, i, 400);
        set(m, t, i, 1);
        set(beta, t, i, 1);
        set(x, t, i, i % 2 == 0 ? 1 : 0);
      }
      float capped = (float) Math.expm1(ScInOL1.FLOAT_EXP_CAP) / 2;
      double y = k.predictDense(bigG, s2, m, beta, x, n, 1, 1);
      // 19 equal float terms summed in float: at most 19 roundings of 2^-24 relative each.
      assertEquals(19.0 * capped, y, 19 * 0x1p-24 * 19.0 * capped);
      k.weights(bigG, s2, m, beta, w, n);
      // Both kernels run the same expm1 polynomial, within 2 ulps of Math.expm1 (its contract,
      // VectorExpm1Test); the halving after it is exact.
      double expm1Ulps = 2 * Math.ulp(capped);
      for (int i = 0; i < n; i++) assertEquals(capped, get(w, t, i), expm1Ulps, "w[" + i + "]");
      k.updateDense(bigG, s2, x, n, -1);
      for (int i = 0; i < n; i++) {
        assertEquals(i % 2 == 0 ? 401 : 400, get(bigG, t, i));
        assertEquals(i % 2 == 0 ? 1 : 0, get(s2, t, i));
        assertEquals(1.0, get(beta, t, i));
      }
    }
  }
}
