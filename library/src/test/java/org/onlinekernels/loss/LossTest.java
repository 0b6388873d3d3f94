package org.onlinekernels.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LossTest {
  @Test
  void logisticValuesAndDerivatives() {
    // yhat = 0: ln(1 + e^0) = ln 2, derivative -y / (1 + 1) = -y/2 (exact).
    assertEquals(Math.log(2), Loss.LOGISTIC.value(1, 0), 1e-16);
    assertEquals(Double.valueOf(-0.5), Double.valueOf(Loss.LOGISTIC.derivative(1, 0)));
    assertEquals(Double.valueOf(0.5), Double.valueOf(Loss.LOGISTIC.derivative(-1, 0)));
    // y = 1, yhat = 2: ln(1 + e^-2); derivative -1 / (1 + e^2).
    assertEquals(Math.log(1 + Math.exp(-2)), Loss.LOGISTIC.value(1, 2), 1e-15 * 0.127);
    assertEquals(-1 / (1 + Math.exp(2)), Loss.LOGISTIC.derivative(1, 2), 1e-16);
    // y = -1, yhat = 2 (z = -2): ln(1 + e^2); derivative 1 / (1 + e^-2).
    assertEquals(Math.log(1 + Math.exp(2)), Loss.LOGISTIC.value(-1, 2), 1e-15);
    assertEquals(1 / (1 + Math.exp(-2)), Loss.LOGISTIC.derivative(-1, 2), 1e-16);
  }

  @Test
  void logisticIsStableAtLargeMargins() {
    // z = 1000: the loss is e^-1000, below the smallest double, so 0; the naive ln(1 + e^1000)
    // would be +inf on the wrong side.
    assertEquals(Double.valueOf(0.0), Double.valueOf(Loss.LOGISTIC.value(1, 1e3)));
    // z = -1000: ln(1 + e^1000) = 1000 + ln(1 + e^-1000) = 1000 exactly in double.
    assertEquals(Double.valueOf(1000.0), Double.valueOf(Loss.LOGISTIC.value(-1, 1e3)));
    assertEquals(Double.valueOf(1000.0), Double.valueOf(Loss.LOGISTIC.value(1, -1e3)));
    // Derivative limits: -y / (1 + e^z) -> 0 for z -> +inf (from below for y = 1: -0.0), -> -y for
    // z -> -inf.
    assertEquals(Double.valueOf(-0.0), Double.valueOf(Loss.LOGISTIC.derivative(1, 1e3)));
    assertEquals(Double.valueOf(1.0), Double.valueOf(Loss.LOGISTIC.derivative(-1, 1e3)));
    assertEquals(Double.valueOf(-1.0), Double.valueOf(Loss.LOGISTIC.derivative(1, -1e3)));
    for (Loss l : Loss.values()) {
      for (double y : new double[] {1, -1}) {
        for (double yhat : new double[] {1e3, -1e3}) {
          assertTrue(Double.isFinite(l.value(y, yhat)), l + " value");
          assertTrue(Double.isFinite(l.derivative(y, yhat)), l + " derivative");
        }
      }
    }
    // A small but representable tail is kept (log1p), not rounded to 0: ln(1 + e^-30) =
    // e^-30 - e^-60/2 + ... ~ 9.36e-14; the naive ln(1 + e^-30) would keep only ~3 digits.
    double e30 = Math.exp(-30);
    assertEquals(e30 - e30 * e30 / 2, Loss.LOGISTIC.value(1, 30), 1e-15 * e30);
  }

  @Test
  void hinge() {
    assertEquals(Double.valueOf(0.5), Double.valueOf(Loss.HINGE.value(1, 0.5)));
    assertEquals(Double.valueOf(-1.0), Double.valueOf(Loss.HINGE.derivative(1, 0.5)));
    // At the kink y yhat = 1 the table fixes the subgradient -y.
    assertEquals(Double.valueOf(0.0), Double.valueOf(Loss.HINGE.value(1, 1)));
    assertEquals(Double.valueOf(-1.0), Double.valueOf(Loss.HINGE.derivative(1, 1)));
    assertEquals(Double.valueOf(1.0), Double.valueOf(Loss.HINGE.derivative(-1, -1)));
    assertEquals(Double.valueOf(0.0), Double.valueOf(Loss.HINGE.value(1, 2)));
    assertEquals(Double.valueOf(0.0), Double.valueOf(Loss.HINGE.derivative(1, 2)));
    assertEquals(Double.valueOf(3.0), Double.valueOf(Loss.HINGE.value(-1, 2)));
    assertEquals(Double.valueOf(1.0), Double.valueOf(Loss.HINGE.derivative(-1, 2)));
  }

  @Test
  void absolute() {
    assertEquals(Double.valueOf(2.0), Double.valueOf(Loss.ABSOLUTE.value(1, 3)));
    assertEquals(Double.valueOf(1.0), Double.valueOf(Loss.ABSOLUTE.derivative(1, 3)));
    assertEquals(Double.valueOf(-1.0), Double.valueOf(Loss.ABSOLUTE.derivative(1, -3)));
    // sgn(0) = 0, and +0.0 (not -0.0).
    assertEquals(Double.valueOf(0.0), Double.valueOf(Loss.ABSOLUTE.derivative(1, 1)));
    assertEquals(
        Double.doubleToRawLongBits(0.0),
        Double.doubleToRawLongBits(Loss.ABSOLUTE.derivative(-0.0, 0.0)));
  }

  @Test
  void squared() {
    // (3 - 1)^2 / 2 = 2, derivative 3 - 1 = 2.
    assertEquals(Double.valueOf(2.0), Double.valueOf(Loss.SQUARED.value(1, 3)));
    assertEquals(Double.valueOf(2.0), Double.valueOf(Loss.SQUARED.derivative(1, 3)));
    assertEquals(Double.valueOf(-1.5), Double.valueOf(Loss.SQUARED.derivative(0.5, -1)));
  }

  @Test
  void derivativeMatchesCentralFiniteDifference() {
    // Points away from the kinks of hinge (y yhat = 1) and absolute (yhat = y). The central
    // difference has error O(h^2) ~ 1e-12 plus rounding ~ 1e-16/h ~ 1e-10.
    double h = 1e-6;
    double[] ys = {1, -1, 0.3};
    double[] yhats = {-7.5, -2, -0.4, 0.1, 0.77, 3.2, 12};
    for (Loss l : Loss.values()) {
      for (double y : ys) {
        for (double yhat : yhats) {
          if (Math.abs(y * yhat - 1) < 1e-3 || Math.abs(yhat - y) < 1e-3) continue;
          double fd = (l.value(y, yhat + h) - l.value(y, yhat - h)) / (2 * h);
          assertEquals(
              fd,
              l.derivative(y, yhat),
              1e-6 * (1 + Math.abs(fd)),
              l + " y=" + y + " yhat=" + yhat);
        }
      }
    }
  }

  @Test
  void parse() {
    assertSame(Loss.LOGISTIC, Loss.parse("logistic"));
    assertSame(Loss.HINGE, Loss.parse(" HINGE "));
    assertSame(Loss.ABSOLUTE, Loss.parse("Absolute"));
    assertSame(Loss.SQUARED, Loss.parse("squared"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Loss.parse("log"));
    assertTrue(e.getMessage().contains("'log'"), e.getMessage());
    assertTrue(e.getMessage().contains("logistic, hinge, absolute, squared"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Loss.parse(null));
  }

  /** The fused call gives exactly the bits of value and derivative called apart, for every loss. */
  @Test
  void derivativeAndValueAreTheSeparateCallsBitForBit() {
    double[] special = {
      0.0,
      -0.0,
      1e-300,
      -1e-300,
      Double.MIN_VALUE,
      -Double.MIN_VALUE,
      0.5,
      -0.5,
      1,
      -1,
      36.7,
      -36.7,
      709.8,
      -709.8,
      745.2,
      -745.2,
      1e300,
      -1e300,
      Double.MAX_VALUE,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY,
      Double.NaN
    };
    java.util.SplittableRandom r = new java.util.SplittableRandom(11);
    double[] out = new double[3];
    for (Loss l : Loss.values()) {
      for (double y : new double[] {1, -1, 0.25, -3}) {
        for (int k = 0; k < special.length + 2000; k++) {
          double yhat =
              k < special.length
                  ? special[k]
                  : r.nextGaussian() * Math.scalb(1.0, r.nextInt(-30, 12));
          double g = l.derivativeAndValue(y, yhat, out, 1);
          String what = l + " y=" + y + " yhat=" + yhat;
          assertSameBits(l.derivative(y, yhat), g, what);
          assertSameBits(l.value(y, yhat), out[1], what);
          assertEquals(
              0,
              Double.doubleToRawLongBits(out[0]) | Double.doubleToRawLongBits(out[2]),
              what + ": only values[at] written");
        }
      }
    }
  }

  /**
   * The same bits, or both NaN: Java leaves the sign and payload of a NaN that arithmetic produces
   * unspecified, and C2 may swap the operands of a commutative operation between two compilations
   * (the sign of {@code y * NaN} then differs from run to run), so only NaN-ness can be claimed.
   */
  private static void assertSameBits(double want, double got, String what) {
    if (Double.isNaN(want) && Double.isNaN(got)) {
      return;
    }
    assertEquals(Double.doubleToRawLongBits(want), Double.doubleToRawLongBits(got), what);
  }
}
