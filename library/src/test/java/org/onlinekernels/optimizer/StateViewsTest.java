package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.ElementType;

/**
 * docs/GUARANTEES.md, Threads: "state() views are read-only" (issue #41: views made writable left
 * every suite green). For every optimizer, float and double, planar and interleaved: every view is
 * read-only, a write to it is refused, and a view given as a kernel's output is refused with the
 * state unchanged.
 */
class StateViewsTest {
  @Test
  void everyStateViewIsReadOnly() {
    for (AllOptimizers.Named n : AllOptimizers.all()) {
      for (ElementType t : ElementType.values()) {
        try (AbstractOptimizer o = n.create(3, t)) {
          Map<String, MemorySegment> views = o.state();
          assertFalse(views.isEmpty(), n + " has state");
          StateSnapshot before = StateSnapshot.of(o);
          for (Map.Entry<String, MemorySegment> v : views.entrySet()) {
            String what = n + " " + t + " " + v.getKey();
            MemorySegment view = v.getValue();
            assertTrue(view.isReadOnly(), what + " is writable");
            // JDK 25 refuses a write to a read-only segment with IllegalArgumentException.
            assertThrows(
                IllegalArgumentException.class,
                () -> view.set(ValueLayout.JAVA_BYTE, 0, (byte) 1),
                what);
            if (view.byteSize() >= (long) o.dimension() * t.bytes()) {
              assertThrows(IllegalArgumentException.class, () -> o.readWeights(view), what);
            }
          }
          before.assertSame(o, n + " " + t);
        }
      }
    }
  }
}
