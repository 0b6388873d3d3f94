package org.onlinekernels.trainer.parallel;

/**
 * The steady-state span of one parallel fit: from the first block (shared state) or round (mixing)
 * that starts at or after half of the fit's examples, to the end of the fit. It leaves out what the
 * first half pays once (the data prepared for the rounds, the JIT compiling them while the workers
 * already compete for the cores) so that one thread count's rate compares with another's and with
 * the sequential trainer's steady-state rate, which is measured the same way.
 */
final class SteadySpan {
  private final long total;
  private final long half;

  /**
   * The fewest examples a span is given for: a worker may still be inside a block it took before
   * the span started, whose time the span holds but whose examples it does not count; over this
   * many examples that is at most 1/16 of the span.
   */
  private final long fewest;

  private volatile long startPosition = -1;
  private volatile long startNanos;
  private long endNanos;

  /**
   * The span of a fit of {@code epochs} passes over {@code rows} rows on {@code threads} threads in
   * blocks or rounds of at most {@code block} rows each.
   */
  SteadySpan(int rows, int epochs, int threads, int block) {
    this.total = (long) rows * epochs;
    this.half = total / 2;
    this.fewest = 16L * threads * block;
  }

  /**
   * A block or round starts at {@code position} (counted over all epochs from 0), the one before it
   * at {@code previous} (-1 for the first): the one that first reaches half the examples starts the
   * span. Exactly one block does, so the workers need no coordination here.
   */
  void starting(long previous, long position) {
    if (position >= half && previous < half && position < total) {
      startNanos = System.nanoTime();
      startPosition = position;
    }
  }

  /** The fit has ended. */
  void end() {
    endNanos = System.nanoTime();
  }

  /** Examples of the span (0 if it never started or is too short to mean something). */
  long examples() {
    return measured() ? total - startPosition : 0;
  }

  /** Wall seconds of the span (0 where {@link #examples} is). */
  double seconds() {
    return measured() ? (endNanos - startNanos) / 1e9 : 0;
  }

  private boolean measured() {
    return startPosition >= 0 && total - startPosition >= fewest;
  }
}
