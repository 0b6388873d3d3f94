package org.onlinekernels.bench;

import java.util.concurrent.TimeUnit;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.params.DfegParams;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.dfeg.DfegOptimizer;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of {@link InputPolicy#CHECKED} (a vectorized scan of every input for NaN, infinities and
 * values beyond the magnitude limit, before any state changes) against {@link InputPolicy#TRUSTED},
 * on a light round (DFEG: two passes over the data) and a heavy one (ScInOL2, w recomputed). Every
 * other benchmark measures TRUSTED, the kernels alone.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx3g"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class InputPolicyBench {
  /** One linear-model round under the chosen policy. */
  public static class Round extends RoundState {
    /** {@code trusted} or {@code checked}. */
    @Param({"trusted", "checked"})
    public String policy;

    /** {@code dfeg} or {@code scinol2}. */
    @Param({"dfeg", "scinol2"})
    public String algorithm;

    @Override
    protected AbstractOptimizer create() {
      return algorithm.equals("dfeg")
          ? new DfegOptimizer(d, t, DfegParams.defaults(), arena, kernels)
          : new ScInOL2Optimizer(d, t, ScInOLParams.defaults(), false, arena, kernels);
    }

    @Override
    protected InputPolicy policy() {
      return InputPolicy.valueOf(policy.toUpperCase());
    }

    @Override
    protected String movedBuffer() {
      return algorithm.equals("dfeg") ? "theta" : "G";
    }
  }

  /** One round: predict, then update with the logistic derivative. */
  @Benchmark
  public double round(Round s) {
    return s.round();
  }
}
