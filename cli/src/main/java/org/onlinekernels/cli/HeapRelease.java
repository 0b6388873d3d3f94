package org.onlinekernels.cli;

/**
 * A full collection where {@code train} has just dropped a large block that lives in the old
 * generation: the rows read ahead once the stream takes over from them, a learner made before the
 * read-ahead that the run does not use (an input that fits in memory, a multiclass stream). Without
 * it the collector, with room left in a heap sized from the machine's memory, puts what comes next
 * (the run's own state, the model's read-out) on pages never touched before, and the process's
 * memory grows by the dropped block; collected, their pages are reused. One such collection costs
 * milliseconds (the live set is the model's state and a few blocks).
 */
final class HeapRelease {
  private HeapRelease() {}

  /** Collects the garbage now (a hint the JVM may ignore, e.g. under -XX:+DisableExplicitGC). */
  static void now() {
    System.gc();
  }
}
