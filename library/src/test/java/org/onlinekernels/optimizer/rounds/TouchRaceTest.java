package org.onlinekernels.optimizer.rounds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link TouchRace}: the order of the ways, what is timed, the pick, and {@link RoundTuning}'s
 * choice of race or fixed way; fed made-up block times, so nothing here depends on the machine.
 */
class TouchRaceTest {
  private static final int ROWS = 256;
  private static final long NNZ = 10_000;
  private static final String KEY = "test rule, 2^20 B";

  @BeforeEach
  void forgetEarlierRaces() {
    TouchRace.forgetPicks();
  }

  /** Runs blocks until the race ends; each takes {@code onNs} or {@code offNs} per block. */
  private static int raceTo(TouchRace r, long onNs, long offNs) {
    int blocks = 0;
    while (r.racing()) {
      r.ran(ROWS, NNZ, r.on() ? onNs : offNs);
      blocks++;
      assertTrue(blocks < 10_000, "the race never ends");
    }
    return blocks;
  }

  @Test
  void waysAlternateOnOffOffOnFromTheFirstBlock() {
    TouchRace r = TouchRace.race(KEY);
    List<Boolean> ways = new ArrayList<>();
    for (int b = 0; b < 8; b++) {
      ways.add(r.on());
      r.ran(ROWS, NNZ, 1000);
    }
    assertEquals(List.of(true, false, false, true, true, false, false, true), ways);
    assertEquals("racing", r.state());
  }

  @Test
  void picksTheFasterWayAfterWarmBlocksAndSamples() {
    TouchRace faster = TouchRace.race(KEY);
    assertEquals(TouchRace.WARM_BLOCKS + 2 * TouchRace.SAMPLES, raceTo(faster, 900_000, 1_000_000));
    assertEquals("on", faster.state());
    assertTrue(faster.on());
    TouchRace.forgetPicks();
    TouchRace slower = TouchRace.race(KEY);
    raceTo(slower, 1_000_000, 900_000);
    assertEquals("off", slower.state());
    assertFalse(slower.on());
  }

  @Test
  void thePickStandsOnceMade() {
    TouchRace r = TouchRace.race(KEY);
    raceTo(r, 1_000_000, 900_000);
    for (int b = 0; b < 100; b++) {
      r.ran(ROWS, NNZ, r.on() ? 1 : 1_000_000_000);
      assertEquals("off", r.state());
    }
  }

  /** While C2 compiles, one way may be slow for reasons of its own: warm blocks are not timed. */
  @Test
  void warmBlocksAreNotTimed() {
    TouchRace r = TouchRace.race(KEY);
    for (int b = 0; b < TouchRace.WARM_BLOCKS; b++) {
      r.ran(ROWS, NNZ, r.on() ? 1_000_000_000 : 1);
    }
    raceTo(r, 900_000, 1_000_000);
    assertEquals("on", r.state());
  }

  /** A block cut short (a checkpoint, the data's end) is too noisy to time. */
  @Test
  void shortBlocksAreNotTimed() {
    TouchRace r = TouchRace.race(KEY);
    for (int b = 0; b < TouchRace.WARM_BLOCKS; b++) {
      r.ran(ROWS, NNZ, 1000);
    }
    for (int b = 0; b < 4 * TouchRace.SAMPLES; b++) {
      r.ran(TouchRace.MIN_ROWS - 1, NNZ, r.on() ? 1 : 1_000_000_000);
    }
    assertTrue(r.racing(), "short blocks ended the race");
    raceTo(r, 1_000_000, 900_000);
    assertEquals("off", r.state());
  }

  /** A race's pick stands for later races of its key in the JVM, and for no other key. */
  @Test
  void aPickIsKeptForTheSameKeyOnly() {
    raceTo(TouchRace.race(KEY), 1_000_000, 900_000);
    TouchRace again = TouchRace.race(KEY);
    assertFalse(again.racing(), "a second race of the same key");
    assertEquals("off", again.state());
    assertTrue(TouchRace.race("another rule, 2^20 B").racing());
    TouchRace.forgetPicks();
    assertTrue(TouchRace.race(KEY).racing());
  }

  @Test
  void aFixedWayNeverRaces() {
    for (boolean on : new boolean[] {true, false}) {
      TouchRace r = TouchRace.fixed(on);
      assertFalse(r.racing());
      for (int b = 0; b < 200; b++) {
        r.ran(ROWS, NNZ, r.on() ? 1_000_000_000 : 1);
      }
      assertEquals(on, r.on());
      assertEquals(on ? "on" : "off", r.state());
    }
  }

  @Test
  void largeStatesRaceByDefaultAndSmallOnesNeverTouch() {
    String old = System.getProperty(RoundTuning.TOUCH_PROPERTY);
    try {
      System.clearProperty(RoundTuning.TOUCH_PROPERTY);
      long big = RoundTuning.TOUCH_MIN_BYTES + 1;
      assertTrue(RoundTuning.of(big, RoundTuning.touchMode(false), KEY).touch().racing());
      assertEquals(
          "off",
          RoundTuning.of(RoundTuning.TOUCH_MIN_BYTES, RoundTuning.touchMode(true), KEY)
              .touch()
              .state());
      String[][] fixed = {{"on", "on"}, {"off", "off"}, {"rule", "on"}};
      for (String[] f : fixed) {
        System.setProperty(RoundTuning.TOUCH_PROPERTY, f[0]);
        assertEquals(
            f[1], RoundTuning.of(big, RoundTuning.touchMode(true), KEY).touch().state(), f[0]);
      }
      System.setProperty(RoundTuning.TOUCH_PROPERTY, "rule");
      assertEquals("off", RoundTuning.of(big, RoundTuning.touchMode(false), KEY).touch().state());
      System.setProperty(RoundTuning.TOUCH_PROPERTY, "yes");
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> RoundTuning.touchMode(true));
      assertTrue(e.getMessage().contains(RoundTuning.TOUCH_PROPERTY), e.getMessage());
    } finally {
      if (old == null) {
        System.clearProperty(RoundTuning.TOUCH_PROPERTY);
      } else {
        System.setProperty(RoundTuning.TOUCH_PROPERTY, old);
      }
    }
  }
}
