package org.onlinekernels.bench;

import java.util.concurrent.TimeUnit;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.params.DfegParams;
import org.onlinekernels.rules.dfeg.DfegOptimizer;
import org.onlinekernels.rules.dfeg.ReferenceDfeg;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * DFEG (ALGORITHMS.md section 5), one linear-model round per call, default parameters.
 *
 * <p>Minimal traffic per coordinate and round: predict reads {@code theta, x} (for {@code <theta,
 * x>} and {@code ||x||^2}); update reads {@code theta, x} and writes {@code theta}: 5 elements.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx3g"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class DfegBench {
  /** Dense round. */
  public static class Round extends RoundState {
    @Override
    protected AbstractOptimizer create() {
      return new DfegOptimizer(d, t, DfegParams.defaults(), arena, kernels);
    }

    @Override
    protected String movedBuffer() {
      return "theta";
    }
  }

  /** Sparse round at d = 2^22. */
  public static class Sparse extends SparseRoundState {
    @Override
    protected AbstractOptimizer create() {
      return new DfegOptimizer(d, t, DfegParams.defaults(), arena, kernels);
    }
  }

  /** The scalar double oracle at the small sizes. */
  public static class Reference extends ReferenceRoundState {
    /** The oracle of the current iteration. */
    public ReferenceDfeg ref;

    @Override
    protected ReferenceDfeg create() {
      return ref = new ReferenceDfeg(d, DfegParams.defaults());
    }

    @Override
    protected double stateChecksum() {
      if (ref.theta()[0] == 0)
        throw new IllegalStateException("reference DFEG left theta untouched");
      return BenchData.checkedSum("theta", ref.theta());
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
