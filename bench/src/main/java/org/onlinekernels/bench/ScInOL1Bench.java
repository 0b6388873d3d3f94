package org.onlinekernels.bench;

import java.util.concurrent.TimeUnit;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.scinol1.ReferenceScInOL1;
import org.onlinekernels.rules.scinol1.ScInOL1Optimizer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * ScInOL1 (ALGORITHMS.md section 3), one linear-model round per call, {@code epsilon = 1}.
 *
 * <p>Minimal traffic per coordinate and round: predict reads {@code G, S2, M, beta, x} and writes
 * {@code M, beta}; update reads {@code G, S2, x} and writes {@code G, S2}: 12 elements. Unlike
 * ScInOL2 it also evaluates one {@code exp} per coordinate.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx3g"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class ScInOL1Bench {
  /** Dense round. */
  public static class Round extends RoundState {
    @Override
    protected AbstractOptimizer create() {
      return new ScInOL1Optimizer(d, t, ScInOLParams.defaults(), arena, kernels);
    }

    @Override
    protected String movedBuffer() {
      return "G";
    }
  }

  /** Sparse round at d = 2^22. */
  public static class Sparse extends SparseRoundState {
    @Override
    protected AbstractOptimizer create() {
      return new ScInOL1Optimizer(d, t, ScInOLParams.defaults(), arena, kernels);
    }
  }

  /** The scalar double oracle at the small sizes. */
  public static class Reference extends ReferenceRoundState {
    /** The oracle of the current iteration. */
    public ReferenceScInOL1 ref;

    @Override
    protected ReferenceScInOL1 create() {
      return ref = new ReferenceScInOL1(d, ScInOLParams.defaults());
    }

    @Override
    protected double stateChecksum() {
      if (!(ref.s2()[0] > 0))
        throw new IllegalStateException("reference ScInOL1 left S2 untouched");
      return BenchData.checkedSum("G", ref.bigG())
          + BenchData.checkedSum("S2", ref.s2())
          + BenchData.checkedSum("M", ref.m())
          + BenchData.checkedSum("beta", ref.beta());
    }
  }

  /** Dense round. */
  @Benchmark
  public double round(Round s) {
    return s.round();
  }

  /** Sparse round. */
  @Benchmark
  public double sparse(Sparse s) {
    return s.round();
  }

  /** The reference. */
  @Benchmark
  public double reference(Reference s) {
    return s.round();
  }
}
