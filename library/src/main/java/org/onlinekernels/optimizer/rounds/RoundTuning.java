package org.onlinekernels.optimizer.rounds;

import org.onlinekernels.kernel.lanes.RecordTouch;
import org.onlinekernels.kernel.lanes.RuleForms;

/**
 * How a {@link org.onlinekernels.optimizer.RuleOptimizer}'s fused rounds run on its state, set when
 * it is made: the same bits every way, only the speed differs. The system properties below switch
 * the defaults for the benchmarks that chose them and for the tests that hold every way to the same
 * bits.
 *
 * <ul>
 *   <li>{@code onlinekernels.rounds} = {@code gathered} (default) or {@code entrywise}: a round on
 *       block state gathers the row's records into arrays, computes there (lane-wise on the vector
 *       provider) and writes the changed fields back ({@link RuleForms#predictGathered}), or
 *       computes entry by entry on the state.
 *   <li>{@code onlinekernels.rounds.touch} = {@code race} (default), {@code on}, {@code off} or
 *       {@code rule} (the rule's {@code touchRecordsFirst()}, the constant measured on one CPU):
 *       whether rounds on a state over {@link #TOUCH_MIN_BYTES} load records ahead of their use
 *       ({@link RecordTouch}), so that their cache misses overlap the work in between; {@code race}
 *       picks by timing the optimizer's own blocks ({@link TouchRace}).
 *   <li>{@code onlinekernels.rounds.gather}: how gathered rounds on heap-backed state load and
 *       store a row's records ({@link #gatherMode}).
 *   <li>{@code onlinekernels.rounds.ahead} (read once per JVM, default 2): how many rows ahead a
 *       block of rounds touches; 0 touches each row's records just before its own round.
 * </ul>
 *
 * @param gathered whether rounds run gathered
 * @param touch whether rounds touch records ahead (this optimizer's own, raced or fixed)
 * @param ahead rows ahead to touch (0: the row itself, first)
 */
public record RoundTuning(boolean gathered, TouchRace touch, int ahead) {
  static final String GATHER_PROPERTY = "onlinekernels.rounds.gather";

  /** States up to this size are not touched: in cache the touch costs more than it saves. */
  static final long TOUCH_MIN_BYTES = 1L << 20;

  static final String ROUNDS_PROPERTY = "onlinekernels.rounds";
  static final String TOUCH_PROPERTY = "onlinekernels.rounds.touch";
  private static final int AHEAD = Math.max(0, Integer.getInteger("onlinekernels.rounds.ahead", 2));

  /**
   * The record touch {@link #TOUCH_PROPERTY} asks for, for a rule that does or does not touch by
   * default: read before the optimizer allocates anything, so that a bad value costs nothing.
   *
   * @throws IllegalArgumentException if the property is none of its values
   */
  public static String touchMode(boolean ruleTouches) {
    String t = System.getProperty(TOUCH_PROPERTY, "race");
    return switch (t) {
      case "race", "on", "off" -> t;
      case "rule" -> ruleTouches ? "on" : "off";
      default ->
          throw new IllegalArgumentException(
              TOUCH_PROPERTY + " is race, on, off or rule, not '" + t + "'");
    };
  }

  /**
   * The tuning of rounds on a block of {@code blockBytes} bytes (0: no block), with the touch of
   * {@link #touchMode}: a race keyed by {@code rule} (what else decides the pick: the rule, its
   * element type and kernels) and the block's size to a power of two.
   */
  public static RoundTuning of(long blockBytes, String touchMode, String rule) {
    TouchRace touch;
    if (blockBytes <= TOUCH_MIN_BYTES) {
      touch = TouchRace.fixed(false);
    } else if (touchMode.equals("race")) {
      touch = TouchRace.race(rule + ", 2^" + (63 - Long.numberOfLeadingZeros(blockBytes)) + " B");
    } else {
      touch = TouchRace.fixed(touchMode.equals("on"));
    }
    boolean gathered =
        blockBytes > 0 && !"entrywise".equals(System.getProperty(ROUNDS_PROPERTY, "gathered"));
    return new RoundTuning(gathered, touch, AHEAD);
  }

  /**
   * How gathered rounds on heap-backed state load and store records ({@code
   * onlinekernels.rounds.gather}): {@code auto} (the default: {@code array} on a state over {@link
   * #TOUCH_MIN_BYTES}, where it measured faster, else {@code segment}, which measured faster in
   * cache), {@code segment} (entry by entry on the segment), {@code array} (one loop per field on
   * the array behind it, through an index map), {@code hardware} (the vector unit's gathers, stores
   * as {@code array}) or {@code scatter} (gathers and, for rows without repeated indices,
   * scatters). Every mode but {@code segment} also touches records ahead ({@link RecordTouch}) on
   * the array. The scalar kernels run {@code hardware} and {@code scatter} as {@code array} (the
   * vector unit is the vector kernels'). The same bits every way.
   *
   * @param blockBytes the state block's size
   * @return the mode for that block: {@code segment}, {@code array}, {@code hardware} or {@code
   *     scatter}
   * @throws IllegalArgumentException if the property is none of these
   */
  public static String gatherMode(long blockBytes) {
    String g = System.getProperty(GATHER_PROPERTY, "auto");
    return switch (g) {
      case "auto" -> blockBytes > TOUCH_MIN_BYTES ? "array" : "segment";
      case "segment", "array", "hardware", "scatter" -> g;
      default ->
          throw new IllegalArgumentException(
              GATHER_PROPERTY + " is auto, segment, array, hardware or scatter, not '" + g + "'");
    };
  }

  /** Rows ahead the next block of rounds touches (0: none ahead). */
  public int rowsAhead() {
    return touch.on() ? ahead : 0;
  }

  /** Whether a round touches its own row's records first. */
  public boolean touchesOwnRow() {
    return ahead == 0 && touch.on();
  }
}
