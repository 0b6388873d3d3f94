package org.onlinekernels.optimizer.parallel;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.onlinekernels.kernel.lanes.RecordTouch;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.StatefulOptimizer;
import org.onlinekernels.optimizer.internal.StateAccess;
import org.onlinekernels.optimizer.merge.StateMerger;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.StateStore;

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
  /**
   * Positions whose records are loaded at once ({@link RecordTouch}) before a pass computes on
   * them: the records of a list of coordinates are scattered over the state, and the passes'
   * arithmetic between two loads keeps the out-of-order window to a few coordinates, so their
   * misses would otherwise be waited for almost one by one. Small enough for every touched record
   * of every state to stay in the core's own cache until the pass.
   */
  private static final int TOUCH = 256;

  /**
   * The least stride, in bytes, of a segment whose records are loaded ahead: at most four records
   * to a cache line. Measured on the issue-22 stream (two threads, a merge every 10,000 rows; the
   * figures are in the report of issue 22): ScInOL2's 16-byte float records gain from it; AdaGrad's
   * 8-byte ones, eight to a line, lose (neighbouring coordinates already share their misses).
   */
  private static final long TOUCH_STRIDE = 16;

  private final StateMerger merger;

  /** The ball projection's factor (1 without a ball). */
  private final double scale;

  /** The coordinates, or null for all of them (read in order: nothing to touch). */
  private final int[] coords;

  /**
   * What a pass reads and writes at a coordinate: per state ({@code into}'s and every learner's),
   * the segment of each record (interleaved) or variable (planar) and its stride in bytes; only
   * those of at least {@link #TOUCH_STRIDE} bytes, and none without a list of coordinates.
   */
  private final MemorySegment[] segments;

  private final long[] strides;

  /** Whether {@link #check} reads the state (a SUM buffer), or has nothing to check. */
  private final boolean checks;

  private CoordinateMerge(
      StateMerger merger,
      double scale,
      int[] coords,
      StateAccess into,
      List<? extends StateAccess> learners) {
    this.merger = merger;
    this.scale = scale;
    this.coords = coords;
    List<StateStore.Field> starts = new ArrayList<>();
    if (coords != null) {
      starts(into, starts);
      for (StateAccess l : learners) {
        starts(l, starts);
      }
    }
    starts.removeIf(f -> f.stride() * f.type().bytes() < TOUCH_STRIDE);
    this.segments = new MemorySegment[starts.size()];
    this.strides = new long[starts.size()];
    for (int s = 0; s < segments.length; s++) {
      segments[s] = starts.get(s).segment();
      strides[s] = starts.get(s).stride() * starts.get(s).type().bytes();
    }
    boolean sums = false;
    for (MergePlan.Buffer b : into.mergePlan().buffers()) {
      sums |= b.rule() == MergePlan.Rule.SUM;
    }
    this.checks = sums;
  }

  /** The variables of {@code o} that start a record or a buffer (offset 0): one per cache miss. */
  private static void starts(StateAccess o, List<StateStore.Field> out) {
    for (String name : o.store().names()) {
      StateStore.Field f = o.store().field(name);
      if (f.offset() == 0) {
        out.add(f);
      }
    }
  }

  /** Loads the records of positions {@code [lo, hi)} of every state. */
  private void touch(int lo, int hi) {
    for (int s = 0; s < segments.length; s++) {
      RecordTouch.touch(segments[s], 0, 1, strides[s], coords, lo, hi - lo);
    }
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
    return prepare(into, learners, coords, n, null);
  }

  /**
   * {@link #prepare(AbstractOptimizer, List, int[], int)}, told for each position {@code q < n}
   * which learner alone named {@code coords[q]} ({@code owners[q]}, its index in {@code learners}),
   * or -1 where several did: such a position is copied from its learner, not combined, and has no
   * sum to check (the same bits: {@link StateMerger#soloOwners}).
   *
   * @param owners per position the only learner whose rows named it, or -1; null: not known
   * @throws IllegalArgumentException also for an owner outside {@code -1..learners.size()-1}
   */
  public static CoordinateMerge prepare(
      AbstractOptimizer into,
      List<? extends AbstractOptimizer> learners,
      int[] coords,
      int n,
      int[] owners) {
    CoordinateMerge m =
        prepare(into.stateAccess(), StatefulOptimizer.stateAccess(learners), coords, n);
    if (owners != null) {
      m.merger.soloOwners(owners);
    }
    return m;
  }

  /**
   * Whether {@link #check} has work (the rule has a summed buffer, whose merged values may
   * overflow). Where false, callers may skip the check phase (and its barrier) altogether.
   */
  public boolean checks() {
    return checks;
  }

  private static CoordinateMerge prepare(
      StateAccess into, List<StateAccess> learners, int[] coords, int n) {
    into.checkOpen();
    if (coords == null) {
      StateMerger m = StateMerger.prepare(into, learners, null, into.dimension(), false);
      double scale = m.ballScale();
      into.stateReplaced();
      return new CoordinateMerge(m, scale, null, into, learners);
    }
    MergePlan plan = into.mergePlan();
    if (plan != null && !Double.isNaN(plan.ballRadius())) {
      throw new IllegalStateException(
          into.algorithm()
              + " projects its merged weights onto a ball, which needs every coordinate: pass coords = null");
    }
    if (n < 0 || n > coords.length) {
      throw new IllegalArgumentException(n + " coordinates of a list of " + coords.length);
    }
    for (int q = 0; q < n; q++) {
      if (coords[q] < 0 || coords[q] >= into.dimension() || (q > 0 && coords[q] <= coords[q - 1])) {
        throw new IllegalArgumentException(
            "coordinate "
                + coords[q]
                + " at "
                + q
                + " is outside 0.."
                + (into.dimension() - 1)
                + " or not above the one before");
      }
    }
    StateMerger m = StateMerger.prepare(into, learners, coords, n, false);
    into.stateReplaced();
    return new CoordinateMerge(m, 1.0, coords, into, learners);
  }

  /** The number of coordinates. */
  public int size() {
    return merger.size();
  }

  /** Checks that the merged sums at positions {@code [lo, hi)} of the list fit the element type. */
  public void check(int lo, int hi) {
    if (!checks) {
      return;
    }
    if (segments.length == 0) {
      merger.check(lo, hi);
      return;
    }
    for (int b = lo; b < hi; b += TOUCH) {
      int e = Math.min(hi, b + TOUCH);
      touch(b, e);
      merger.check(b, e);
    }
  }

  /** Writes the merged state at positions {@code [lo, hi)} into {@code into} and every learner. */
  public void write(int lo, int hi) {
    if (segments.length == 0) {
      merger.write(lo, hi, scale, true);
      return;
    }
    for (int b = lo; b < hi; b += TOUCH) {
      int e = Math.min(hi, b + TOUCH);
      touch(b, e);
      merger.write(b, e, scale, true);
    }
  }

  /** The merged scalars into {@code into} and every learner (DFEG recomputes its norm first). */
  public void finish() {
    merger.finish(true);
  }
}
