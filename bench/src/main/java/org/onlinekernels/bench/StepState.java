package org.onlinekernels.bench;

import java.lang.foreign.MemorySegment;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.GradientOptimizer;
import org.onlinekernels.optimizer.InputPolicy;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One dense gradient-form step of a {@link GradientOptimizer} (global AdaGrad, Adaptive OGD), which
 * includes the reductions the rule needs before its element-wise pass. The gradient alternates
 * between {@code g} and {@code -g} (two pre-built buffers) so the iterate oscillates.
 */
public abstract class StepState extends DenseParams {
  /** The optimizer under test. */
  public AbstractOptimizer opt;

  private GradientOptimizer step;
  private MemorySegment gPlus;
  private MemorySegment gMinus;
  private boolean plus = true;

  /** Builds the optimizer. */
  protected abstract AbstractOptimizer create();

  /** Allocates state and both gradients. */
  @Setup(Level.Trial)
  public void setUp() {
    open();
    warmUp();
    opt = create();
    // Kernel cost only: the CHECKED input scan's cost is in bench-report/kernels-notes.md.
    opt.setInputPolicy(InputPolicy.TRUSTED);
    step = (GradientOptimizer) opt;
    gPlus = BenchData.filled(arena, t, d, BenchData.SEED_X, 1);
    gMinus = BenchData.filled(arena, t, d, BenchData.SEED_X, -1);
  }

  /** JIT warm-up on a small optimizer of the same kind (see {@link DenseParams#WARM_D}). */
  private void warmUp() {
    int realD = d;
    d = WARM_D;
    try (AbstractOptimizer small = create()) {
      MemorySegment a = BenchData.filled(arena, t, d, BenchData.SEED_X, 1);
      MemorySegment b = BenchData.filled(arena, t, d, BenchData.SEED_X, -1);
      GradientOptimizer g = (GradientOptimizer) small;
      for (int i = 0; i < warmCalls; i++) {
        if (i % 500 == 0) small.reset();
        g.step((i & 1) == 0 ? a : b);
      }
    } finally {
      d = realD;
    }
  }

  /** Restarts from the initial state. */
  @Setup(Level.Iteration)
  public void reset() {
    opt.reset();
    plus = true;
  }

  /** One step. */
  public void step() {
    step.step(plus ? gPlus : gMinus);
    plus = !plus;
  }

  /** Throws if the state is broken. */
  @TearDown(Level.Iteration)
  public void check() {
    checksum();
  }

  /** Sum over the state after checking it is finite and that {@code w} moved. */
  public double checksum() {
    double sum = BenchData.stateSum(opt, d);
    BenchData.requireMoved("w", opt.state().get("w"), t, d, 0);
    return sum;
  }

  /** Frees everything. */
  @TearDown(Level.Trial)
  public void tearDown() {
    opt.close();
    close();
  }
}
