package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;

/**
 * The fused round on the caller's own segments ({@code round(indices, values, nnz, y, loss)}): bad
 * input is refused at the entry with the state left as it was, and a good row gives the bits of the
 * round on the same row in {@link SparseRows}, at odd offsets of heap and native segments.
 */
class BufferRoundTest {
  private static final int D = 12;

  static List<AllOptimizers.Named> optimizers() {
    return AllOptimizers.all();
  }

  private static MemorySegment ints(Arena arena, long offsetBytes, int... v) {
    MemorySegment m = arena.allocate(4L * v.length + offsetBytes, 8).asSlice(offsetBytes);
    for (int j = 0; j < v.length; j++) {
      m.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, j, v[j]);
    }
    return m;
  }

  private static MemorySegment values(ElementType t, long offsetBytes, double... v) {
    // On the heap, at an odd byte offset.
    MemorySegment m =
        MemorySegment.ofArray(new byte[(int) (v.length * t.bytes() + offsetBytes)])
            .asSlice(offsetBytes);
    for (int j = 0; j < v.length; j++) {
      if (t == ElementType.FLOAT) {
        m.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, j, (float) v[j]);
      } else {
        m.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, j, v[j]);
      }
    }
    return m;
  }

  private static Map<String, byte[]> snapshot(AbstractOptimizer o) {
    java.util.TreeMap<String, byte[]> s = new java.util.TreeMap<>();
    o.state().forEach((k, v) -> s.put(k, v.toArray(ValueLayout.JAVA_BYTE)));
    o.scalarState()
        .forEach(
            (k, v) ->
                s.put("scalar " + k, Long.toString(Double.doubleToRawLongBits(v)).getBytes()));
    return s;
  }

  private static void assertSameState(Map<String, byte[]> a, Map<String, byte[]> b, String what) {
    assertEquals(a.keySet(), b.keySet(), what);
    for (String k : a.keySet()) {
      assertTrue(java.util.Arrays.equals(a.get(k), b.get(k)), what + ": " + k + " changed");
    }
  }

  @ParameterizedTest
  @MethodSource("optimizers")
  void badRowsAreRefusedAndChangeNothing(AllOptimizers.Named named) {
    for (ElementType t : ElementType.values()) {
      try (Arena arena = Arena.ofConfined();
          AbstractOptimizer o = named.create(D, t)) {
        // Some history, so that "unchanged" means something.
        o.round(ints(arena, 4, 1, 5, 7), values(t, 3, 0.5, -2, 1), 3, 1, Loss.LOGISTIC);
        Map<String, byte[]> before = snapshot(o);
        String[] messages = {
          refuse(o, ints(arena, 4, 5, 1), values(t, 1, 1, 1), 2, 1, Loss.LOGISTIC),
          refuse(o, ints(arena, 0, 1, D), values(t, 1, 1, 1), 2, 1, Loss.LOGISTIC),
          refuse(o, ints(arena, 0, -1, 3), values(t, 1, 1, 1), 2, 1, Loss.LOGISTIC),
          refuse(o, ints(arena, 0, 1, 3), values(t, 1, 1, Double.NaN), 2, 1, Loss.LOGISTIC),
          refuse(o, ints(arena, 0, 1, 3, 5), values(t, 1, 1, 1), 3, 1, Loss.LOGISTIC),
          refuse(o, ints(arena, 0, 1, 3), values(t, 1, 1, 1), 2, Double.NaN, Loss.LOGISTIC),
          refuse(o, ints(arena, 0, 1, 3), values(t, 1, 1, 1), 2, 1, null),
          refuse(o, ints(arena, 0, 1, 3), values(t, 1, 1, 1), -1, 1, Loss.LOGISTIC),
        };
        String[] expected = {
          "strictly increasing",
          "outside [0, " + D + ")",
          "outside",
          "not finite",
          "values",
          "y",
          "loss",
          "nnz"
        };
        for (int k = 0; k < messages.length; k++) {
          assertTrue(
              messages[k].contains(expected[k]),
              named + " " + t + " case " + k + ": " + messages[k]);
        }
        assertSameState(before, snapshot(o), named + " " + t);
      }
    }
  }

  private static String refuse(
      AbstractOptimizer o, MemorySegment idx, MemorySegment val, int nnz, double y, Loss loss) {
    return assertThrows(IllegalArgumentException.class, () -> o.round(idx, val, nnz, y, loss))
        .getMessage();
  }

  @ParameterizedTest
  @MethodSource("optimizers")
  void aRowInTheCallersBuffersIsTheSameRoundAsInSparseRows(AllOptimizers.Named named) {
    int[][] idx = {{0, 3, 4, 9, 11}, {}, {2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {3, 4, 9}};
    double[][] val = {
      {1, -0.5, 2, 0.25, -3}, {}, {-1.5}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {0.125, 0, -4}
    };
    int[] start = new int[idx.length + 1];
    int n = 0;
    for (int r = 0; r < idx.length; r++) {
      n += idx[r].length;
      start[r + 1] = n;
    }
    int[] flatIdx = new int[n];
    double[] flatVal = new double[n];
    for (int r = 0; r < idx.length; r++) {
      System.arraycopy(idx[r], 0, flatIdx, start[r], idx[r].length);
      System.arraycopy(val[r], 0, flatVal, start[r], val[r].length);
    }
    for (ElementType t : ElementType.values()) {
      SparseRows rows = SparseRows.of(start, flatIdx, flatVal, t);
      try (Arena arena = Arena.ofConfined();
          AbstractOptimizer a = named.create(D, t);
          AbstractOptimizer b = named.create(D, t)) {
        for (int pass = 0; pass < 3; pass++) {
          for (int r = 0; r < idx.length; r++) {
            double y = (r + pass) % 2 == 0 ? 1 : -1;
            double ya = a.round(rows, r, y, Loss.LOGISTIC);
            double yb =
                b.round(
                    ints(arena, 4 * (r % 2), idx[r]),
                    values(t, r % 3, val[r]),
                    idx[r].length,
                    y,
                    Loss.LOGISTIC);
            assertEquals(
                Double.doubleToRawLongBits(ya),
                Double.doubleToRawLongBits(yb),
                named + " " + t + " row " + r);
            assertSameState(
                snapshot(a), snapshot(b), named + " " + t + " pass " + pass + " row " + r);
          }
        }
      }
    }
  }

  /**
   * The overload with a loss slot: the same score and state as the round without it, and in the
   * slot the bits of {@code loss.value(y, yhat)}, for every loss (the logistic one shares its
   * {@code exp}); a missing or outside slot is refused before anything runs.
   */
  @ParameterizedTest
  @MethodSource("optimizers")
  void theLossSlotGetsTheLossOfTheSameRound(AllOptimizers.Named named) {
    int[][] idx = {{0, 3, 4, 9, 11}, {2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {3, 4, 9}};
    double[][] val = {
      {1, -0.5, 2, 0.25, -3}, {-1.5}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {3, 0, -4}
    };
    for (ElementType t : ElementType.values()) {
      for (Loss loss : Loss.values()) {
        try (Arena arena = Arena.ofConfined();
            AbstractOptimizer a = named.create(D, t);
            AbstractOptimizer b = named.create(D, t)) {
          double[] losses = {Double.NaN, Double.NaN, Double.NaN};
          for (int pass = 0; pass < 3; pass++) {
            for (int r = 0; r < idx.length; r++) {
              double y = (r + pass) % 2 == 0 ? 1 : -1;
              MemorySegment is = ints(arena, 4 * (r % 2), idx[r]);
              MemorySegment vs = values(t, r % 3, val[r]);
              double ya = a.round(is, vs, idx[r].length, y, loss);
              double yb = b.round(is, vs, idx[r].length, y, loss, losses, 1);
              String what = named + " " + t + " " + loss + " pass " + pass + " row " + r;
              assertEquals(Double.doubleToRawLongBits(ya), Double.doubleToRawLongBits(yb), what);
              assertEquals(
                  Double.doubleToRawLongBits(loss.value(y, ya)),
                  Double.doubleToRawLongBits(losses[1]),
                  what + ": the loss");
              assertTrue(
                  Double.isNaN(losses[0]) && Double.isNaN(losses[2]), what + ": other slots");
              assertSameState(snapshot(a), snapshot(b), what);
            }
          }
          Map<String, byte[]> before = snapshot(b);
          MemorySegment is = ints(arena, 0, 1, 3);
          MemorySegment vs = values(t, 0, 1, 1);
          for (int at : new int[] {-1, 3}) {
            String m =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> b.round(is, vs, 2, 1, loss, losses, at))
                    .getMessage();
            assertTrue(m.contains("loss slot " + at), m);
          }
          String m =
              assertThrows(
                      IllegalArgumentException.class, () -> b.round(is, vs, 2, 1, loss, null, 0))
                  .getMessage();
          assertTrue(m.contains("losses"), m);
          assertSameState(before, snapshot(b), named + " " + t + " " + loss + ": refused slots");
        }
      }
    }
  }
}
