package org.onlinekernels.trainer.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The steady-state span of a parallel fit starts at the first block at or after half of the
 * examples, however the blocks fall, and is not given for a span too short to mean something.
 */
class SteadySpanTest {
  @Test
  void theSpanStartsAtTheFirstBlockPastHalfTheExamples() {
    // 3 epochs of 1000 rows in blocks of 256 (the last block of an epoch has 232 rows): half is
    // 1500, reached by the block at 1000 + 512 = 1512 (the one before starts at 1256).
    SteadySpan s = new SteadySpan(1000, 3, 1, 16);
    long previous = -1;
    for (int e = 0; e < 3; e++) {
      for (int q0 = 0; q0 < 1000; q0 += 256) {
        long at = (long) e * 1000 + q0;
        s.starting(previous, at);
        previous = at;
      }
    }
    s.end();
    assertEquals(3000 - 1512, s.examples());
    assertTrue(s.seconds() > 0);
  }

  @Test
  void anEpochBoundaryCanStartTheSpan() {
    // 2 epochs of 1000 rows: half is 1000, the first block of the second epoch.
    SteadySpan s = new SteadySpan(1000, 2, 1, 16);
    s.starting(744, 1000);
    s.starting(1000, 1256);
    s.end();
    assertEquals(1000, s.examples());
  }

  @Test
  void aSpanOfFewerThanSixteenBlocksPerThreadIsNotGiven() {
    // 2 threads, blocks of 256: the span needs 16 x 2 x 256 = 8192 examples; this one has 5000.
    SteadySpan s = new SteadySpan(5000, 2, 2, 256);
    s.starting(4864, 5000);
    s.end();
    assertEquals(0, s.examples());
    assertEquals(0.0, s.seconds());
    SteadySpan enough = new SteadySpan(10_000, 2, 2, 256);
    enough.starting(9984, 10_000);
    enough.end();
    assertEquals(10_000, enough.examples());
  }
}
