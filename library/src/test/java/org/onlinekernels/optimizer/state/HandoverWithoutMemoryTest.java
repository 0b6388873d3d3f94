package org.onlinekernels.optimizer.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.handover.KernelHandover;

/**
 * A handover whose second state does not fit ({@link StateStore}'s {@code OutOfMemoryError}) leaves
 * the optimizers where they were and training goes on, as {@link KernelHandover#moveAll} promises:
 * a streamed {@code train} whose state took half the heap used to fail there (issue #35).
 */
class HandoverWithoutMemoryTest {
  @AfterEach
  void clearHook() {
    StateStore.beforeAllocate = null;
  }

  @Test
  void aSecondStateThatDoesNotFitLeavesTheOptimizersAsTheyWere() {
    TrainerConfig scinol2 = TrainerConfig.of(AlgorithmSpec.of("scinol2"));
    try (Arena arena = Arena.ofConfined()) {
      LinearModelOptimizer before =
          scinol2
              .algorithm()
              .create(8, scinol2.precision(), StateLayout.PLANAR, arena, KernelProvider.scalar());
      LinearModelOptimizer[] opt = {before};
      StateStore.beforeAllocate =
          (a, bytes) -> {
            throw new OutOfMemoryError("simulated: Java heap space");
          };
      KernelHandover h = KernelHandover.after(0, KernelProvider.vector());
      // Caught here: an OutOfMemoryError let through is this test's failure, not a dead fork
      // (JUnit's assertDoesNotThrow rethrows it).
      boolean moved;
      try {
        moved = h.moveAll(opt, scinol2, 8, StateLayout.PLANAR, null);
      } catch (OutOfMemoryError e) {
        throw new AssertionError("the failed allocation escaped the handover: " + e.getMessage());
      }
      assertFalse(moved);
      assertSame(before, opt[0]);
      StateStore.beforeAllocate = null;
      // Still open and usable: a round on it.
      MemorySegment x = arena.allocate(8L * opt[0].elementType().bytes());
      assertEquals(0.0, opt[0].predict(x));
      opt[0].update(0.5);
    }
  }
}
