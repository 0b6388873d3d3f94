package org.onlinekernels.optimizer;

import org.onlinekernels.kernel.lanes.RecordTouch;
import org.onlinekernels.kernel.lanes.RuleForms;

/**
 * How a {@link RuleOptimizer}'s fused rounds run on its state, decided once when it is made: the
 * same bits every way, only the speed differs. The defaults were chosen by the workload benchmark
 * (bench-report/workload.md); the system properties below switch them for the benchmarks that chose
 * them and for the tests that hold every way to the same bits.
 *
 * <ul>
 *   <li>{@code onlinekernels.rounds} = {@code gathered} (default) or {@code entrywise}: a round on
 *       block state gathers the row's records into arrays, computes there (lane-wise on the vector
 *       provider) and writes the changed fields back ({@link RuleForms#predictGathered}), or
 *       computes entry by entry on the state.
 *   <li>{@code onlinekernels.rounds.touch} = {@code on}, {@code off} or {@code rule} (default: the
 *       rule's {@code touchRecordsFirst()}): whether rounds on a state over {@link
 *       #TOUCH_MIN_BYTES} load records ahead of their use ({@link RecordTouch}), so that their
 *       cache misses overlap the work in between.
 *   <li>{@code onlinekernels.rounds.ahead} (read once per JVM, default 2): how many rows ahead a
 *       block of rounds touches; 0 touches each row's records just before its own round.
 * </ul>
 *
 * @param gathered whether rounds run gathered
 * @param touch whether rounds touch records ahead
 * @param ahead rows ahead to touch (0: the row itself, first)
 */
record RoundTuning(boolean gathered, boolean touch, int ahead) {
  /** States up to this size are not touched: in cache the touch costs more than it saves. */
  static final long TOUCH_MIN_BYTES = 1L << 20;

  static final String ROUNDS_PROPERTY = "onlinekernels.rounds";
  static final String TOUCH_PROPERTY = "onlinekernels.rounds.touch";
  private static final int AHEAD = Math.max(0, Integer.getInteger("onlinekernels.rounds.ahead", 2));

  /**
   * The tuning of rounds on a block of {@code blockBytes} bytes (0: no block), for a rule that does
   * or does not touch by default.
   */
  static RoundTuning of(long blockBytes, boolean ruleTouches) {
    String t = System.getProperty(TOUCH_PROPERTY, "rule");
    boolean touch =
        blockBytes > TOUCH_MIN_BYTES && (t.equals("on") || !t.equals("off") && ruleTouches);
    boolean gathered =
        blockBytes > 0 && !"entrywise".equals(System.getProperty(ROUNDS_PROPERTY, "gathered"));
    return new RoundTuning(gathered, touch, AHEAD);
  }

  /** Rows ahead a block of rounds touches (0: none ahead). */
  int rowsAhead() {
    return touch ? ahead : 0;
  }

  /** Whether a round touches its own row's records first. */
  boolean touchesOwnRow() {
    return touch && ahead == 0;
  }
}
