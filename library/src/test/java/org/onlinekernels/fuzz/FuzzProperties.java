package org.onlinekernels.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.AllOptimizers;
import org.onlinekernels.optimizer.GradientOptimizer;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.optimizer.StateSnapshot;
import org.onlinekernels.rules.aogd.AdaptiveOgdOptimizer;
import org.onlinekernels.rules.scinol1.ScInOL1Kernel;
import org.onlinekernels.testsupport.FuzzTries;

/**
 * Issue 6, fuzzing: adversarial values (+-0, subnormals, huge, beyond the input limit, NaN,
 * infinities), empty inputs, d = 1 and 2 and odd sizes, unsorted, duplicate and out-of-range sparse
 * indices, odd byte offsets, thrown at every public entry of every optimizer and at kernel entries.
 * Each call either succeeds with every state element finite, or throws one of the documented
 * exceptions (IllegalArgumentException, IllegalStateException, ArithmeticException) with the state
 * bit-identical to before. (The trainer is fuzzed by its own suite.)
 */
class FuzzProperties {
  /** The adversarial pool; the limit-relative entries are scaled per element type. */
  static double pick(Random rnd, ElementType t) {
    double lim = InputPolicy.magnitudeLimit(t);
    double[] pool = {
      0.0,
      -0.0,
      1,
      -1,
      0.5,
      3,
      -7,
      Float.MIN_VALUE,
      -Float.MIN_VALUE,
      Double.MIN_VALUE,
      Float.MIN_NORMAL,
      1e-30,
      1e-300,
      lim,
      -lim,
      lim * 2,
      lim / 3,
      1e30,
      -1e30,
      Float.MAX_VALUE,
      Double.MAX_VALUE,
      Double.NaN,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY
    };
    // Mostly benign values so that long sequences get deep into a run.
    return rnd.nextInt(3) == 0 ? pool[rnd.nextInt(pool.length)] : rnd.nextGaussian() * 2;
  }

  static void put(MemorySegment s, ElementType t, long i, double v) {
    if (t == ElementType.FLOAT) s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) v);
    else s.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, v);
  }

  /** A segment of {@code n} elements at a random (often odd) byte offset inside a larger one. */
  static MemorySegment segment(Arena a, Random rnd, ElementType t, int n) {
    long off = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(13);
    MemorySegment s = a.allocate(off + (long) n * t.bytes() + 8).asSlice(off, (long) n * t.bytes());
    for (int i = 0; i < n; i++) put(s, t, i, pick(rnd, t));
    return s;
  }

  static MemorySegment indices(Arena a, Random rnd, int nnz, int d) {
    MemorySegment s = a.allocate(Math.max(4, 4L * nnz));
    int mode = rnd.nextInt(6);
    int prev = -1;
    for (int j = 0; j < nnz; j++) {
      int i =
          switch (mode) {
            case 0 -> rnd.nextInt(d + 2) - 1; // anything, including -1 and d
            case 1 ->
                j == nnz - 1 && j > 0 ? prev : prev + 1 + rnd.nextInt(2); // a duplicate at the end
            default -> prev + 1 + rnd.nextInt(2); // sorted, maybe running past d
          };
      prev = i;
      s.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, j, i);
    }
    return s;
  }

  @Provide
  Arbitrary<AllOptimizers.Named> optimizers() {
    return Arbitraries.of(AllOptimizers.all());
  }

  @Property
  @FuzzTries(multiplier = 3, divisor = 2)
  void everyOptimizerCallSucceedsFinitelyOrIsRefusedCleanly(
      @ForAll("optimizers") AllOptimizers.Named n,
      @ForAll ElementType t,
      @ForAll boolean vector,
      @ForAll @IntRange(min = 1, max = 9) int d,
      @ForAll long seed) {
    Random rnd = new Random(seed);
    KernelProvider k = vector ? KernelProvider.get() : KernelProvider.scalar();
    try (Arena a = Arena.ofConfined();
        AbstractOptimizer o = n.factory().create(d, t, a, k)) {
      for (int step = 0; step < 40; step++) {
        int nnz = rnd.nextInt(d + 2);
        StateSnapshot before = StateSnapshot.of(o);
        Runnable call =
            switch (rnd.nextInt(7)) {
              case 0 -> {
                MemorySegment x = segment(a, rnd, t, rnd.nextInt(8) == 0 ? d - 1 : d);
                yield () -> o.predict(x);
              }
              case 1 -> {
                MemorySegment idx = indices(a, rnd, nnz, d);
                MemorySegment val = segment(a, rnd, t, nnz);
                int claimed = rnd.nextInt(10) == 0 ? nnz + 1 : nnz;
                yield () -> o.predictSparse(idx, val, claimed);
              }
              case 2, 3 -> {
                double g = pick(rnd, t);
                yield o instanceof AdaptiveOgdOptimizer ogd && rnd.nextBoolean()
                    ? () -> ogd.update(g, Math.abs(pick(rnd, t)))
                    : () -> o.update(g);
              }
              case 4 -> {
                MemorySegment g = segment(a, rnd, t, d);
                yield o instanceof GradientOptimizer go ? () -> go.step(g) : () -> o.predict(g);
              }
              case 5 -> {
                MemorySegment idx = indices(a, rnd, nnz, d);
                MemorySegment val = segment(a, rnd, t, nnz);
                yield o instanceof GradientOptimizer go
                    ? () -> go.stepSparse(idx, val, nnz)
                    : () -> o.predictSparse(idx, val, nnz);
              }
              default -> {
                MemorySegment into = segment(a, rnd, t, d);
                yield () -> o.readWeights(into);
              }
            };
        try {
          call.run();
          assertTrue(
              StateSnapshot.allFinite(o),
              n + " " + t + ": state not finite after an accepted call at step " + step);
        } catch (IllegalArgumentException | IllegalStateException | ArithmeticException e) {
          before.assertSame(o, n + " " + t + " step " + step + " refused with " + e);
        }
      }
    }
  }

  @Property
  @FuzzTries(divisor = 2)
  void dimensionZeroAndNegativeAreRefused(
      @ForAll("optimizers") AllOptimizers.Named n,
      @ForAll ElementType t,
      @ForAll @IntRange(min = -3, max = 0) int d) {
    assertThrows(IllegalArgumentException.class, () -> n.create(d, t));
  }

  /** Kernel entries: the scan kernel agrees with a plain loop; n = 0 and odd offsets are fine. */
  @Property
  @FuzzTries(multiplier = 3, divisor = 2)
  void maxAbsScanIsExact(
      @ForAll ElementType t,
      @ForAll boolean vector,
      @ForAll @IntRange(min = 0, max = 70) int n,
      @ForAll long seed) {
    Random rnd = new Random(seed);
    LinearAlgebraKernel la =
        (vector ? KernelProvider.get() : KernelProvider.scalar()).linearAlgebra(t);
    try (Arena a = Arena.ofConfined()) {
      MemorySegment x = segment(a, rnd, t, n);
      double want = 0;
      boolean bad = false;
      for (int i = 0; i < n; i++) {
        double v =
            t == ElementType.FLOAT
                ? x.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i)
                : x.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
        bad |= !Double.isFinite(v);
        want = Math.max(want, Math.abs(v));
      }
      double got = la.maxAbs(x, n);
      if (bad) assertTrue(Double.isNaN(got), "non-finite element must give NaN");
      else assertTrue(want == got, "maxAbs " + got + " != " + want);
      assertThrows(IllegalArgumentException.class, () -> la.maxAbs(x, n + 1));
      assertThrows(IllegalArgumentException.class, () -> la.maxAbs(x, -1));
    }
  }

  /** A stateful kernel entry given bad shapes leaves its buffers unchanged. */
  @Property
  void scinol1KernelRejectsBadShapesWithoutWriting(
      @ForAll ElementType t,
      @ForAll boolean vector,
      @ForAll @IntRange(min = 0, max = 20) int n,
      @ForAll long seed) {
    Random rnd = new Random(seed);
    ScInOL1Kernel kern =
        ScInOL1Kernel.of(vector ? KernelProvider.get() : KernelProvider.scalar(), t);
    try (Arena a = Arena.ofConfined()) {
      MemorySegment g = segment(a, rnd, t, n),
          s2 = segment(a, rnd, t, n),
          m = segment(a, rnd, t, n);
      MemorySegment beta = segment(a, rnd, t, n), x = segment(a, rnd, t, n);
      List<MemorySegment> state = List.of(g, s2, m, beta);
      List<byte[]> before = state.stream().map(s -> s.toArray(ValueLayout.JAVA_BYTE)).toList();
      int mode = rnd.nextInt(4);
      assertThrows(
          IllegalArgumentException.class,
          () -> {
            switch (mode) {
              case 0 -> kern.predictDense(g, s2, m, beta, x, n + 1, 1, 1);
              case 1 -> kern.predictDense(g, s2, m.asReadOnly(), beta, x, n, 1, 1);
              case 2 -> kern.predictDense(g, s2, m, beta, x, n, Double.NaN, 1);
              default -> kern.updateDense(g, s2, x, n, Double.POSITIVE_INFINITY);
            }
          });
      for (int i = 0; i < state.size(); i++) {
        assertArrayEquals(
            before.get(i),
            state.get(i).toArray(ValueLayout.JAVA_BYTE),
            "kernel wrote before refusing");
      }
    }
  }
}
