package org.onlinekernels.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.onlinekernels.params.AdaptiveOgdParams;
import org.onlinekernels.rules.aogd.ReferenceAdaptiveOgdBall;
import org.onlinekernels.rules.aogd.ReferenceAdaptiveOgdCoordinate;

/** Hand-worked steps of Adaptive OGD (ALGORITHMS.md section 2), ball and per-coordinate. */
class ReferenceAdaptiveOgdTest {

  @Test
  void ballFirstStepProjects() {
    ReferenceAdaptiveOgdBall a = new ReferenceAdaptiveOgdBall(2, AdaptiveOgdParams.radius(1.0));
    // g = (3, 4), H = 0: s = 0, G^2 = 25, c = 8*25/3 = 200/3,
    // lambda = c / (2 (sqrt(c) + 0)) = sqrt(c)/2 ~ 4.08; eta = 1/lambda;
    // v = 0 - eta (g + 0) = -g / lambda, ||v|| = 5/lambda ~ 1.22 > 1 = R, so w = v/||v|| = (-0.6,
    // -0.8).
    a.step(new double[] {3, 4});
    double lambda = Math.sqrt(200.0 / 3) / 2;
    assertEquals(lambda, a.lSum(), 1e-15 * lambda);
    assertEquals(Double.valueOf(0), Double.valueOf(a.hSum()));
    assertArrayEquals(new double[] {-0.6, -0.8}, a.w(), 1e-15);
  }

  @Test
  void ballStepWithCurvatureInside() {
    ReferenceAdaptiveOgdBall a = new ReferenceAdaptiveOgdBall(2, AdaptiveOgdParams.radius(1.0));
    a.w()[0] = 0.5;
    a.w()[1] = 0.25;
    // g = (3, 0), H = 1: Hsum = 1, s = 1, c = 8*9/3 = 24, lambda = 24 / (2 (sqrt(25) + 1)) = 2;
    // Lsum = 2, eta = 1/3; v = w - (g + 2w)/3 = (0.5 - 4/3, 0.25 - 0.5/3) = (-5/6, 1/12);
    // ||v|| = sqrt(101)/12 ~ 0.84 <= 1: no scaling.
    a.step(new double[] {3, 0}, 1);
    assertEquals(Double.valueOf(1), Double.valueOf(a.hSum()));
    assertEquals(Double.valueOf(2), Double.valueOf(a.lSum()));
    assertArrayEquals(new double[] {-5.0 / 6, 1.0 / 12}, a.w(), 1e-15);
  }

  @Test
  void ballZeroCurvatureAndZeroGradientIsNoChange() {
    ReferenceAdaptiveOgdBall a = new ReferenceAdaptiveOgdBall(2, AdaptiveOgdParams.radius(1.0));
    a.w()[0] = 0.3;
    a.w()[1] = -0.4;
    // H = 0 and G = 0 at Hsum = Lsum = 0: s = 0, c = 0, lambda = 0/0 = 0, Hsum + Lsum = 0:
    // eta undefined, no change (and no NaN).
    a.step(new double[] {0, 0});
    a.stepSparse(new int[0], new double[0], 0, 0);
    // G^2 underflows: (1e-200)^2 = 0, the same.
    a.step(new double[] {1e-200, 0});
    assertArrayEquals(new double[] {0.3, -0.4}, a.w());
    assertEquals(Double.valueOf(0), Double.valueOf(a.lSum()));
    // Once Hsum > 0 a zero gradient gives lambda = 0/(2(2s)) = 0 and v = w: unchanged.
    a.step(new double[] {0, 0}, 2);
    assertArrayEquals(new double[] {0.3, -0.4}, a.w());
    assertEquals(Double.valueOf(2), Double.valueOf(a.hSum()));
  }

  @Test
  void ballSparseShrinksEveryCoordinate() {
    ReferenceAdaptiveOgdBall a = new ReferenceAdaptiveOgdBall(3, AdaptiveOgdParams.radius(1.0));
    a.w()[2] = 0.5;
    // Gradient only on coordinate 0, g = 3, H = 1: as above lambda = 2, eta = 1/3, so the untouched
    // coordinate 2 shrinks: v_2 = 0.5 - (0 + 2*0.5)/3 = 1/6, and v_0 = 0 - (3 + 0)/3 = -1.
    // ||v|| = sqrt(1 + 1/36) = sqrt(37)/6 > 1: w = v * 6/sqrt(37) = (-6/sqrt 37, 0, 1/sqrt 37).
    a.stepSparse(new int[] {0}, new double[] {3}, 1, 1);
    double s37 = Math.sqrt(37);
    assertArrayEquals(new double[] {-6 / s37, 0, 1 / s37}, a.w(), 1e-15);
  }

  @Test
  void ballLinearForm() {
    ReferenceAdaptiveOgdBall a = new ReferenceAdaptiveOgdBall(2, AdaptiveOgdParams.radius(1.0));
    // x = (1.5, 2), g = 2 -> gradient (3, 4): the first-step example above.
    assertEquals(Double.valueOf(0), Double.valueOf(a.predict(new double[] {1.5, 2})));
    a.update(2);
    assertArrayEquals(new double[] {-0.6, -0.8}, a.w(), 1e-15);
    // yhat = <w, (1, 1)> = -1.4.
    assertEquals(-1.4, a.predict(new double[] {1, 1}), 1e-15);
    a.update(0, 0.5);
    assertEquals(Double.valueOf(0.5), Double.valueOf(a.hSum()));
  }

  @Test
  void coordinateFirstSteps() {
    ReferenceAdaptiveOgdCoordinate a =
        new ReferenceAdaptiveOgdCoordinate(2, AdaptiveOgdParams.radius(1.0));
    // Round 1, g = (3, 0), H = 1: Hsum = 1; coordinate 0: s = 1, c = 8*9/(3*1) = 24,
    // lambda = 24/(2 (5 + 1)) = 2, Lsum_0 = 2, eta = 1/3, w_0 = clamp(0 - (3 + 0)/3) = -1.
    // Coordinate 1 (g = 0) is skipped: Lsum_1 = 0.
    a.step(new double[] {3, 0}, 1);
    assertEquals(Double.valueOf(1), Double.valueOf(a.hSum()));
    assertArrayEquals(new double[] {2, 0}, a.lSum());
    assertArrayEquals(new double[] {-1, 0}, a.w(), 1e-15);
    // Round 2, g = (0, 3), H = 0: Hsum = 1; coordinate 1 sees s = 1 + 0, so the same numbers.
    a.stepSparse(new int[] {1}, new double[] {3}, 1, 0);
    assertArrayEquals(new double[] {2, 2}, a.lSum());
    assertArrayEquals(new double[] {-1, -1}, a.w(), 1e-15);
    // Round 3, g = (-1, 0), H = 0: coordinate 0: s = 1 + 2 = 3, c = 8/3,
    // lambda = c / (2 (sqrt(9 + 8/3) + 3)), eta = 1/(3 + lambda),
    // w_0 = -1 - eta (-1 + lambda * -1) = -1 + eta (1 + lambda).
    a.step(new double[] {-1, 0});
    double c = 8.0 / 3;
    double lambda = c / (2 * (Math.sqrt(9 + c) + 3));
    double eta = 1 / (3 + lambda);
    assertEquals(2 + lambda, a.lSum()[0], 1e-15);
    assertEquals(-1 + eta * (1 + lambda), a.w()[0], 1e-15);
  }

  @Test
  void coordinatePerCoordinateRadiiClamp() {
    ReferenceAdaptiveOgdCoordinate a =
        new ReferenceAdaptiveOgdCoordinate(2, AdaptiveOgdParams.radii(new double[] {1, 0.1}));
    // Coordinate 1 with R = 0.1, g = 3, H = 0: s = 0, c = 8*9/(3*0.01) = 2400,
    // lambda = sqrt(2400)/2 ~ 24.5, eta = 1/lambda, w_1 = -3/lambda ~ -0.122 -> clamped to -0.1.
    a.step(new double[] {0, 3});
    assertEquals(Math.sqrt(2400) / 2, a.lSum()[1], 1e-13);
    assertEquals(Double.valueOf(-0.1), Double.valueOf(a.w()[1]));
    assertEquals(Double.valueOf(0), Double.valueOf(a.w()[0]));
  }

  @Test
  void coordinateZeroCurvatureZeroGradient() {
    ReferenceAdaptiveOgdCoordinate a =
        new ReferenceAdaptiveOgdCoordinate(2, AdaptiveOgdParams.radius(1.0));
    a.w()[0] = 0.5;
    // g_0 = 1e-200 is nonzero but its square underflows: c = 0, s = 0, lambda = 0/0 = 0,
    // Hsum + Lsum_0 = 0: unchanged, no NaN.
    a.step(new double[] {1e-200, 0});
    assertArrayEquals(new double[] {0.5, 0}, a.w());
    assertArrayEquals(new double[] {0, 0}, a.lSum());
    // With Hsum = 1 the same gradient takes a plain step of eta = 1: 0.5 - 1e-200 = 0.5 in double.
    a.setHSum(1);
    a.step(new double[] {0, 1e-200});
    assertEquals(Double.valueOf(-1e-200), Double.valueOf(a.w()[1]));
  }

  @Test
  void coordinateLinearForm() {
    ReferenceAdaptiveOgdCoordinate a =
        new ReferenceAdaptiveOgdCoordinate(2, AdaptiveOgdParams.radius(1.0));
    // x = (1.5, 0), g = 2, H = 1 -> gradient (3, 0) with H = 1: the first round above.
    a.predict(new double[] {1.5, 0});
    a.update(2, 1);
    assertArrayEquals(new double[] {-1, 0}, a.w(), 1e-15);
    assertEquals(Double.valueOf(1), Double.valueOf(a.hSum()));
  }
}
