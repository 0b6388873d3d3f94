package org.onlinekernels.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link ByteLines} with a {@link ByteLines.Budget}: growth taken, refused, and given back. */
class ByteLinesBudgetTest {
  /** A budget that counts what is taken now and the most ever taken. */
  private static final class Counting implements ByteLines.Budget {
    final long size;
    long taken;
    long peak;

    Counting(long size) {
      this.size = size;
    }

    @Override
    public boolean take(long bytes) {
      if (taken + bytes > size) {
        return false;
      }
      taken += bytes;
      peak = Math.max(peak, taken);
      return true;
    }

    @Override
    public void give(long bytes) {
      taken -= bytes;
      assertTrue(taken >= 0, "more given back than taken");
    }
  }

  private static ByteLines lines(String text, ByteLines.Budget budget) {
    return new ByteLines(
        new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)), 1 << 28, "T", budget);
  }

  @Test
  void aLongLineTakesItsGrowthAndGivesItBackAfterwards() throws IOException {
    String longLine = "x".repeat(300_000);
    Counting budget = new Counting(1 << 20);
    ByteLines l = lines("a\n" + longLine + "\nb\nc\n", budget);
    assertTrue(l.next());
    assertEquals(0, budget.taken, "a short line takes nothing");
    assertTrue(l.next());
    assertEquals(longLine.length(), l.end() - l.start());
    // 64 KiB doubled to 512 KiB: 448 KiB taken for the line.
    assertEquals((512 - 64) << 10, budget.taken);
    assertTrue(l.next());
    assertEquals("b", new String(l.buffer(), l.start(), 1, StandardCharsets.US_ASCII));
    assertEquals(0, budget.taken, "the buffer shrank back after the long line");
    assertTrue(l.next());
    assertFalse(l.next());
    l.release();
    assertEquals(0, budget.taken);
  }

  @Test
  void aLineBeyondTheBudgetIsAnErrorNamingItAndNothingIsKept() {
    Counting budget = new Counting(200_000);
    ByteLines l = lines("a\nb\n" + "x".repeat(400_000) + "\n", budget);
    ByteLines.LineException e =
        assertThrows(
            ByteLines.LineException.class,
            () -> {
              while (l.next()) {
                // read on to the long line
              }
            });
    assertEquals(3, e.line());
    assertTrue(e.problem().contains("memory shared by the lines being read"), e.problem());
    assertTrue(budget.peak <= 200_000, "took " + budget.peak);
    l.release();
    assertEquals(0, budget.taken, "release gives back what was taken");
  }

  @Test
  void releaseGivesBackWhatALineInProgressTook() throws IOException {
    Counting budget = new Counting(1 << 20);
    ByteLines l = lines("y".repeat(200_000) + "\n", budget);
    assertTrue(l.next());
    assertTrue(budget.taken > 0);
    l.release();
    assertEquals(0, budget.taken);
  }
}
