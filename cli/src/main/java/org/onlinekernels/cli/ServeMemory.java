package org.onlinekernels.cli;

import java.util.concurrent.atomic.AtomicLong;
import org.onlinekernels.io.ByteLines;

/**
 * The memory {@code serve} lets its connections use for the lines they read, shared by all of them,
 * so that no number of clients and no line length can run the JVM out of memory: each connection
 * takes {@link #CONNECTION_BYTES} when accepted (its first line buffer, and the parsing of short
 * lines), every byte its buffer grows beyond the first ({@link ByteLines.Budget}), and while a line
 * longer than {@link #SHORT_LINE} is parsed an estimate of what parsing it allocates ({@link
 * #parsing}); all of it is given back when done. A connection the budget cannot hold is told so and
 * closed; a line it cannot hold gets an {@code error:} line. By default half the heap that is free
 * once the model is loaded ({@link #ofHeap}).
 */
final class ServeMemory implements ByteLines.Budget {
  /** The smallest budget, whatever the heap: a few connections with short lines. */
  static final long MIN_BYTES = 16L << 20;

  /**
   * The longest line a connection parses with the memory it took when accepted; a longer one takes
   * what parsing it needs ({@link #parsing}) for the time it is parsed.
   */
  static final int SHORT_LINE = 1 << 12;

  /** What a connection takes when accepted: its first line buffer and a short line's parsing. */
  static final long CONNECTION_BYTES = ByteLines.FIRST_BUFFER_BYTES + parsing(SHORT_LINE, true);

  private final long total;
  private final AtomicLong free;

  /** A budget of {@code bytes}. */
  ServeMemory(long bytes) {
    this.total = bytes;
    this.free = new AtomicLong(bytes);
  }

  /** Half the heap not in use now (at least {@link #MIN_BYTES}). */
  static ServeMemory ofHeap() {
    Runtime r = Runtime.getRuntime();
    long used = r.totalMemory() - r.freeMemory();
    return new ServeMemory(Math.max(MIN_BYTES, (r.maxMemory() - used) / 2));
  }

  @Override
  public boolean take(long bytes) {
    long f;
    do {
      f = free.get();
      if (f < bytes) {
        return false;
      }
    } while (!free.compareAndSet(f, f - bytes));
    return true;
  }

  @Override
  public void give(long bytes) {
    free.addAndGet(bytes);
  }

  /** The budget's size, in bytes. */
  long total() {
    return total;
  }

  /** The bytes not taken now. */
  long free() {
    return free.get();
  }

  /**
   * An estimate of the bytes parsing a line of {@code lineBytes} allocates at most (measured: about
   * 8 per byte for LIBSVM and 27 for Vowpal Wabbit text of one-letter features, the reader's own
   * copy of the line and its growing arrays included), to take before parsing it.
   */
  static long parsing(long lineBytes, boolean vw) {
    return lineBytes * (vw ? 32 : 12);
  }
}
