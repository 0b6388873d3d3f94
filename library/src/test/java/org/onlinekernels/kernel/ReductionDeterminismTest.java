package org.onlinekernels.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.onlinekernels.kernel.vector.VectorWidthTest;
import org.onlinekernels.rules.dfeg.DfegKernel;
import org.onlinekernels.rules.scinol1.ScInOL1Kernel;
import org.onlinekernels.rules.scinol2.ScInOL2Kernel;

/**
 * Every reduction returns the same bits whether its kernel runs interpreted, C1- or C2-compiled,
 * and the same bits as the scalar kernel. (The Vector API's {@code reduceLanes(ADD)} does not: its
 * order changes once C2 intrinsifies it, which would make a resumed checkpoint diverge.) Each
 * reduction's first call runs interpreted; 20,000 more calls get it compiled by C2. The calls leave
 * the state as they found it ({@code M} and {@code beta} are already at their fixed point after the
 * first call; DFEG steps with {@code g = 0}).
 */
@Tag("long")
@Tag("width")
class ReductionDeterminismTest {
  /** The width executions of pom.xml may run this test alone: it checks their width too. */
  @BeforeAll
  static void runsAtTheAskedWidth() {
    VectorWidthTest.assertAskedWidthRuns();
  }

  private static final int N = 1001;
  private static final int CALLS = 20_000;

  @ParameterizedTest
  @EnumSource(ElementType.class)
  void everyReductionIsBitStableAcrossWarmUpAndEqualsScalar(ElementType t) {
    SplittableRandom r = new SplittableRandom(7);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment a = filled(arena, t, r, 10),
          b = filled(arena, t, r, 0),
          c = filled(arena, t, r, 0);
      MemorySegment s2 = positive(arena, t, r),
          m = positive(arena, t, r),
          e = positive(arena, t, r);
      int nnz = N / 3;
      MemorySegment idx = arena.allocate(4L * nnz);
      for (int j = 0; j < nnz; j++) {
        idx.setAtIndex(ValueLayout.JAVA_INT, j, 3 * j + 1);
      }
      for (KernelProvider k :
          new KernelProvider[] {KernelProvider.vector(), KernelProvider.scalar()}) {
        LinearAlgebraKernel la = k.linearAlgebra(t);
        ScInOL1Kernel s1 = ScInOL1Kernel.of(k, t);
        ScInOL2Kernel s2k = ScInOL2Kernel.of(k, t);
        DfegKernel df = DfegKernel.of(k, t);
        double[] out = new double[3];
        Map<String, Supplier<double[]>> calls = new LinkedHashMap<>();
        calls.put("dot", () -> new double[] {la.dot(a, b, N)});
        calls.put("dotSparse", () -> new double[] {la.dotSparse(a, N, idx, b, nnz)});
        calls.put("sumOfSquares", () -> new double[] {la.sumOfSquares(a, N)});
        calls.put("maxAbs", () -> new double[] {la.maxAbs(a, N)});
        calls.put(
            "dotAndSumOfSquares",
            () -> {
              la.dotAndSumOfSquares(a, b, N, out);
              return new double[] {out[0], out[1]};
            });
        calls.put(
            "dotAndSumOfSquaresSparse",
            () -> {
              la.dotAndSumOfSquaresSparse(a, N, idx, b, nnz, out);
              return new double[] {out[0], out[1]};
            });
        calls.put(
            "gramTriple",
            () -> {
              la.gramTriple(a, b, N, out);
              return out.clone();
            });
        // DFEG's dense norm: the pair reduction its optimizer recomputes ||theta||^2 with after a
        // dense update.
        calls.put(
            "dfeg norm",
            () -> {
              df.updateDense(c, b, N, 0);
              la.dotAndSumOfSquares(c, c, N, out);
              return new double[] {out[1]};
            });
        calls.put(
            "scInOL1.predictDense", () -> new double[] {s1.predictDense(a, s2, m, e, b, N, 3, 1)});
        calls.put("scInOL2.predictDense", () -> new double[] {s2k.predictDense(a, s2, m, e, b, N)});
        if (t == ElementType.FLOAT) {
          calls.put("dotMixed", () -> new double[] {la.dotMixed(a, b, N)});
        }
        for (Map.Entry<String, Supplier<double[]>> call : calls.entrySet()) {
          String what = k.getClass().getSimpleName() + " " + t + " " + call.getKey();
          double[] first = call.getValue().get();
          for (int i = 0; i < CALLS; i++) {
            assertSameBits(what + ", call " + i, first, call.getValue().get());
          }
          expected.putIfAbsent(t + " " + call.getKey(), first);
          assertSameBits(
              what + " against the vector kernel", expected.get(t + " " + call.getKey()), first);
        }
      }
    }
  }

  private final Map<String, double[]> expected = new LinkedHashMap<>();

  private static void assertSameBits(String what, double[] want, double[] got) {
    for (int j = 0; j < want.length; j++) {
      assertEquals(
          Double.doubleToRawLongBits(want[j]),
          Double.doubleToRawLongBits(got[j]),
          what + " [" + j + "]");
    }
  }

  /** Gaussian values over {@code 2^-spread .. 2^spread}. */
  private static MemorySegment filled(Arena arena, ElementType t, SplittableRandom r, int spread) {
    MemorySegment s = arena.allocate((long) N * t.bytes());
    for (int i = 0; i < N; i++) {
      AdaGradVectorScalarTest.set(
          s,
          t,
          i,
          r.nextGaussian() * Math.scalb(1.0, spread == 0 ? 0 : r.nextInt(-spread, spread)));
    }
    return s;
  }

  private static MemorySegment positive(Arena arena, ElementType t, SplittableRandom r) {
    MemorySegment s = arena.allocate((long) N * t.bytes());
    for (int i = 0; i < N; i++) {
      AdaGradVectorScalarTest.set(s, t, i, 0.5 + r.nextDouble());
    }
    return s;
  }
}
