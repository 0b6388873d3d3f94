package org.onlinekernels.bench;

import java.lang.foreign.MemorySegment;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.GradientOptimizer;

/**
 * One dense gradient-form step of a {@link GradientOptimizer} (global AdaGrad, Adaptive OGD), which
 * includes the reductions the rule needs before its element-wise pass, in {@link RoundState}'s
 * set-up, warm-up, reset and checks. The gradient alternates between {@code g} and {@code -g} (the
 * two instances) so the iterate oscillates; {@code w} must move.
 */
public abstract class StepState extends RoundState {
  /** {@code g} ({@link BenchData#SEED_X}), or the second instance {@code -g}. */
  @Override
  protected MemorySegment input(boolean second) {
    return BenchData.filled(arena, t, d, BenchData.SEED_X, second ? -1 : 1);
  }

  /** A gradient step of {@code o} on {@code g} (the label is not used); returns 0. */
  @Override
  protected double call(AbstractOptimizer o, MemorySegment g, double y) {
    ((GradientOptimizer) o).step(g);
    return 0;
  }

  @Override
  protected String movedBuffer() {
    return "w";
  }

  /** One step. */
  public void step() {
    round();
  }
}
