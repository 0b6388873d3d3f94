package org.onlinekernels.optimizer;

import java.util.List;

/**
 * A merge ({@link StatefulOptimizer#merge}) of learners that differ from the state they started
 * from only at a known set of coordinates (the rows they trained on named them: {@link
 * AbstractOptimizer#roundsWriteOnlyTheirRow}), which costs time in proportion to those coordinates
 * instead of {@code d}, and runs by ranges of them on several threads. It gives {@code merge}'s
 * state bit for bit, and leaves every learner holding it too, ready for the next round of iterative
 * parameter mixing without a copy of the whole state.
 *
 * <p>Protocol (the caller orders the steps, e.g. with a barrier between them, which also makes each
 * step's writes visible to the next): {@link #prepare} on the thread that owns {@code into}; {@link
 * #check} over ranges that cover {@code [0, size())}, on any threads; then {@link #write} over
 * ranges that cover it; then {@link #finish} on {@code into}'s thread. The learners may be owned by
 * other threads but must be idle from {@code prepare} to {@code finish}.
 */
public final class CoordinateMerge {
  private final StateMerger merger;

  /** The ball projection's factor (1 without a ball). */
  private final double scale;

  private CoordinateMerge(StateMerger merger, double scale) {
    this.merger = merger;
    this.scale = scale;
  }

  /**
   * Prepares the merge of {@code learners} into {@code into} at coordinates {@code coords[0..n)}:
   * ascending, and every learner equal to {@code into} at every other coordinate; or, with {@code
   * coords} null, at every coordinate (a ball's norm taken here, serially). Checks the learners (as
   * {@code merge} does, except their owner thread), orders them and merges the scalars; writes
   * nothing.
   *
   * @throws IllegalArgumentException for an incompatible learner or coordinates out of order
   * @throws IllegalStateException for a list of coordinates and a rule whose merged weights are
   *     projected onto a ball (its merge needs every coordinate)
   * @throws ArithmeticException if a merged scalar overflows (nothing written)
   */
  public static CoordinateMerge prepare(
      AbstractOptimizer into, List<? extends AbstractOptimizer> learners, int[] coords, int n) {
    into.checkOpen();
    if (coords == null) {
      StateMerger m = StateMerger.prepare(into, learners, null, into.d, false);
      double scale = m.ballScale();
      into.stateReplaced();
      return new CoordinateMerge(m, scale);
    }
    MergePlan plan = into.mergePlan();
    if (plan != null && !Double.isNaN(plan.ballRadius)) {
      throw new IllegalStateException(
          into.algorithm()
              + " projects its merged weights onto a ball, which needs every coordinate: pass coords = null");
    }
    if (n < 0 || n > coords.length) {
      throw new IllegalArgumentException(n + " coordinates of a list of " + coords.length);
    }
    for (int q = 0; q < n; q++) {
      if (coords[q] < 0 || coords[q] >= into.d || (q > 0 && coords[q] <= coords[q - 1])) {
        throw new IllegalArgumentException(
            "coordinate "
                + coords[q]
                + " at "
                + q
                + " is outside 0.."
                + (into.d - 1)
                + " or not above the one before");
      }
    }
    StateMerger m = StateMerger.prepare(into, learners, coords, n, false);
    into.stateReplaced();
    return new CoordinateMerge(m, 1.0);
  }

  /** The number of coordinates. */
  public int size() {
    return merger.size();
  }

  /** Checks that the merged sums at positions {@code [lo, hi)} of the list fit the element type. */
  public void check(int lo, int hi) {
    merger.check(lo, hi);
  }

  /** Writes the merged state at positions {@code [lo, hi)} into {@code into} and every learner. */
  public void write(int lo, int hi) {
    merger.write(lo, hi, scale, true);
  }

  /** The merged scalars into {@code into} and every learner (DFEG recomputes its norm first). */
  public void finish() {
    merger.finish(true);
  }
}
