package org.onlinekernels.bench;

import java.util.concurrent.TimeUnit;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.params.AdaptiveOgdParams;
import org.onlinekernels.params.GlobalAdaGradParams;
import org.onlinekernels.rules.aogd.AdaptiveOgdBallOptimizer;
import org.onlinekernels.rules.aogd.AdaptiveOgdCoordinateOptimizer;
import org.onlinekernels.rules.globaladagrad.GlobalAdaGradOptimizer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The gradient-form kernels driven through their optimizers (the reductions they need are part of
 * the work): global-rate AdaGrad and Adaptive OGD in its ball and per-coordinate forms.
 *
 * <p>Minimal traffic per coordinate and step. Global AdaGrad: the rate needs {@code ||g||^2} before
 * the update, so {@code g} is read twice: read {@code g}; read {@code w, g}, write {@code w} = 4
 * elements. AOGD ball: {@code ||g||, <w,g>, ||w||} before the update: read {@code w, g}; read
 * {@code w, g}, write {@code w} = 5. AOGD per-coordinate: one pass, read {@code w, Lsum, g}, write
 * {@code w, Lsum} = 5.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "-Xmx3g"})
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 5, time = 500, timeUnit = TimeUnit.MILLISECONDS)
public class GradientStepBench {
  /** Global AdaGrad, D = 1, no box. */
  public static class GlobalAdaGrad extends StepState {
    @Override
    protected AbstractOptimizer create() {
      return new GlobalAdaGradOptimizer(d, t, GlobalAdaGradParams.ofDiameter(1), arena, kernels);
    }
  }

  /** Adaptive OGD, ball of radius 1. */
  public static class AogdBall extends StepState {
    @Override
    protected AbstractOptimizer create() {
      return new AdaptiveOgdBallOptimizer(d, t, AdaptiveOgdParams.radius(1), arena, kernels);
    }
  }

  /** Adaptive OGD, per coordinate, half-width 1. */
  public static class AogdCoordinate extends StepState {
    @Override
    protected AbstractOptimizer create() {
      return new AdaptiveOgdCoordinateOptimizer(d, t, AdaptiveOgdParams.radius(1), arena, kernels);
    }
  }

  /** Global AdaGrad, sparse at d = 2^22. */
  public static class GlobalAdaGradSparse extends SparseStepState {
    @Override
    protected AbstractOptimizer create() {
      return new GlobalAdaGradOptimizer(d, t, GlobalAdaGradParams.ofDiameter(1), arena, kernels);
    }
  }

  /** Adaptive OGD per coordinate, sparse at d = 2^22. */
  public static class AogdCoordinateSparse extends SparseStepState {
    @Override
    protected AbstractOptimizer create() {
      return new AdaptiveOgdCoordinateOptimizer(d, t, AdaptiveOgdParams.radius(1), arena, kernels);
    }
  }

  /** Global AdaGrad step. */
  @Benchmark
  public Object globalAdaGrad(GlobalAdaGrad s) {
    s.step();
    return s.opt;
  }

  /** AOGD ball step. */
  @Benchmark
  public Object aogdBall(AogdBall s) {
    s.step();
    return s.opt;
  }

  /** AOGD per-coordinate step. */
  @Benchmark
  public Object aogdCoordinate(AogdCoordinate s) {
    s.step();
    return s.opt;
  }

  /** Global AdaGrad sparse step. */
  @Benchmark
  public Object globalAdaGradSparse(GlobalAdaGradSparse s) {
    s.step();
    return s.opt;
  }

  /** AOGD per-coordinate sparse step. */
  @Benchmark
  public Object aogdCoordinateSparse(AogdCoordinateSparse s) {
    s.step();
    return s.opt;
  }
}
