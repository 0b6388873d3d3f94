package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.ElementType;

/**
 * {@link SparseRows} checks a block once (its folded checks) and falls back to entry-by-entry
 * checks only for a bad block: valid rows load as the definitions say (values rounded, each row's
 * largest rounded {@code |x|}, the dimension, the longest row), and each kind of violation,
 * anywhere in a block, is refused with the message naming its first occurrence.
 */
class SparseRowsChecksTest {
  private static final int ROWS = 300;

  /** A block's arrays. */
  private record Block(int[] start, int[] idx, double[] val) {}

  /**
   * Random valid rows: 0-12 entries, increasing indices from 0 up, values of magnitudes 2^-60 to
   * 2^60 with either sign.
   */
  private static Block validRows(SplittableRandom rnd) {
    int[] start = new int[ROWS + 1];
    int[] idx = new int[ROWS * 12];
    double[] val = new double[ROWS * 12];
    int n = 0;
    for (int r = 0; r < ROWS; r++) {
      int k = rnd.nextInt(13);
      int i = -1;
      for (int j = 0; j < k; j++) {
        i += 1 + rnd.nextInt(400);
        idx[n] = i;
        val[n] = (rnd.nextBoolean() ? -1 : 1) * Math.scalb(rnd.nextDouble(), rnd.nextInt(-60, 60));
        n++;
      }
      start[r + 1] = n;
    }
    return new Block(start, Arrays.copyOf(idx, n), Arrays.copyOf(val, n));
  }

  @Test
  void validBlocksLoadAsDefined() {
    SplittableRandom rnd = new SplittableRandom(38);
    for (ElementType type : ElementType.values()) {
      SparseRows buf = SparseRows.buffer(type);
      for (int t = 0; t < 20; t++) {
        Block blk = validRows(rnd);
        int[] start = blk.start();
        int[] idx = blk.idx();
        double[] val = blk.val();
        buf.refill(ROWS, start, idx, val);
        for (SparseRows rows : new SparseRows[] {buf, SparseRows.of(start, idx, val, type)}) {
          int dim = 0;
          int longest = 0;
          assertEquals(ROWS, rows.size());
          for (int r = 0; r < ROWS; r++) {
            double m = 0;
            assertEquals(start[r + 1] - start[r], rows.nnz(r));
            for (int j = 0; j < rows.nnz(r); j++) {
              double v = val[start[r] + j];
              double rounded = type == ElementType.FLOAT ? (float) v : v;
              assertEquals(idx[start[r] + j], rows.index(r, j));
              assertEquals(rounded, rows.value(r, j));
              m = Math.max(m, Math.abs(rounded));
              dim = Math.max(dim, idx[start[r] + j] + 1);
            }
            assertEquals(m, rows.maxAbs(r), "row " + r + "'s largest |x|, rounded");
            longest = Math.max(longest, rows.nnz(r));
          }
          assertEquals(dim, rows.dimension());
          assertEquals(longest, rows.maxNnz());
        }
      }
    }
  }

  @Test
  void eachViolationIsRefusedNamingItsFirstOccurrence() {
    SplittableRandom rnd = new SplittableRandom(3838);
    int tried = 0;
    for (int t = 0; t < 400; t++) {
      Block blk = validRows(rnd);
      int[] start = blk.start();
      int[] idx = blk.idx();
      double[] val = blk.val();
      ElementType type = rnd.nextBoolean() ? ElementType.FLOAT : ElementType.DOUBLE;
      // A row with at least two entries, and an entry in it past its first.
      int r = rnd.nextInt(ROWS);
      while (start[r + 1] - start[r] < 2) {
        r = (r + 1) % ROWS;
      }
      int j = 1 + rnd.nextInt(start[r + 1] - start[r] - 1);
      int at = start[r] + j;
      String expected;
      switch (t % 5) {
        case 0 -> {
          idx[at] = -1 - rnd.nextInt(1 << 30);
          expected = "row " + r + ", entry " + j + ": index " + idx[at] + " is negative";
        }
        case 1 -> {
          idx[at] = idx[at - 1] - rnd.nextInt(2);
          expected =
              idx[at] < 0
                  ? "row " + r + ", entry " + j + ": index " + idx[at] + " is negative"
                  : "row "
                      + r
                      + ", entry "
                      + j
                      + ": index "
                      + idx[at]
                      + " does not follow "
                      + idx[at - 1]
                      + "; indices must be strictly increasing within a row";
        }
        case 2 -> {
          val[at] = rnd.nextBoolean() ? Double.NaN : Double.NEGATIVE_INFINITY;
          expected = notFinite(r, j, idx[at], val[at], type);
        }
        case 3 -> {
          if (type != ElementType.FLOAT) {
            continue;
          }
          val[at] = (rnd.nextBoolean() ? -1 : 1) * 1e39;
          expected = notFinite(r, j, idx[at], val[at], type);
        }
        default -> {
          start[r + 1] = start[r] - 1;
          expected =
              "rowStart["
                  + (r + 1)
                  + "] = "
                  + start[r + 1]
                  + " < rowStart["
                  + r
                  + "] = "
                  + start[r]
                  + "; row offsets must not decrease";
          if (start[r] == 0) {
            continue;
          }
        }
      }
      tried++;
      int[] s = start;
      int[] x = idx;
      String got =
          assertThrows(IllegalArgumentException.class, () -> SparseRows.of(s, x, val, type))
              .getMessage();
      assertEquals(expected, got);
      SparseRows buf = SparseRows.buffer(type);
      assertEquals(
          expected,
          assertThrows(IllegalArgumentException.class, () -> buf.refill(ROWS, s, x, val))
              .getMessage());
      assertEquals(0, buf.size(), "a refused refill leaves no rows");
    }
    assertTrue(tried > 250, tried + " violations tried");
  }

  /** The refusal of a value that is not finite in {@code type} (NaN, infinite, beyond float). */
  private static String notFinite(int row, int entry, int index, double value, ElementType type) {
    return "row "
        + row
        + ", entry "
        + entry
        + " (index "
        + index
        + "): value "
        + value
        + " is not finite as "
        + type.name().toLowerCase();
  }
}
