package org.onlinekernels.optimizer.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.AllOptimizers;
import org.onlinekernels.rules.scinol1.ScInOL1Optimizer;

/**
 * Issue 12, item 9: an optimizer constructor whose allocation fails used to leave the buffers it
 * had allocated resident for good (its confined arena was never closed; after a failed {@code new
 * ScInOL2Optimizer(1 << 30, ...)} and a GC, 4 GB stayed). The last allocation of every optimizer is
 * made to fail here; the arena it owned must be closed, with a clear message.
 */
class FailedAllocationTest {
  @AfterEach
  void clearHook() {
    StateStore.beforeAllocate = null;
  }

  @Test
  void aFailedConstructorClosesTheArenaItOwns() {
    for (AllOptimizers.Named n : AllOptimizers.all()) {
      // First count the optimizer's allocations, then fail the last one: every earlier buffer
      // must be freed with the arena.
      int[] count = {0};
      StateStore.beforeAllocate = (arena, bytes) -> count[0]++;
      n.create(16, ElementType.FLOAT).close();
      List<Arena> seen = new ArrayList<>();
      StateStore.beforeAllocate =
          (arena, bytes) -> {
            seen.add(arena);
            if (seen.size() == count[0]) {
              throw new OutOfMemoryError("simulated: cannot allocate " + bytes + " bytes");
            }
          };
      OutOfMemoryError e =
          assertThrows(OutOfMemoryError.class, () -> n.create(16, ElementType.FLOAT), n::toString);
      assertTrue(
          e.getMessage().contains("with d = 16: cannot allocate state buffer '"), e.getMessage());
      assertTrue(e.getMessage().endsWith("what was allocated is freed"), e.getMessage());
      assertFalse(
          seen.get(seen.size() - 1).scope().isAlive(), n + ": the owned arena must be closed");
    }
  }

  @Test
  void aCallersArenaIsLeftToTheCaller() {
    StateStore.beforeAllocate =
        (arena, bytes) -> {
          throw new OutOfMemoryError("simulated");
        };
    try (Arena mine = Arena.ofConfined()) {
      OutOfMemoryError e =
          assertThrows(
              OutOfMemoryError.class,
              () ->
                  new ScInOL1Optimizer(
                      4,
                      ElementType.DOUBLE,
                      org.onlinekernels.params.ScInOLParams.defaults(),
                      mine,
                      null));
      assertTrue(mine.scope().isAlive());
      assertTrue(
          e.getMessage().endsWith("what was allocated stays in the caller's arena"),
          e.getMessage());
      assertEquals("simulated", e.getCause().getMessage());
    }
  }
}
