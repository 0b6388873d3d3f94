package org.onlinekernels.bench.bits;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.onlinekernels.kernel.DfegKernel;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.kernel.ScInOL2Kernel;
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
 * The cost of the bit-identical summation order (issue 11): every float vector reduction in the
 * virtual-lane order ({@code new}, the library) against the order before it ({@code old},
 * {@link OldOrderKernels}), through the same public entries, in cache (d = 16,384) and from DRAM
 * (d = 16M). {@code order} is the last parameter, so each old/new pair runs back to back.
 * Results: bench-report/bit-identity.md.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx2g"})
@Warmup(iterations = 3, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@State(Scope.Thread)
public class BitIdentityBench {
  /** Elements per call. */
  @Param({"16384", "16777216"})
  public int d;

  /** {@code old} (hardware-width order) or {@code new} (virtual lanes). */
  @Param({"old", "new"})
  public String order;

  private Arena arena;
  private MemorySegment a, b, s2, m, eta;
  private final double[] out = new double[3];
  private LinearAlgebraKernel la;
  private DfegKernel dfeg;
  private ScInOL2Kernel scinol2;

  /** Buffers and the contender. */
  @Setup(Level.Trial)
  public void setUp() {
    arena = Arena.ofShared();
    SplittableRandom r = new SplittableRandom(11);
    a = fill(r, -1, 1);
    b = fill(r, -1, 1);
    s2 = fill(r, 0.5, 2);
    m = fill(r, 0, 1);
    eta = fill(r, 0.5, 2);
    boolean old = order.equals("old");
    KernelProvider v = KernelProvider.vector();
    la = old ? new OldOrderKernels.LinearAlgebra() : v.linearAlgebra(ElementType.FLOAT);
    dfeg = old ? new OldOrderKernels.Dfeg() : v.dfeg(ElementType.FLOAT);
    scinol2 = old ? new OldOrderKernels.ScInOL2() : v.scInOL2(ElementType.FLOAT);
  }

  private MemorySegment fill(SplittableRandom r, double lo, double hi) {
    MemorySegment s = arena.allocate((long) d * Float.BYTES, 64);
    for (int i = 0; i < d; i++) {
      s.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) r.nextDouble(lo, hi));
    }
    return s;
  }

  /** Frees the buffers. */
  @TearDown(Level.Trial)
  public void tearDown() {
    arena.close();
  }

  /** {@code <a, b>}. */
  @Benchmark
  public double dot() {
    return la.dot(a, b, d);
  }

  /** {@code ||a||^2}. */
  @Benchmark
  public double sumOfSquares() {
    return la.sumOfSquares(a, d);
  }

  /** DFEG's predict pass. */
  @Benchmark
  public double dotAndSumOfSquares() {
    la.dotAndSumOfSquares(a, b, d, out);
    return out[0] + out[1];
  }

  /** Adaptive OGD ball's pass. */
  @Benchmark
  public double gramTriple() {
    la.gramTriple(a, b, d, out);
    return out[0] + out[1] + out[2];
  }

  /** DFEG's dense step with its norm ({@code g = 0} keeps the state fixed). */
  @Benchmark
  public double dfegUpdate() {
    return dfeg.updateDense(a, b, d, 0);
  }

  /** ScInOL2's dense predict (recompute mode). */
  @Benchmark
  public double scinol2Predict() {
    return scinol2.predictDense(a, s2, m, eta, b, d);
  }
}
