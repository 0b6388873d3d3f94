package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.function.Executable;

/**
 * Every state buffer (raw bytes) and scalar (raw bits) of an optimizer at one moment, for "a
 * rejected call leaves the state bit-identical" checks.
 */
public record StateSnapshot(Map<String, byte[]> buffers, Map<String, Long> scalars) {
  /** Copies the state of {@code o} (from its owner thread). */
  public static StateSnapshot of(AbstractOptimizer o) {
    Map<String, byte[]> b = new LinkedHashMap<>();
    for (Map.Entry<String, MemorySegment> e : o.state().entrySet()) {
      b.put(e.getKey(), e.getValue().toArray(ValueLayout.JAVA_BYTE));
    }
    Map<String, Long> s = new TreeMap<>();
    o.scalarState().forEach((k, v) -> s.put(k, Double.doubleToRawLongBits(v)));
    return new StateSnapshot(b, s);
  }

  /** Fails unless {@code o}'s state equals this snapshot bit for bit. */
  public void assertSame(AbstractOptimizer o, String context) {
    StateSnapshot now = of(o);
    assertEquals(buffers.keySet(), now.buffers.keySet(), context);
    for (String k : buffers.keySet()) {
      assertArrayEquals(buffers.get(k), now.buffers.get(k), context + ": buffer " + k + " changed");
    }
    assertEquals(scalars, now.scalars, context + ": scalars changed");
  }

  /** Every element of every buffer and every scalar is finite (box bounds excepted). */
  public static boolean allFinite(AbstractOptimizer o) {
    for (Map.Entry<String, MemorySegment> e : o.state().entrySet()) {
      if (e.getKey().equals("lo") || e.getKey().equals("hi")) continue;
      MemorySegment s = e.getValue();
      boolean f = o.stateType(e.getKey()) == org.onlinekernels.kernel.ElementType.FLOAT;
      long n = s.byteSize() / (f ? 4 : 8);
      for (long i = 0; i < n; i++) {
        double v =
            f
                ? s.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i)
                : s.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
        if (!Double.isFinite(v)) return false;
      }
    }
    return o.scalarState().values().stream().allMatch(Double::isFinite);
  }

  /**
   * Snapshots {@code o}, runs {@code bad}, asserts it throws {@code expected}, and asserts the
   * state is unchanged. Returns the exception for message checks.
   */
  public static <T extends Throwable> T assertRejected(
      AbstractOptimizer o, Class<T> expected, Executable bad, String context) {
    StateSnapshot before = of(o);
    T t = assertThrows(expected, bad, context);
    before.assertSame(o, context);
    return t;
  }
}
