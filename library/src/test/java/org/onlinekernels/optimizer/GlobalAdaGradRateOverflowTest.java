package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.params.Box;
import org.onlinekernels.params.GlobalAdaGradParams;
import org.onlinekernels.rules.globaladagrad.GlobalAdaGradOptimizer;

/**
 * Found by the fuzz suite: a first gradient of {@code -Float.MIN_VALUE} gives {@code sumSquares ~
 * 6e-89} and a rate {@code alpha D / sqrt(2 sumSquares) ~ 1e44}, finite in double but infinite in
 * float; the float kernel then computed {@code w - inf * 0 = NaN}. Such a call is now refused, with
 * the state unchanged.
 */
class GlobalAdaGradRateOverflowTest {
  @ParameterizedTest
  @ValueSource(strings = {"vector", "scalar"})
  void aRateBeyondFloatRangeIsRefusedWithTheStateUnchanged(String impl) {
    KernelProvider k = impl.equals("vector") ? KernelProvider.vector() : KernelProvider.scalar();
    int d = 5;
    try (Arena a = Arena.ofConfined();
        GlobalAdaGradOptimizer o =
            new GlobalAdaGradOptimizer(
                d, ElementType.FLOAT, GlobalAdaGradParams.of(Box.symmetric(2.0)), a, k)) {
      MemorySegment x = a.allocate(ValueLayout.JAVA_FLOAT, d);
      for (int i = 0; i < d - 1; i++) {
        x.setAtIndex(ValueLayout.JAVA_FLOAT, i, 1.5f);
      }
      o.predict(x);
      ArithmeticException e =
          assertThrows(ArithmeticException.class, () -> o.update(-Float.MIN_VALUE));
      assertTrue(e.getMessage().contains("float range"), e.getMessage());
      assertEquals(0.0, o.scalarState().get("sumSquares"));
      float[] w = o.state().get("w").toArray(ValueLayout.JAVA_FLOAT);
      assertArrayEquals(new float[d], w);
    }
  }
}
