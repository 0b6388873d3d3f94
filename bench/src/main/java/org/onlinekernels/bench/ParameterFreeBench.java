package org.onlinekernels.bench;

import java.util.concurrent.TimeUnit;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.FreeGradParams;
import org.onlinekernels.params.FtrlParams;
import org.onlinekernels.params.KtParams;
import org.onlinekernels.rules.freegrad.FreeGradOptimizer;
import org.onlinekernels.rules.ftrl.FtrlOptimizer;
import org.onlinekernels.rules.kt.KtOptimizer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The rules of issue #23 (ALGORITHMS.md section 13), one linear-model round per call, default
 * parameters: FTRL-Proximal, KT coin betting and FreeGrad, dense and sparse.
 *
 * <p>Minimal traffic per coordinate and round (no rule stores its weight: predict and update both
 * compute it from the state). FTRL: predict reads {@code z, N, x}; update reads {@code z, N, x},
 * writes {@code z, N}: 8 elements. KT: predict reads {@code theta, W, k, x}; update reads them,
 * writes {@code theta, W, k}: 11. FreeGrad: predict reads {@code G, Vsum, h1, ht, x}; update reads
 * them, writes {@code G, Vsum, h1, ht}: 14.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx3g"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class ParameterFreeBench {
  /** FTRL-Proximal, dense round. */
  public static class Ftrl extends RoundState {
    @Override
    protected AbstractOptimizer create() {
      return new FtrlOptimizer(d, t, FtrlParams.defaults(), StateLayout.PLANAR, arena, kernels);
    }

    @Override
    protected String movedBuffer() {
      return "z";
    }
  }

  /** KT, dense round. */
  public static class Kt extends RoundState {
    @Override
    protected AbstractOptimizer create() {
      return new KtOptimizer(d, t, KtParams.defaults(), StateLayout.PLANAR, arena, kernels);
    }

    @Override
    protected String movedBuffer() {
      return "theta";
    }
  }

  /** FreeGrad, dense round. */
  public static class FreeGrad extends RoundState {
    @Override
    protected AbstractOptimizer create() {
      return new FreeGradOptimizer(
          d, t, FreeGradParams.defaults(), StateLayout.PLANAR, arena, kernels);
    }

    @Override
    protected String movedBuffer() {
      return "G";
    }
  }

  /** FTRL-Proximal, sparse round at d = 2^22. */
  public static class FtrlSparse extends SparseRoundState {
    @Override
    protected AbstractOptimizer create() {
      return new FtrlOptimizer(d, t, FtrlParams.defaults(), StateLayout.PLANAR, arena, kernels);
    }
  }

  /** KT, sparse round at d = 2^22. */
  public static class KtSparse extends SparseRoundState {
    @Override
    protected AbstractOptimizer create() {
      return new KtOptimizer(d, t, KtParams.defaults(), StateLayout.PLANAR, arena, kernels);
    }
  }

  /** FreeGrad, sparse round at d = 2^22. */
  public static class FreeGradSparse extends SparseRoundState {
    @Override
    protected AbstractOptimizer create() {
      return new FreeGradOptimizer(
          d, t, FreeGradParams.defaults(), StateLayout.PLANAR, arena, kernels);
    }
  }

  /** FTRL-Proximal dense round. */
  @Benchmark
  public double ftrl(Ftrl s) {
    return s.round();
  }

  /** KT dense round. */
  @Benchmark
  public double kt(Kt s) {
    return s.round();
  }

  /** FreeGrad dense round. */
  @Benchmark
  public double freeGrad(FreeGrad s) {
    return s.round();
  }

  /** FTRL-Proximal sparse round. */
  @Benchmark
  public double ftrlSparse(FtrlSparse s) {
    return s.round();
  }

  /** KT sparse round. */
  @Benchmark
  public double ktSparse(KtSparse s) {
    return s.round();
  }

  /** FreeGrad sparse round. */
  @Benchmark
  public double freeGradSparse(FreeGradSparse s) {
    return s.round();
  }
}
