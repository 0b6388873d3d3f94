package org.onlinekernels.testkit;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.onlinekernels.kernel.ElementType;

/** Generators that hunt bugs: awkward sizes, offsets, sparsity extremes and wide feature scales. */
public final class Cases {
  private Cases() {}

  /**
   * Dimensions: lane counts +-1 (8/16 floats, 4/8 doubles), primes, small, and anything up to 5000.
   */
  public static Arbitrary<Integer> dimensions() {
    return oneOf(
        Arbitraries.of(
            1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 257, 1021,
            1023, 1024, 1025, 4093, 4096, 4097, 5000),
        Arbitraries.integers().between(1, 80),
        Arbitraries.integers().between(1, 5000));
  }

  /**
   * Sparse densities: the extremes 1 and 0 and a few fixed ones, or any in between. Shrinks towards
   * 1 (full rows), where a small dimension still exercises every coordinate.
   */
  public static Arbitrary<Double> densities() {
    return oneOf(
        Arbitraries.of(1.0, 0.5, 0.1, 0.01, 0.0),
        Arbitraries.doubles().between(0, 1),
        Arbitraries.doubles().between(0, 1));
  }

  /**
   * One of three arbitraries, each a third of the time, shrinking towards the first. (Not {@code
   * Arbitraries.oneOf}: its shrinking needs a running jqwik property, and {@link KernelCheck#run()}
   * draws and shrinks outside one.)
   */
  private static <T> Arbitrary<T> oneOf(Arbitrary<T> a, Arbitrary<T> b, Arbitrary<T> c) {
    return Combinators.combine(Arbitraries.integers().between(0, 2), a, b, c)
        .as((k, x, y, z) -> k == 0 ? x : k == 1 ? y : z);
  }

  /**
   * Byte offsets of the input buffers from their allocation: 0 to 15, so every misalignment of a
   * double.
   */
  public static Arbitrary<Integer> byteOffsets() {
    return Arbitraries.integers().between(0, 15);
  }

  /** Any case. */
  public static Arbitrary<Case> all() {
    return all(Arbitraries.of(ElementType.class), Arbitraries.integers().between(1, 300));
  }

  /** Cases of one element type and a round count range. */
  public static Arbitrary<Case> all(Arbitrary<ElementType> types, Arbitrary<Integer> rounds) {
    Arbitrary<int[]> shape =
        Combinators.combine(
                dimensions(),
                byteOffsets(),
                Arbitraries.integers().between(-20, 0),
                Arbitraries.integers().between(0, 20),
                rounds,
                Arbitraries.integers().between(0, 40))
            .as((d, off, lo, hi, t, warm) -> new int[] {d, off, lo, hi, t, warm});
    return Combinators.combine(
            shape,
            types,
            Arbitraries.of(true, false),
            Arbitraries.of(true, false),
            densities(),
            Arbitraries.longs())
        .as(
            (s, type, sparse, heap, density, seed) ->
                new Case(s[0], type, sparse, heap, s[1], density, s[2], s[3], s[4], s[5], seed));
  }
}
