package org.onlinekernels.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.Box;
import org.onlinekernels.params.GlobalAdaGradParams;
import org.onlinekernels.rules.adagrad.ReferenceAdaGrad;
import org.onlinekernels.rules.globaladagrad.ReferenceGlobalAdaGrad;

/** Hand-worked steps of the AdaGrad family (ALGORITHMS.md section 1). */
class ReferenceAdaGradTest {

  @Test
  void firstStepsScalarEtaNoBox() {
    ReferenceAdaGrad a = new ReferenceAdaGrad(2, AdaGradParams.eta(1.0));
    // g = (3, 4): Q = (9, 16); w_0 = 0 - 1*3/(0 + 3) = -1; w_1 = 0 - 1*4/(0 + 4) = -1 (exact).
    a.step(new double[] {3, 4});
    assertArrayEquals(new double[] {9, 16}, a.q());
    assertArrayEquals(new double[] {-1, -1}, a.w());
    // g = (0, 3): coordinate 0 skipped; Q_1 = 25, w_1 = -1 - 3/5 = -1.6.
    a.step(new double[] {0, 3});
    assertArrayEquals(new double[] {9, 25}, a.q());
    assertArrayEquals(new double[] {-1, -1 - 3.0 / 5}, a.w());
  }

  @Test
  void boxClampsAndRateFromWidth() {
    // eta_i = alpha * D_i = 0.5 * 4 = 2 on [-2, 2].
    ReferenceAdaGrad a =
        new ReferenceAdaGrad(2, AdaGradParams.alphaTimesWidth(0.5, Box.symmetric(2)));
    // g = (1, -2): Q = (1, 4); w_0 = clamp(0 - 2*1/1) = -2; w_1 = clamp(0 - 2*(-2)/2) = 2.
    a.step(new double[] {1, -2});
    assertArrayEquals(new double[] {-2, 2}, a.w());
    // g = (-1, 0): Q_0 = 2; w_0 = -2 + 2/sqrt(2) = -2 + sqrt(2).
    a.step(new double[] {-1, 0});
    assertEquals(Double.valueOf(-2 - (2.0 * -1) / Math.sqrt(2)), Double.valueOf(a.w()[0]));
    assertEquals(-2 + Math.sqrt(2), a.w()[0], 1e-15);
    // A step beyond the box is clamped: w_1 = clamp(2 - 2*(-10)/sqrt(104)) = 2.
    a.step(new double[] {0, -10});
    assertEquals(Double.valueOf(2), Double.valueOf(a.w()[1]));
  }

  @Test
  void deltaAndQ0() {
    // delta = 1, Q0 = 3; g = (1, 0): Q_0 = 4, denom = 1 + 2 = 3, w_0 = -1/3; coordinate 1 keeps Q0.
    ReferenceAdaGrad a = new ReferenceAdaGrad(2, AdaGradParams.eta(1.0).withDelta(1).withQ0(3));
    a.step(new double[] {1, 0});
    assertArrayEquals(new double[] {4, 3}, a.q());
    assertArrayEquals(new double[] {-1.0 / 3, 0}, a.w());
  }

  @Test
  void startsAtProjectionOfZero() {
    ReferenceAdaGrad a =
        new ReferenceAdaGrad(
            3,
            AdaGradParams.eta(1.0)
                .withBox(Box.perCoordinate(new double[] {1, -5, -3}, new double[] {2, -4, 3})));
    assertArrayEquals(new double[] {1, -4, 0}, a.weights());
  }

  @Test
  void linearModelForm() {
    ReferenceAdaGrad a = new ReferenceAdaGrad(3, AdaGradParams.eta(1.0));
    // x = (2, 0, -1), yhat = 0; g = 0.5 -> gradient (1, 0, -0.5): Q = (1, 0, 0.25);
    // w_0 = -1/1 = -1; w_2 = -(1 * -0.5)/0.5 = 1; coordinate 1 untouched.
    assertEquals(Double.valueOf(0), Double.valueOf(a.predict(new double[] {2, 0, -1})));
    a.update(0.5);
    assertArrayEquals(new double[] {1, 0, 0.25}, a.q());
    assertArrayEquals(new double[] {-1, 0, 1}, a.w());
    // yhat = 1*(-1) + 1*0 + 2*1 = 1.
    assertEquals(
        Double.valueOf(1),
        Double.valueOf(a.predictSparse(new int[] {0, 1, 2}, new double[] {1, 1, 2}, 3)));
  }

  @Test
  void zeroDenominatorLeavesCoordinateUnchanged() {
    ReferenceAdaGrad a = new ReferenceAdaGrad(3, AdaGradParams.eta(1.0));
    // delta = 0, Q0 = 0: a zero gradient (and -0.0) skips; g = 1e-200 squares to 0 (underflow),
    // so denom = 0 + sqrt(0) = 0 and the step size eta/0 is undefined: unchanged, no NaN/inf.
    a.step(new double[] {0, -0.0, 1e-200});
    assertArrayEquals(new double[] {0, 0, 0}, a.w());
    assertArrayEquals(new double[] {0, 0, 0}, a.q());
    // Once Q_2 > 0 the same tiny gradient does move: w_2 = 0 - 1e-200 / 1.
    a.q()[2] = 1;
    a.step(new double[] {0, 0, 1e-200});
    assertEquals(Double.valueOf(-1e-200), Double.valueOf(a.w()[2]));
    // With delta > 0 the underflowing gradient still takes a (tiny) step: denom = delta.
    ReferenceAdaGrad b = new ReferenceAdaGrad(1, AdaGradParams.eta(1.0).withDelta(0.5));
    b.step(new double[] {1e-200});
    assertEquals(Double.valueOf(-2e-200), Double.valueOf(b.w()[0]));
  }

  @Test
  void allZeroInstanceChangesNothing() {
    ReferenceAdaGrad a = new ReferenceAdaGrad(3, AdaGradParams.eta(1.0).withDelta(0.1));
    a.step(new double[] {1, -2, 3});
    double[] w = a.w().clone();
    double[] q = a.q().clone();
    a.predict(new double[3]);
    a.update(0.7);
    a.stepSparse(new int[0], new double[0], 0);
    a.step(new double[3]);
    assertArrayEquals(w, a.w());
    assertArrayEquals(q, a.q());
  }

  @Test
  void globalFirstSteps() {
    // D = 2 explicit, alpha = 1, delta = 0. g = (3, 4): sumSquares = 25, eta = 2 / sqrt(50);
    // w = (-3 eta, -4 eta).
    ReferenceGlobalAdaGrad a = new ReferenceGlobalAdaGrad(2, GlobalAdaGradParams.ofDiameter(2));
    a.step(new double[] {3, 4});
    assertEquals(Double.valueOf(25), Double.valueOf(a.sumSquares()));
    double eta = 2 / Math.sqrt(50);
    assertArrayEquals(new double[] {-eta * 3, -eta * 4}, a.w());
    // g = (0, 1): sumSquares = 26, eta = 2/sqrt(52); only coordinate 1 moves.
    a.step(new double[] {0, 1});
    double eta2 = 2 / Math.sqrt(52);
    assertArrayEquals(new double[] {-eta * 3, -eta * 4 - eta2}, a.w());
  }

  @Test
  void globalDiameterFromBoxAndClamp() {
    // Box [-1, 1]^2: D = sqrt(2) * 2. g = (1, 0): sumSquares = 1, eta = 2 sqrt(2) / sqrt(2) = 2;
    // w_0 = clamp(-2, -1, 1) = -1.
    ReferenceGlobalAdaGrad a =
        new ReferenceGlobalAdaGrad(2, GlobalAdaGradParams.of(Box.symmetric(1)));
    assertEquals(Double.valueOf(2 * Math.sqrt(2)), Double.valueOf(a.diameter()));
    a.step(new double[] {1, 0});
    assertArrayEquals(new double[] {-1, 0}, a.w());
    // Linear form: x = (0, 2), g = -0.25 -> gradient (0, -0.5): sumSquares = 1.25,
    // eta = 2 sqrt 2 / sqrt(2.5), w_1 = 0 + eta * 0.5 ~ 0.894 (inside the box).
    a.predict(new double[] {0, 2});
    a.update(-0.25);
    assertEquals(Double.valueOf(1.25), Double.valueOf(a.sumSquares()));
    assertEquals(
        Double.valueOf(0 - (1 * (2 * Math.sqrt(2)) / Math.sqrt(2.5)) * -0.5),
        Double.valueOf(a.w()[1]));
  }

  @Test
  void globalZeroDenominator() {
    ReferenceGlobalAdaGrad a = new ReferenceGlobalAdaGrad(2, GlobalAdaGradParams.ofDiameter(1));
    // All-zero gradient first: sumSquares = 0, denominator 0 + sqrt(0) = 0: no change.
    a.step(new double[] {0, 0});
    // ||g||^2 underflows: 1e-200^2 = 0, again denominator 0: no change, no NaN.
    a.step(new double[] {1e-200, -1e-200});
    assertArrayEquals(new double[] {0, 0}, a.w());
    assertEquals(Double.valueOf(0), Double.valueOf(a.sumSquares()));
    // With delta > 0 the step is alpha D / delta * g.
    ReferenceGlobalAdaGrad b =
        new ReferenceGlobalAdaGrad(1, GlobalAdaGradParams.ofDiameter(1).withDelta(4));
    b.step(new double[] {1e-200});
    assertEquals(Double.valueOf(-0.25e-200), Double.valueOf(b.w()[0]));
    assertTrue(Double.isFinite(b.w()[0]));
  }
}
