package org.onlinekernels.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The same reduction returns the same bits whether the kernel runs interpreted, C1- or
 * C2-compiled. (The Vector API's {@code reduceLanes(ADD)} does not: its order changes once C2
 * intrinsifies it, which would make a resumed checkpoint diverge.)
 */
class ReductionDeterminismTest {
  @ParameterizedTest
  @EnumSource(ElementType.class)
  void dotIsBitStableAcrossWarmUp(ElementType t) {
    int n = 1000;
    SplittableRandom r = new SplittableRandom(7);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment a = arena.allocate((long) n * t.bytes()), b = arena.allocate((long) n * t.bytes());
      for (int i = 0; i < n; i++) {
        AdaGradVectorScalarTest.set(a, t, i, r.nextGaussian() * Math.scalb(1.0, r.nextInt(-10, 10)));
        AdaGradVectorScalarTest.set(b, t, i, r.nextGaussian());
      }
      LinearAlgebraKernel k = KernelProvider.vector().linearAlgebra(t);
      double first = k.dot(a, b, n);
      double[] out = new double[3];
      k.gramTriple(a, b, n, out);
      double[] firstTriple = out.clone();
      for (int call = 0; call < 30_000; call++) {
        assertEquals(Double.doubleToRawLongBits(first), Double.doubleToRawLongBits(k.dot(a, b, n)), "call " + call);
      }
      for (int call = 0; call < 30_000; call++) {
        k.gramTriple(a, b, n, out);
        for (int j = 0; j < 3; j++) {
          assertEquals(Double.doubleToRawLongBits(firstTriple[j]), Double.doubleToRawLongBits(out[j]), "call " + call);
        }
      }
    }
  }
}
