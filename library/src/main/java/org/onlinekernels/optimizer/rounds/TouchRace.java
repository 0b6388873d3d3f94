package org.onlinekernels.optimizer.rounds;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether an optimizer's blocks of rounds load the records of the rows ahead before computing
 * ({@link RoundTuning}): fixed, or picked by timing its own blocks on the CPU it runs on. Whether
 * the touch pays depends on the rule (how long its compute keeps a miss waiting), the model's size
 * against the caches, and the CPU's out-of-order window, so no constant is right everywhere; and
 * since the touch only loads, both ways give the same bits, so the pick may change at any block.
 *
 * <p>A race alternates touch on and off block by block from the first block (so that both ways are
 * compiled before they are timed), in the order on, off, off, on, ... (so that a machine getting
 * faster or slower favours neither), ignores the first {@link #WARM_BLOCKS} blocks, then keeps
 * {@link #SAMPLES} blocks' nanoseconds per nonzero of each way and picks the way with the lower
 * median, for good. Blocks of fewer than {@link #MIN_ROWS} rows (cut short by a checkpoint or the
 * end of the data) are not timed. Not thread-safe: one per optimizer, which is used by one thread.
 *
 * <p>The pick is kept for the JVM under the race's key (the rule, element type, kernels and the
 * state's size to a power of two): a later optimizer of the same key starts with it instead of
 * racing again, so that many short passes from fresh optimizers (a benchmark, a model per
 * partition) pay for one race.
 */
public final class TouchRace {
  /** Blocks run before any is timed: C2 compiles the round's loops in these. */
  static final int WARM_BLOCKS = 64;

  /** Timed blocks kept per way. */
  static final int SAMPLES = 16;

  /** Blocks with fewer rows than this are not timed. */
  static final int MIN_ROWS = 64;

  /** The picks of the races run in this JVM, by key. */
  private static final Map<String, Boolean> PICKS = new ConcurrentHashMap<>();

  private final boolean racing;
  private final String key;
  private boolean on;
  private int blocks;
  private final double[] onNs;
  private final double[] offNs;
  private int onCount;
  private int offCount;

  private TouchRace(boolean racing, boolean on, String key) {
    this.racing = racing;
    this.key = key;
    this.on = on;
    this.onNs = racing ? new double[SAMPLES] : null;
    this.offNs = racing ? new double[SAMPLES] : null;
  }

  /** Touch on or off for good. */
  public static TouchRace fixed(boolean on) {
    return new TouchRace(false, on, null);
  }

  /**
   * A race under {@code key}, starting with touch on; or, if a race of that key has ended in this
   * JVM, its pick for good.
   */
  public static TouchRace race(String key) {
    Boolean picked = PICKS.get(key);
    return picked != null ? fixed(picked) : new TouchRace(true, true, key);
  }

  /** Forgets every pick (for tests that need a race from the start). */
  static void forgetPicks() {
    PICKS.clear();
  }

  /** Whether the next block (or the round in hand) touches. */
  public boolean on() {
    return on;
  }

  /** Whether the pick is still open: blocks of rounds report their time ({@link #ran}). */
  public boolean racing() {
    return racing && (onCount < SAMPLES || offCount < SAMPLES);
  }

  /**
   * A block of {@code rows} rows and {@code nonzeros} nonzeros ran in {@code nanos} with the touch
   * as {@link #on} said; sets the way of the next block.
   */
  public void ran(int rows, long nonzeros, long nanos) {
    if (!racing()) {
      return;
    }
    if (blocks >= WARM_BLOCKS && rows >= MIN_ROWS && nonzeros > 0) {
      double ns = (double) nanos / nonzeros;
      if (on && onCount < SAMPLES) {
        onNs[onCount++] = ns;
      } else if (!on && offCount < SAMPLES) {
        offNs[offCount++] = ns;
      }
    }
    blocks++;
    if (onCount == SAMPLES && offCount == SAMPLES) {
      on = median(onNs) < median(offNs);
      PICKS.put(key, on);
    } else {
      // on, off, off, on, on, off, off, on, ...
      on = ((blocks ^ (blocks >> 1)) & 1) == 0;
    }
  }

  /** {@code on}, {@code off}, or {@code racing} (the way of the next block still alternates). */
  public String state() {
    return racing() ? "racing" : on ? "on" : "off";
  }

  /** The median of {@code a}, which it sorts (read once, when the race ends). */
  private static double median(double[] a) {
    Arrays.sort(a);
    return (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
  }
}
