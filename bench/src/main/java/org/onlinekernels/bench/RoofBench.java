package org.onlinekernels.bench;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.onlinekernels.kernel.ElementType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The machine's memory-bandwidth roof, measured by the suite in the same run as the kernels:
 * STREAM-style copy ({@code b = a}: 2 elements moved), triad ({@code a = b + s c}: 3) and the
 * in-place update {@code a += s b} (3), the access pattern of every kernel here; and a read-only
 * pass ({@code sum a + sum b}: 2 read), the access pattern of a predict pass, because one core here
 * reads at about two thirds of the in-place figure and writes alongside its reads come nearly free
 * (see {@code bench-report/kernels-notes.md}). Written with the same Vector API over {@code
 * MemorySegment} as the kernels, one core (as the kernels). Bytes are counted the STREAM way (no
 * write-allocate traffic), as for the kernels, so the ratio is fair.
 *
 * <p>The DRAM roof is {@code n = 64M} floats (256 MiB per array, 8x the 32 MiB L3); the in-place
 * pass at the kernel sizes draws the roof curve across the cache levels.
 */
public class RoofBench extends KernelSuite {
  static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
  static final ByteOrder LE = ByteOrder.nativeOrder();

  /** Three float arrays of {@code n} elements. */
  @State(Scope.Thread)
  public static class Arrays {
    /** Elements per array. */
    @Param({"1024", "16384", "262144", "4194304", "16777216", "67108864"})
    public int n;

    /** The arrays. */
    public MemorySegment a, b, c;

    Arena arena;
    float sign = 1;

    /** Allocates and fills. */
    @Setup(Level.Trial)
    public void setUp() {
      arena = Arena.ofShared();
      // A cheap deterministic pattern: the roof's speed does not depend on the values, and seeded
      // random fills of 3 x 64M elements would cost seconds per trial.
      a = pattern(n, 1);
      b = pattern(n, 2);
      c = pattern(n, 3);
    }

    MemorySegment pattern(int n, int k) {
      MemorySegment s = BenchData.allocate(arena, ElementType.FLOAT, n);
      for (int i = 0; i < n; i++) {
        s.setAtIndex(JAVA_FLOAT, i, 0.25f + ((i * k) & 1023) / 1024f);
      }
      return s;
    }

    /**
     * Checks the arrays stayed finite (in-place alternates {@code +-s}, so {@code a} stays
     * bounded).
     */
    @TearDown(Level.Iteration)
    public void check() {
      BenchData.checkedSum("a", a, ElementType.FLOAT, n);
      BenchData.checkedSum("b", b, ElementType.FLOAT, n);
    }

    /** Frees memory. */
    @TearDown(Level.Trial)
    public void tearDown() {
      arena.close();
    }
  }

  /** {@code b = a}. */
  @Benchmark
  public Object copy(Arrays s) {
    copy(s.a, s.b, s.n);
    return s.b;
  }

  /** {@code a = b + 0.5 c}. */
  @Benchmark
  public Object triad(Arrays s) {
    triad(s.a, s.b, s.c, 0.5f, s.n);
    return s.a;
  }

  /** {@code a += +-0.5 b}. */
  @Benchmark
  public Object inPlace(Arrays s) {
    inPlace(s.a, s.b, 0.5f * s.sign, s.n);
    s.sign = -s.sign;
    return s.a;
  }

  /** {@code sum(a) + sum(b)}: reads only. */
  @Benchmark
  public float read(Arrays s) {
    return read(s.a, s.b, s.n);
  }

  static float read(MemorySegment a, MemorySegment b, int n) {
    // Adds, which C2 folds into their loads in address order (a multiply-add chain gets its
    // unrolled loads reordered: see VectorConstants.floatStride).
    FloatVector sa = FloatVector.zero(S), sb = sa;
    int i = 0;
    for (int bound = S.loopBound(n); i < bound; i += S.length()) {
      sa = sa.add(FloatVector.fromMemorySegment(S, a, 4L * i, LE));
      sb = sb.add(FloatVector.fromMemorySegment(S, b, 4L * i, LE));
    }
    float sum = sa.add(sb).reduceLanes(VectorOperators.ADD);
    for (; i < n; i++) {
      sum += a.getAtIndex(JAVA_FLOAT, i) + b.getAtIndex(JAVA_FLOAT, i);
    }
    return sum;
  }

  static void copy(MemorySegment a, MemorySegment b, int n) {
    int i = 0;
    for (int bound = S.loopBound(n); i < bound; i += S.length()) {
      FloatVector.fromMemorySegment(S, a, 4L * i, LE).intoMemorySegment(b, 4L * i, LE);
    }
    for (; i < n; i++) b.setAtIndex(JAVA_FLOAT, i, a.getAtIndex(JAVA_FLOAT, i));
  }

  static void triad(MemorySegment a, MemorySegment b, MemorySegment c, float s, int n) {
    int i = 0;
    for (int bound = S.loopBound(n); i < bound; i += S.length()) {
      FloatVector vb = FloatVector.fromMemorySegment(S, b, 4L * i, LE);
      FloatVector vc = FloatVector.fromMemorySegment(S, c, 4L * i, LE);
      vc.mul(s).add(vb).intoMemorySegment(a, 4L * i, LE);
    }
    for (; i < n; i++) {
      a.setAtIndex(JAVA_FLOAT, i, b.getAtIndex(JAVA_FLOAT, i) + s * c.getAtIndex(JAVA_FLOAT, i));
    }
  }

  static void inPlace(MemorySegment a, MemorySegment b, float s, int n) {
    int i = 0;
    for (int bound = S.loopBound(n); i < bound; i += S.length()) {
      FloatVector va = FloatVector.fromMemorySegment(S, a, 4L * i, LE);
      FloatVector vb = FloatVector.fromMemorySegment(S, b, 4L * i, LE);
      vb.mul(s).add(va).intoMemorySegment(a, 4L * i, LE);
    }
    for (; i < n; i++) {
      a.setAtIndex(JAVA_FLOAT, i, a.getAtIndex(JAVA_FLOAT, i) + s * b.getAtIndex(JAVA_FLOAT, i));
    }
  }
}
