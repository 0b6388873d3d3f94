package org.onlinekernels.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.rules.adagrad.AdaGradKernel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Float vs mixed vs double AdaGrad: the stateless kernel's dense update as in {@link AdaGradBench}
 * ({@code eta = 0.1}, {@code delta = 1e-6}, no box, alternating gradient sign). Traffic per
 * coordinate (read {@code w, Q, g}, write {@code w, Q}): float 20 bytes, mixed 28 bytes ({@code Q}
 * double), double 40 bytes; mixed also does all arithmetic at double width (half the lanes of
 * float).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx3g"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class MixedPrecisionBench {

  /** One dense AdaGrad update at precision {@link #precision}. */
  @State(Scope.Thread)
  public static class Dense {
    /** L2-resident and DRAM-bound sizes. */
    @Param({"16384", "16777216"})
    public int d;

    /** {@code float}, {@code mixed} (float w/x, double Q) or {@code double}. */
    @Param({"float", "mixed", "double"})
    public String precision;

    /** {@code vector} or {@code scalar}. */
    @Param({"vector"})
    public String impl;

    /**
     * Calls in the small-size JIT warm-up (see {@link DenseParams#WARM_D}); the smoke test lowers
     * it.
     */
    public int warmCalls = 3000;

    /** Buffers. */
    public MemorySegment w, q, g;

    private Arena arena;
    private ElementType wt, qt;
    private AdaGradKernel plain;
    private AdaGradKernel mixed;
    private double scale = 1;

    /** Allocates buffers and warms the JIT up at a small size. */
    @Setup(Level.Trial)
    public void setUp() {
      arena = Arena.ofShared();
      KernelProvider k = BenchData.provider(impl);
      boolean isMixed = precision.equals("mixed");
      wt = isMixed ? ElementType.FLOAT : BenchData.type(precision);
      qt = isMixed ? ElementType.DOUBLE : wt;
      plain = isMixed ? null : AdaGradKernel.of(k, wt);
      mixed = isMixed ? AdaGradKernel.mixed(k) : null;
      int realD = d;
      d = DenseParams.WARM_D;
      w = BenchData.allocate(arena, wt, d);
      q = BenchData.allocate(arena, qt, d);
      g = BenchData.filled(arena, wt, d, BenchData.SEED_X, 1);
      for (int i = 0; i < warmCalls; i++) {
        step();
      }
      d = realD;
      w = BenchData.allocate(arena, wt, d);
      q = BenchData.allocate(arena, qt, d);
      g = BenchData.filled(arena, wt, d, BenchData.SEED_X, 1);
    }

    /** Initial state {@code w = Q = 0}. */
    @Setup(Level.Iteration)
    public void reset() {
      BenchData.fill(w, wt, d, 0);
      BenchData.fill(q, qt, d, 0);
      scale = 1;
    }

    /** One update. */
    public void step() {
      if (mixed != null) {
        mixed.updateDense(
            w,
            q,
            g,
            d,
            scale,
            AdaGradBench.ETA,
            AdaGradBench.DELTA,
            Double.NEGATIVE_INFINITY,
            Double.POSITIVE_INFINITY);
      } else {
        plain.updateDense(
            w,
            q,
            g,
            d,
            scale,
            AdaGradBench.ETA,
            AdaGradBench.DELTA,
            Double.NEGATIVE_INFINITY,
            Double.POSITIVE_INFINITY);
      }
      scale = -scale;
    }

    /** Checks finiteness and that both buffers moved. */
    @TearDown(Level.Iteration)
    public void check() {
      checksum();
    }

    /** {@code sum(w) + sum(Q)}, checked. */
    public double checksum() {
      BenchData.requireMoved("Q", q, qt, d, 0);
      BenchData.requireMoved("w", w, wt, d, 0);
      return BenchData.checkedSum("w", w, wt, d) + BenchData.checkedSum("Q", q, qt, d);
    }

    /** Frees buffers. */
    @TearDown(Level.Trial)
    public void tearDown() {
      arena.close();
    }
  }

  /** Dense update, per call. */
  @Benchmark
  public double adaGradDense(Dense s) {
    s.step();
    return s.w.byteSize();
  }
}
