package org.onlinekernels.testkit;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.ElementType;

/** Segments for a case: native or heap, starting at the case's byte offset. */
public final class Buffers {
  private final Arena arena;
  private final Case c;

  /** Segments for case {@code c}; native ones are allocated in {@code arena}. */
  public Buffers(Arena arena, Case c) {
    this.arena = arena;
    this.c = c;
  }

  /** The element type of the case. */
  public ElementType type() {
    return c.type();
  }

  /** A zeroed segment of {@code bytes} at the case's offset. */
  public MemorySegment raw(long bytes) {
    long total = bytes + c.byteOffset();
    MemorySegment m =
        c.heap() ? MemorySegment.ofArray(new byte[(int) total]) : arena.allocate(total, 64);
    return m.asSlice(c.byteOffset(), bytes);
  }

  /** {@code v} as a segment of the case's element type. */
  public MemorySegment of(double[] v) {
    MemorySegment m = raw((long) v.length * c.type().bytes());
    write(m, c.type(), v);
    return m;
  }

  /** {@code v} as an {@code int} segment. */
  public MemorySegment ints(int[] v) {
    MemorySegment m = raw(4L * v.length);
    for (int i = 0; i < v.length; i++) {
      m.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, v[i]);
    }
    return m;
  }

  /** Writes {@code v} into {@code m} as elements of {@code t} (unaligned, native byte order). */
  public static void write(MemorySegment m, ElementType t, double[] v) {
    for (int i = 0; i < v.length; i++) {
      if (t == ElementType.FLOAT) {
        m.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) v[i]);
      } else {
        m.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, v[i]);
      }
    }
  }

  /** The first {@code n} elements of type {@code t} of {@code m}, as doubles. */
  public static double[] read(MemorySegment m, ElementType t, int n) {
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] =
          t == ElementType.FLOAT
              ? m.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i)
              : m.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
    }
    return v;
  }
}
