package org.onlinekernels.trainer;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.trainer.handover.KernelHandover;

/**
 * {@link KernelHandover#moveAll} is public (the parallel trainers' learners move through it): a
 * wrong argument is refused with a message and nothing moved, instead of being taken for a failed
 * move (it used to return false, the optimizers silently left where they were).
 */
class KernelHandoverMoveAllTest {
  private static final TrainerConfig SCINOL2 = TrainerConfig.of(AlgorithmSpec.of("scinol2"));

  @Test
  void theLibrarysOptimizersOfTheConfigurationMove() {
    try (Arena arena = Arena.ofConfined()) {
      LinearModelOptimizer[] opt = {make(SCINOL2, 8, arena)};
      KernelHandover h = KernelHandover.after(0, KernelProvider.vector());
      assertTrue(h.moveAll(opt, SCINOL2, 8, StateLayout.PLANAR, null));
      opt[0].close();
    }
  }

  @Test
  void aWrongDimensionOrAlgorithmOrANullIsRefusedWithNothingMoved() {
    try (Arena arena = Arena.ofConfined()) {
      LinearModelOptimizer before = make(SCINOL2, 8, arena);
      LinearModelOptimizer[] opt = {before};
      KernelHandover h = KernelHandover.after(0, KernelProvider.vector());
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> h.moveAll(opt, SCINOL2, 9, StateLayout.PLANAR, null));
      assertTrue(e.getMessage().contains("opt[0] is scinol2 of dimension 8"), e.getMessage());
      TrainerConfig adagrad = TrainerConfig.of(AlgorithmSpec.of("adagrad"));
      assertThrows(
          IllegalArgumentException.class,
          () -> h.moveAll(opt, adagrad, 8, StateLayout.PLANAR, null));
      assertThrows(
          IllegalArgumentException.class,
          () -> h.moveAll(new LinearModelOptimizer[] {null}, SCINOL2, 8, StateLayout.PLANAR, null));
      assertThrows(
          IllegalArgumentException.class, () -> h.moveAll(opt, null, 8, StateLayout.PLANAR, null));
      assertSame(before, opt[0]);
    }
  }

  private static LinearModelOptimizer make(TrainerConfig c, int d, Arena arena) {
    return c.algorithm()
        .create(d, c.precision(), StateLayout.PLANAR, arena, KernelProvider.scalar());
  }
}
