package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.params.AdaptiveOgdParams;
import org.onlinekernels.rules.aogd.AdaptiveOgdBallOptimizer;
import org.onlinekernels.rules.aogd.AdaptiveOgdCoordinateOptimizer;

/**
 * Found by the fuzz suite: a subnormal curvature makes {@code Hsum} so small that {@code eta = 1 /
 * Hsum} overflows the element type; a coordinate with {@code g_i = 0} must still be unchanged
 * (ALGORITHMS.md section 2), not {@code w - inf * 0 = NaN}.
 */
class AdaptiveOgdSubnormalCurvatureTest {
  @ParameterizedTest
  @CsvSource({"FLOAT,vector", "FLOAT,scalar", "DOUBLE,vector", "DOUBLE,scalar"})
  void zeroGradientCoordinatesStayUnchangedWhenEtaOverflows(ElementType t, String impl) {
    KernelProvider k = impl.equals("vector") ? KernelProvider.vector() : KernelProvider.scalar();
    int d = 9;
    try (Arena a = Arena.ofConfined();
        AdaptiveOgdCoordinateOptimizer o =
            new AdaptiveOgdCoordinateOptimizer(d, t, AdaptiveOgdParams.radius(3.0), a, k)) {
      MemorySegment x = a.allocate((long) d * t.bytes());
      for (int i = 0; i < d; i += 2) {
        if (t == ElementType.FLOAT) x.setAtIndex(ValueLayout.JAVA_FLOAT, i, 1.5f);
        else x.setAtIndex(ValueLayout.JAVA_DOUBLE, i, 1.5);
      }
      o.predict(x);
      o.update(0.7, t == ElementType.FLOAT ? Float.MIN_VALUE : Double.MIN_VALUE);
      MemorySegment w = o.state().get("w");
      for (int i = 0; i < d; i++) {
        double wi =
            t == ElementType.FLOAT
                ? w.getAtIndex(ValueLayout.JAVA_FLOAT, i)
                : w.getAtIndex(ValueLayout.JAVA_DOUBLE, i);
        if (i % 2 == 1) {
          assertEquals(
              Double.valueOf(0.0),
              Double.valueOf(wi),
              "w[" + i + "] had g = 0 and must be unchanged");
        } else {
          // g = 0.7 * 1.5 > 0: lambda = sqrt(c)/2 (s ~ 0), so eta = 1/lambda is finite and the
          // first step is -sqrt(3/2) R, clamped to the box edge -R.
          assertEquals(Double.valueOf(-3.0), Double.valueOf(wi), "w[" + i + "]");
        }
      }
    }
  }

  /**
   * The ball form computes one {@code eta = 1/(Hsum + Lsum)} for all coordinates; with {@code Hsum
   * = Float.MIN_VALUE} and a zero gradient it is about 7e44, beyond float: the round is refused
   * (found by the fuzz suite, which saw {@code w = NaN} everywhere), state unchanged.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"vector", "scalar"})
  void ballRoundWithAStepBeyondFloatRangeIsRefused(String impl) {
    KernelProvider k = impl.equals("vector") ? KernelProvider.vector() : KernelProvider.scalar();
    try (Arena a = Arena.ofConfined();
        AdaptiveOgdBallOptimizer o =
            new AdaptiveOgdBallOptimizer(
                4, ElementType.FLOAT, AdaptiveOgdParams.radius(1.0), a, k)) {
      MemorySegment x = a.allocate(4L * Float.BYTES);
      o.predict(x);
      org.junit.jupiter.api.Assertions.assertThrows(
          ArithmeticException.class, () -> o.update(-0.25, Float.MIN_VALUE));
      assertEquals(0.0, o.scalarState().get("Hsum"));
      for (float v : o.state().get("w").toArray(ValueLayout.JAVA_FLOAT)) {
        assertEquals(0f, v);
      }
    }
  }
}
