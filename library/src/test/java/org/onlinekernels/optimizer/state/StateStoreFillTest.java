package org.onlinekernels.optimizer.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.kernel.ElementType;

/**
 * {@link StateStore#fill} writes what {@link StateStore#set} writes element by element, and nothing
 * else: on the heap (interleaved, where it loops over the array itself) and off it (planar), float
 * and double, with the other variables holding values of their own.
 */
class StateStoreFillTest {
  private static final String[] NAMES = {"G", "S2", "M", "eta"};

  @ParameterizedTest
  @CsvSource({"FLOAT, INTERLEAVED", "DOUBLE, INTERLEAVED", "FLOAT, PLANAR", "DOUBLE, PLANAR"})
  void fillWritesWhatSetWritesAndNothingElse(ElementType type, StateLayout layout) {
    int d = 1003;
    try (Arena a = Arena.ofConfined();
        Arena b = Arena.ofConfined()) {
      StateStore filled = new StateStore("t", d, a, false);
      StateStore set = new StateStore("t", d, b, false);
      MemorySegment x = filled.allocateBlock(NAMES, type, layout);
      MemorySegment y = set.allocateBlock(NAMES, type, layout);
      for (StateStore s : new StateStore[] {filled, set}) {
        for (int k = 0; k < NAMES.length; k++) {
          for (int i = 0; i < d; i++) {
            s.set(NAMES[k], i, k * 1000 + i + 0.25);
          }
        }
      }
      filled.fill("M", 0.1);
      for (int i = 0; i < d; i++) {
        set.set("M", i, 0.1);
      }
      assertEquals(-1, x.mismatch(y), "the buffers differ at this byte");
      assertEquals(type == ElementType.FLOAT ? (double) 0.1f : 0.1, filled.get("M", d - 1));
      assertEquals(1000 + d - 1 + 0.25, filled.get("S2", d - 1), "the other variables are kept");
      assertEquals(3000 + d - 1 + 0.25, filled.get("eta", d - 1));
    }
  }
}
