package org.onlinekernels.properties;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tag;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.testkit.Buffers;
import org.onlinekernels.testkit.Case;
import org.onlinekernels.testkit.Cases;
import org.onlinekernels.testkit.Subject;
import org.onlinekernels.testkit.Subjects;
import org.onlinekernels.testsupport.FuzzTries;

/**
 * Vector and scalar kernels return the same bits: every optimizer (so every kernel, dense and
 * sparse, heap and native, at odd offsets) over whole trajectories, predictions and scalars
 * included, and every {@link LinearAlgebraKernel} reduction on awkward sizes (0, 1, lane counts and
 * accumulator blocks plus or minus one, primes). Equality, not a bound.
 *
 * <p>The long stage runs this suite once more in a JVM per narrower vector width ({@code
 * -Donlinekernels.vectorBits=256}, {@code 128}; the parent pom's profile {@code long}; {@code
 * VectorWidthTest} checks the width took effect): each width equals the scalar kernels, so all
 * widths equal each other.
 */
// A quarter of the configured tries: the long stage's campaign configures four times as many.
@FuzzTries(divisor = 4)
@Tag("width")
class BitEqualityProperties {
  /** Every rule of the registry, and the mixed-precision forms. */
  private static final java.util.List<String> ALGORITHMS =
      java.util.stream.Stream.concat(
              Subjects.names().stream(),
              java.util.stream.Stream.of("mixed-adagrad", "mixed-scinol2"))
          .toList();

  @Provide
  Arbitrary<Case> trajectories() {
    return Cases.all();
  }

  @Provide
  Arbitrary<String> algorithms() {
    return Arbitraries.of(ALGORITHMS);
  }

  /**
   * Sizes: 0, 1, around every lane count and accumulator block (4 to 128 elements), primes, and
   * anything up to 5000.
   */
  @Provide
  Arbitrary<Integer> sizes() {
    return Arbitraries.oneOf(
        Arbitraries.of(
            0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 79, 80, 81,
            127, 128, 129, 131, 191, 192, 193, 251, 257, 1021, 4099),
        Arbitraries.integers().between(0, 300),
        Arbitraries.integers().between(0, 5000));
  }

  @Provide
  Arbitrary<Integer> offsets() {
    return Arbitraries.integers().between(0, 63);
  }

  @Property
  void optimizerVectorEqualsScalar(
      @ForAll("trajectories") Case c, @ForAll("algorithms") String algorithm) {
    if (algorithm.startsWith("mixed-")) {
      Case f =
          new Case(
              c.d(),
              ElementType.FLOAT,
              c.sparse(),
              c.heap(),
              c.byteOffset(),
              c.density(),
              c.scaleLo(),
              c.scaleHi(),
              c.rounds(),
              c.warmup(),
              c.seed());
      MixedSubject s =
          algorithm.equals("mixed-adagrad")
              ? new MixedSubject.AdaGrad(f.seed(), f.d())
              : new MixedSubject.ScInOL2(f.seed());
      BitEquality.vectorEqualsScalar(s.describe(), f, s.gMax(), (k, d) -> s.optimizer(d, k));
    } else {
      Subject s = RoundProperties.subject(algorithm, c);
      BitEquality.vectorEqualsScalar(
          s.describe(), c, s.gMax(), (k, d) -> s.optimizer(d, c.type(), k));
    }
  }

  @Property
  void linearAlgebraVectorEqualsScalar(
      @ForAll ElementType t,
      @ForAll("sizes") int n,
      @ForAll boolean heap,
      @ForAll("offsets") int offset,
      @ForAll long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Case shape = new Case(Math.max(n, 1), t, false, heap, offset, 0.5, -20, 20, 1, 0, seed);
    try (Arena arena = Arena.ofConfined()) {
      Buffers b = new Buffers(arena, shape);
      MemorySegment x = b.of(values(r, n)), w = b.of(values(r, n));
      int[] idxArr =
          n == 0 ? new int[0] : r.ints(0, n).distinct().limit(r.nextInt(n + 1)).sorted().toArray();
      MemorySegment idx = b.ints(idxArr), val = b.of(values(r, idxArr.length));
      int nnz = idxArr.length;
      LinearAlgebraKernel kv = KernelProvider.vector().linearAlgebra(t),
          ks = KernelProvider.scalar().linearAlgebra(t);
      String what =
          t + ", n " + n + (heap ? ", heap" : ", native") + ", offset " + offset + ", seed " + seed;
      BitEquality.same("dot", what, 0, "", kv.dot(w, x, n), ks.dot(w, x, n));
      BitEquality.same("sumOfSquares", what, 0, "", kv.sumOfSquares(x, n), ks.sumOfSquares(x, n));
      BitEquality.same("maxAbs", what, 0, "", kv.maxAbs(x, n), ks.maxAbs(x, n));
      BitEquality.same(
          "dotSparse",
          what,
          0,
          "",
          kv.dotSparse(w, n, idx, val, nnz),
          ks.dotSparse(w, n, idx, val, nnz));
      double[] ov = new double[3], os = new double[3];
      kv.dotAndSumOfSquares(w, x, n, ov);
      ks.dotAndSumOfSquares(w, x, n, os);
      BitEquality.same("dotAndSumOfSquares", what, 0, "dot", ov[0], os[0]);
      BitEquality.same("dotAndSumOfSquares", what, 0, "sum of squares", ov[1], os[1]);
      kv.dotAndSumOfSquaresSparse(w, n, idx, val, nnz, ov);
      ks.dotAndSumOfSquaresSparse(w, n, idx, val, nnz, os);
      BitEquality.same("dotAndSumOfSquaresSparse", what, 0, "dot", ov[0], os[0]);
      BitEquality.same("dotAndSumOfSquaresSparse", what, 0, "sum of squares", ov[1], os[1]);
      kv.gramTriple(w, x, n, ov);
      ks.gramTriple(w, x, n, os);
      for (int j = 0; j < 3; j++) {
        BitEquality.same("gramTriple", what, 0, "out[" + j + "]", ov[j], os[j]);
      }
      if (n > 0) {
        // One non-finite element anywhere: both say NaN.
        double bad = r.nextBoolean() ? Double.NaN : Double.NEGATIVE_INFINITY;
        int at = r.nextInt(n);
        if (t == ElementType.FLOAT) {
          x.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, at, (float) bad);
        } else {
          x.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, at, bad);
        }
        BitEquality.same(
            "maxAbs, non-finite at " + at, what, 0, "", kv.maxAbs(x, n), ks.maxAbs(x, n));
      }
    }
  }

  /**
   * Signed values over 40 binades (so the summation order shows in the low bits), a tenth of them
   * zero.
   */
  static double[] values(SplittableRandom r, int n) {
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = r.nextInt(10) == 0 ? 0 : r.nextGaussian() * Math.scalb(1.0, r.nextInt(-20, 21));
    }
    return v;
  }
}
