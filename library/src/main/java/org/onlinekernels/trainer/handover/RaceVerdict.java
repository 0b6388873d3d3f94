package org.onlinekernels.trainer.handover;

import java.util.Arrays;

/**
 * The decision of a handover race ({@code VectorWarmup}) from its timed pairs of passes, one on the
 * scalar kernels and one on the vector kernels each: won, tied or still open.
 *
 * <p>A pair's ratio is the vector pass's time over the scalar pass's. The race is won once the
 * median ratio of the last {@value #WINDOW} pairs is at most {@value #WIN_RATIO}. It ties when that
 * median, once it has come within {@value #TIE_BAND} of 1 (the vector side as fast as the scalar
 * one), has not reached a win for {@link #TIE_STEADY_NANOS}, and not before {@value #TIE_PAIRS}
 * pairs: a median that wanders back above the band later (noise, a recompilation) neither restarts
 * that second nor keeps the race open beyond it.
 *
 * <p>Why a median and a second's grace: a race on a shared machine meets both preemptions and
 * half-compiled code. One preempted pass in a window of summed times decided it either way (a
 * scalar pass that waited for the CPU made a slower vector side win); a median of per-pair ratios
 * ignores it. And while C2 compiles the vector rounds piece by piece (each piece can take hundreds
 * of milliseconds on a loaded machine), their time falls through the tie band on its way to a win
 * and can rest there for a while; a tie taken there kept JVMs that train a configuration for
 * seconds on the scalar kernels for good (bench-report/native-trainer-2026-11-29.md, section 8). So
 * a tie is called only a second after the vector side first reached the scalar side's time.
 */
final class RaceVerdict {
  /** What the race has decided so far. */
  enum State {
    /** No decision yet: time more pairs. */
    OPEN,
    /** The vector kernels are clearly faster. */
    WON,
    /** The vector side reached the scalar side's time but no clear win within a second. */
    TIED
  }

  /** Pairs whose median ratio decides. */
  static final int WINDOW = 16;

  /** The median ratio at or below which the vector kernels win. */
  static final double WIN_RATIO = 0.9;

  /** A median within this of 1 starts the tie's clock. */
  static final double TIE_BAND = 0.1;

  /** How long after the median first came into the tie band a race without a win ties: 1 s. */
  static final long TIE_STEADY_NANOS = 1_000_000_000L;

  /** The fewest pairs before a tie (two windows). */
  static final int TIE_PAIRS = 2 * WINDOW;

  private final double[] ratios = new double[WINDOW];
  private final double[] sorted = new double[WINDOW];
  private int pairs;

  /** When the median first came within the tie band ({@link System#nanoTime}); -1: not yet. */
  private long inBandSince = -1;

  private State state = State.OPEN;

  /**
   * A timed pair: the scalar pass took {@code scalarNanos}, the vector pass {@code vectorNanos},
   * ending at {@code nowNanos} ({@link System#nanoTime}). Returns the decision so far; once won or
   * tied it stays so.
   */
  State add(long scalarNanos, long vectorNanos, long nowNanos) {
    if (state != State.OPEN) {
      return state;
    }
    ratios[pairs % WINDOW] = (double) Math.max(1, vectorNanos) / Math.max(1, scalarNanos);
    pairs++;
    if (pairs < WINDOW) {
      return state;
    }
    double m = median();
    if (m <= WIN_RATIO) {
      state = State.WON;
    } else {
      if (inBandSince < 0 && m <= 1 + TIE_BAND) {
        inBandSince = nowNanos;
      }
      if (inBandSince >= 0 && pairs >= TIE_PAIRS && nowNanos - inBandSince >= TIE_STEADY_NANOS) {
        state = State.TIED;
      }
    }
    return state;
  }

  /** The decision so far. */
  State state() {
    return state;
  }

  /** The pairs timed so far. */
  int pairs() {
    return pairs;
  }

  private double median() {
    System.arraycopy(ratios, 0, sorted, 0, WINDOW);
    Arrays.sort(sorted);
    return (sorted[WINDOW / 2 - 1] + sorted[WINDOW / 2]) / 2;
  }
}
