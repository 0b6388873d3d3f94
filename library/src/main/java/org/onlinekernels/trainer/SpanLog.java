package org.onlinekernels.trainer;

/**
 * When a stream run reached how many examples: (examples, {@link System#nanoTime}) pairs taken at
 * block ends, kept in a bounded log (when full, every other pair is dropped and pairs are taken
 * half as often), so that once the run is over its steady-state span, the second half of its
 * examples ({@link TrainResult}), can be found without knowing the total in advance. Its start is
 * the first pair at or after half the examples, at most about {@code 1/CAPACITY} of the run late.
 */
final class SpanLog {
  private static final int CAPACITY = 1024;
  private final long[] seen = new long[CAPACITY];
  private final long[] nanos = new long[CAPACITY];
  private int size;
  private long calls;
  private int stride = 1;

  /** A log that starts at {@code examples} examples, now. */
  SpanLog(long examples) {
    seen[0] = examples;
    nanos[0] = System.nanoTime();
    size = 1;
  }

  /** {@code examples} examples are done now. */
  void at(long examples) {
    if (++calls % stride != 0) {
      return;
    }
    if (size == CAPACITY) {
      for (int i = 0; i < CAPACITY / 2; i++) {
        seen[i] = seen[2 * i];
        nanos[i] = nanos[2 * i];
      }
      size = CAPACITY / 2;
      stride *= 2;
    }
    seen[size] = examples;
    nanos[size] = System.nanoTime();
    size++;
  }

  /** The first pair at or after {@code examples}: its index, or the last pair's. */
  private int from(long examples) {
    for (int i = 0; i < size; i++) {
      if (seen[i] >= examples) {
        return i;
      }
    }
    return size - 1;
  }

  /** Examples from the first pair at or after {@code examples} to {@code end}. */
  long examplesFrom(long examples, long end) {
    return end - seen[from(examples)];
  }

  /** Nanoseconds from the first pair at or after {@code examples} to {@code endNanos}. */
  long nanosFrom(long examples, long endNanos) {
    return endNanos - nanos[from(examples)];
  }
}
