package org.onlinekernels.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.scinol1.ReferenceScInOL1;
import org.onlinekernels.rules.scinol2.ReferenceScInOL2;

/** Hand-worked rounds of ScInOL1 and ScInOL2 (ALGORITHMS.md sections 3 and 4). */
class ReferenceScInOLTest {

  @Test
  void scInOL1FirstRounds() {
    ReferenceScInOL1 a = new ReferenceScInOL1(2, ScInOLParams.defaults());
    assertEquals(Double.valueOf(1), Double.valueOf(a.t()));
    // Round 1, x = (2, 0): M_0 = 2; beta_0 = min(1, 1*(0 + 4)/(4*1)) = 1; s = 2, theta = 0/2 = 0,
    // w_0 = 1 * sgn(0) * ... = 0; yhat = 0. Coordinate 1 untouched.
    assertEquals(Double.valueOf(0), Double.valueOf(a.predict(new double[] {2, 0})));
    assertArrayEquals(new double[] {2, 0}, a.m());
    assertArrayEquals(new double[] {1, 1}, a.beta());
    // Update g = -0.5: gx = -1; G_0 = 1, S2_0 = 1; t = 2.
    a.update(-0.5);
    assertArrayEquals(new double[] {1, 0}, a.bigG());
    assertArrayEquals(new double[] {1, 0}, a.s2());
    assertEquals(Double.valueOf(2), Double.valueOf(a.t()));
    // Round 2, x = (1, 1):
    //   coord 0: M = 2; beta = min(1, (1 + 4)/(1*2) = 2.5) = 1; s = sqrt 5, theta = 1/sqrt 5,
    //            w_0 = 1 * (exp(theta/2) - 1) / (2 sqrt 5);
    //   coord 1: M = 1; beta = min(1, (0 + 1)/(1*2)) = 0.5; s = 1, theta = 0, w_1 = 0.
    double s5 = Math.sqrt(5);
    double w0 = (Math.exp(1 / s5 / 2) - 1) / (2 * s5);
    assertEquals(w0, a.predict(new double[] {1, 1}), 1e-15 * w0);
    assertArrayEquals(new double[] {1, 0.5}, a.beta());
    // Update g = 1: G = (0, -1), S2 = (2, 1), t = 3.
    a.update(1);
    assertArrayEquals(new double[] {0, -1}, a.bigG());
    assertArrayEquals(new double[] {2, 1}, a.s2());
    assertEquals(Double.valueOf(3), Double.valueOf(a.t()));
    // Read-out (x = 0): w_0: theta = 0/sqrt 6 = 0 -> 0; w_1: s = sqrt(1 + 1), theta = -1/sqrt 2,
    // w_1 = 0.5 * (-1) * (exp(1/(2 sqrt 2)) - 1) / (2 sqrt 2).
    double s2 = Math.sqrt(2);
    double w1 = 0.5 * -1 * (Math.exp(1 / s2 / 2) - 1) / (2 * s2);
    double[] w = a.weights();
    assertEquals(Double.valueOf(0), Double.valueOf(w[0]));
    assertEquals(w1, w[1], 1e-15 * Math.abs(w1));
  }

  @Test
  void scInOL1ZeroConventions() {
    ReferenceScInOL1 a = new ReferenceScInOL1(2, ScInOLParams.defaults());
    // Fresh: s = 0 everywhere, so w = 0 (theta would be 0/0 = 0).
    assertArrayEquals(new double[] {0, 0}, a.weights());
    // x_0 = 1e-200: M_0 = 1e-200, but x^2 = M^2 = 0 (underflow): beta stays epsilon (the literal
    // 0/0 = 0 would set it to 0 for good); s = 0 -> w_0 = 0.
    assertEquals(Double.valueOf(0), Double.valueOf(a.predict(new double[] {1e-200, 0})));
    assertArrayEquals(new double[] {1, 1}, a.beta());
    a.update(1);
    // G_0 = -1e-200 != 0, S2_0 = 0 (underflow): theta would be c/0 = -inf, but s = 0 -> w_0 = 0.
    assertEquals(Double.valueOf(-1e-200), Double.valueOf(a.bigG()[0]));
    assertArrayEquals(new double[] {0, 0}, a.weights());
    // A normal input later: beta_0 = min(1, (0 + 1)/(1*2)) = 0.5 -- beta was not killed.
    a.predict(new double[] {1, 0});
    assertEquals(Double.valueOf(0.5), Double.valueOf(a.beta()[0]));
  }

  @Test
  void scInOL1CoordinateFirstSeenLate() {
    ReferenceScInOL1 a = new ReferenceScInOL1(2, ScInOLParams.defaults());
    for (int t = 1; t <= 50; t++) {
      a.predict(new double[] {1, 0});
      a.update(t % 2 == 0 ? 0.3 : -0.4);
    }
    assertEquals(Double.valueOf(51), Double.valueOf(a.t()));
    assertArrayEquals(new double[] {0, 0, 1}, new double[] {a.m()[1], a.s2()[1], a.beta()[1]});
    // Round 51, x_1 = 3: M = 3, beta_1 = min(1, (0 + 9)/(9*51)) = 1/51; s = 3, theta = 0, w_1 = 0.
    a.predictSparse(new int[] {1}, new double[] {3}, 1);
    assertEquals(Double.valueOf(9.0 / (9 * 51.0)), Double.valueOf(a.beta()[1]));
    assertEquals(Double.valueOf(3), Double.valueOf(a.m()[1]));
  }

  @Test
  void scInOL1AllZeroInstanceOnlyAdvancesT() {
    ReferenceScInOL1 a = new ReferenceScInOL1(3, ScInOLParams.defaults());
    a.predict(new double[] {1, -2, 0.5});
    a.update(0.4);
    double[][] before = {a.bigG().clone(), a.s2().clone(), a.m().clone(), a.beta().clone()};
    assertEquals(Double.valueOf(0), Double.valueOf(a.predict(new double[3])));
    a.update(-0.9);
    assertArrayEquals(before, new double[][] {a.bigG(), a.s2(), a.m(), a.beta()});
    assertEquals(Double.valueOf(3), Double.valueOf(a.t()));
  }

  @Test
  void scInOL2FirstRounds() {
    ReferenceScInOL2 a = new ReferenceScInOL2(2, ScInOLParams.defaults());
    // Round 1, x = (2, 0): M_0 = 2, s = 2, theta = 0 -> w_0 = 0, yhat = 0.
    assertEquals(Double.valueOf(0), Double.valueOf(a.predict(new double[] {2, 0})));
    // g = -0.5: gx = -1; G_0 = 1, S2_0 = 1, eta_0 = 1 - (-1)(0) = 1.
    a.update(-0.5);
    assertArrayEquals(new double[] {1, 0}, a.bigG());
    assertArrayEquals(new double[] {1, 0}, a.s2());
    assertArrayEquals(new double[] {1, 1}, a.eta());
    // Round 2, x = (1, 1): coord 0: s = sqrt 5, theta = 1/sqrt 5 < 1,
    // w_0 = theta * 1 / (2 sqrt 5) = 1/10; coord 1: M = 1, s = 1, theta = 0, w_1 = 0. yhat = 0.1.
    assertEquals(0.1, a.predict(new double[] {1, 1}), 1e-16);
    // g = -1: coord 0: gx = -1, G = 2, S2 = 2, eta = 1 - (-1)(0.1) = 1.1;
    //         coord 1: gx = -1, G = 1, S2 = 1, eta = 1 - (-1)(0) = 1.
    a.update(-1);
    assertArrayEquals(new double[] {2, 1}, a.bigG());
    assertArrayEquals(new double[] {2, 1}, a.s2());
    assertEquals(1.1, a.eta()[0], 1e-15);
    assertEquals(Double.valueOf(1), Double.valueOf(a.eta()[1]));
    // Round 3, x = (1, 0): s = sqrt 6, theta = 2/sqrt 6 < 1, w_0 = (2/sqrt 6) * 1.1 / (2 sqrt 6)
    // = 1.1/6.
    assertEquals(1.1 / 6, a.predict(new double[] {1, 0}), 1e-15);
  }

  @Test
  void scInOL2ThetaClippedAndZeroConventions() {
    ReferenceScInOL2 a = new ReferenceScInOL2(3, ScInOLParams.defaults());
    // Fresh: s = 0 -> w = 0.
    assertArrayEquals(new double[] {0, 0, 0}, a.weights());
    // State G = 10, S2 = 3, M = 1, eta = 2 on coordinate 0: s = 2, theta = 5 -> min(5, 1) = 1,
    // w_0 = 1 * 1 * 2 / (2*2) = 0.5. Coordinate 1 with G = -10: w_1 = -0.5.
    a.bigG()[0] = 10;
    a.s2()[0] = 3;
    a.m()[0] = 1;
    a.eta()[0] = 2;
    a.bigG()[1] = -10;
    a.s2()[1] = 3;
    a.m()[1] = 1;
    a.eta()[1] = 2;
    assertArrayEquals(new double[] {0.5, -0.5, 0}, a.weights());
    // Update uses this round's w: x = (1, 0, 0), g = 1: eta_0 = 2 - 1*1*0.5 = 1.5.
    assertEquals(Double.valueOf(0.5), Double.valueOf(a.predict(new double[] {1, 0, 0})));
    a.update(1);
    assertEquals(Double.valueOf(1.5), Double.valueOf(a.eta()[0]));
    assertEquals(Double.valueOf(2), Double.valueOf(a.eta()[1]));
  }

  /**
   * Scale invariance (ALGORITHMS.md sections 3-4, the paper's Appendix B): multiplying feature i of
   * every instance by c_i > 0 multiplies G_i, M_i, sqrt(S2_i) by c_i and w_i by 1/c_i, so every
   * yhat is the same in real arithmetic. In double each state entry picks up a relative error of a
   * few ulps per round (products by c_i, sums, sqrt, exp), fed back through g = l'(yhat) with
   * |dl'/dyhat| <= 1/4 for logistic, so the error cannot blow up; a crude bound of a few ulps times
   * rounds times d is ~1e-12. 1e-9 (relative to 1 + |yhat|) leaves ample slack and still catches
   * any real dependence on scale, which would show up at order 1 for factors spanning 1e-3..1e3.
   */
  @Test
  void scaleInvariance() {
    for (int variant = 1; variant <= 2; variant++) {
      int d = 6;
      SplittableRandom r = new SplittableRandom(100 + variant);
      double[] c = new double[d];
      for (int i = 0; i < d; i++) c[i] = Math.pow(10, r.nextDouble(-3, 3));
      double[] u = new double[d];
      for (int i = 0; i < d; i++) u[i] = TestData.gaussian(r);
      ReferenceLinearModel plain =
          variant == 1
              ? new ReferenceScInOL1(d, ScInOLParams.defaults())
              : new ReferenceScInOL2(d, ScInOLParams.defaults());
      ReferenceLinearModel scaled =
          variant == 1
              ? new ReferenceScInOL1(d, ScInOLParams.defaults())
              : new ReferenceScInOL2(d, ScInOLParams.defaults());
      double maxRel = 0;
      for (int t = 0; t < 300; t++) {
        double[] x = TestData.dense(r, d, 0.3, t, 40);
        double margin = 0;
        for (int i = 0; i < d; i++) margin += u[i] * x[i];
        double y = margin + 0.3 * TestData.gaussian(r) >= 0 ? 1 : -1;
        double[] xs = new double[d];
        for (int i = 0; i < d; i++) xs[i] = x[i] * c[i];
        double a = plain.predict(x);
        double b = scaled.predict(xs);
        double rel = Math.abs(a - b) / (1 + Math.abs(a));
        maxRel = Math.max(maxRel, rel);
        assertEquals(a, b, 1e-9 * (1 + Math.abs(a)), "ScInOL" + variant + " round " + t);
        plain.update(Loss.LOGISTIC.derivative(y, a));
        scaled.update(Loss.LOGISTIC.derivative(y, b));
      }
      // Observed: about 1e-16 (ScInOL1) and 3e-16 (ScInOL2), far inside the bound.
      assertEquals(0, maxRel, 1e-9);
    }
  }
}
