package org.onlinekernels.trainer.handover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.onlinekernels.trainer.handover.RaceVerdict.State;

/**
 * The race's decision from its timed pairs (a made-up clock, pairs of 100 microseconds): a vector
 * side that wins once compiled wins even when its time rests in the tie band on the way; a
 * preempted pass decides nothing; a tie is called a second after parity, not before and not later.
 */
class RaceVerdictTest {
  private static final long PAIR_NANOS = 100_000;

  private long now;

  /** Feeds {@code count} pairs of ratio {@code ratio}; returns the last decision. */
  private State feed(RaceVerdict v, int count, double ratio) {
    State s = v.state();
    for (int i = 0; i < count && s == State.OPEN; i++) {
      now += PAIR_NANOS;
      s = v.add(50_000, Math.round(50_000 * ratio), now);
    }
    return s;
  }

  @Test
  void aVectorSideThatRestsInTheBandWhileCompilingStillWins() {
    RaceVerdict v = new RaceVerdict();
    assertEquals(State.OPEN, feed(v, 200, 3.0), "an uncompiled vector side decided the race");
    // Half compiled: as fast as the scalar side for 0.3 s (3,000 pairs), then compiled.
    assertEquals(State.OPEN, feed(v, 3_000, 1.0), "a tie was taken on the way to a win");
    assertEquals(State.WON, feed(v, RaceVerdict.WINDOW, 0.7));
  }

  @Test
  void aTieThatHoldsForASecondIsATie() {
    RaceVerdict v = new RaceVerdict();
    feed(v, 100, 2.0);
    State s = feed(v, 9_000, 1.02);
    assertEquals(State.OPEN, s, "a tie taken before it held for a second");
    s = feed(v, 2_000, 0.98);
    assertEquals(State.TIED, s);
    assertTrue(v.pairs() <= 100 + 9_000 + 1_100, "the tie came late: " + v.pairs() + " pairs");
  }

  @Test
  void aMedianWanderingAcrossTheBandsUpperEdgeStillEndsInATie() {
    RaceVerdict v = new RaceVerdict();
    State s = State.OPEN;
    for (int w = 0; w < 1_000 && s == State.OPEN; w++) {
      s = feed(v, RaceVerdict.WINDOW, w % 2 == 0 ? 1.05 : 1.2);
    }
    assertEquals(State.TIED, s, "a race at parity stayed open");
    assertTrue(now <= 1_200_000_000L, "the tie came late: " + now / 1_000_000 + " ms");
  }

  @Test
  void aPreemptedScalarPassDoesNotMakeASlowerVectorSideWin() {
    RaceVerdict v = new RaceVerdict();
    for (int i = 0; i < 2_000; i++) {
      now += PAIR_NANOS;
      // The vector side is 1.5 times slower; every 8th scalar pass waited 20 times its work.
      long scalar = i % 8 == 3 ? 1_000_000 : 50_000;
      assertEquals(State.OPEN, v.add(scalar, 75_000, now), "pair " + i + " decided the race");
    }
  }

  @Test
  void aPreemptedVectorPassDoesNotStopAWin() {
    RaceVerdict v = new RaceVerdict();
    State s = State.OPEN;
    for (int i = 0; i < RaceVerdict.WINDOW && s == State.OPEN; i++) {
      now += PAIR_NANOS;
      s = v.add(50_000, i == 5 ? 1_000_000 : 35_000, now);
    }
    assertEquals(State.WON, s, "one preempted vector pass kept a clear win open");
  }

  @Test
  void aDecisionStays() {
    RaceVerdict v = new RaceVerdict();
    assertEquals(State.WON, feed(v, RaceVerdict.WINDOW, 0.5));
    now += PAIR_NANOS;
    assertEquals(State.WON, v.add(50_000, 500_000, now));
  }
}
