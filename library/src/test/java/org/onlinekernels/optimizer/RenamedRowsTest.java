package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.ElementType;

/**
 * {@link SparseRows#refillRenamed} fills a buffer with some rows of a source, in a given order, the
 * entries of the marked coordinates moved to the end of their row and renamed {@code base + rank},
 * values with them and the others as they were; every row stays strictly increasing, and what would
 * break that is refused.
 */
class RenamedRowsTest {
  private static final int[] START = {0, 4, 6, 6};
  private static final int[] IDX = {1, 3, 5, 8, 3, 7};
  private static final double[] VAL = {0.5, -2, 3.25, 1e-3, 7, -0.125};

  /** Coordinates 3 and 5 marked, ranks {@code r3} and {@code r5}. */
  private static int[] rank(int r3, int r5) {
    int[] rank = new int[9];
    Arrays.fill(rank, -1);
    rank[3] = r3;
    rank[5] = r5;
    return rank;
  }

  private static final long[] BITS = {(1L << 3) | (1L << 5)};

  @Test
  void markedEntriesMoveToTheEndRenamedWithTheirValues() {
    for (ElementType type : ElementType.values()) {
      SparseRows rows = SparseRows.of(START, IDX, VAL, type);
      SparseRows b = SparseRows.buffer(type);
      // Positions 1 and 2 of the order: rows 0 then 1.
      b.refillRenamed(rows, new int[] {2, 0, 1}, 1, 3, BITS, rank(0, 1), 20, null, false);
      assertEquals(2, b.size());
      assertArrayEquals(new int[] {1, 8, 20, 21}, indices(b, 0), type.name());
      double small = type == ElementType.FLOAT ? (float) 1e-3 : 1e-3;
      assertArrayEquals(new double[] {0.5, small, -2, 3.25}, values(b, 0));
      assertArrayEquals(new int[] {7, 20}, indices(b, 1));
      assertArrayEquals(new double[] {-0.125, 7}, values(b, 1));
      assertEquals(22, b.dimension());
      assertEquals(rows.maxAbs(0), b.maxAbs(0));
      assertEquals(rows.maxAbs(1), b.maxAbs(1));
      assertEquals(rows.maxNnz(), b.maxNnz());
      // Refilled with fewer rows: nothing of the last block is left.
      b.refillRenamed(rows, new int[] {2, 1}, 0, 2, BITS, rank(0, 1), 30, null, false);
      assertEquals(2, b.size());
      assertEquals(0, b.nnz(0));
      assertArrayEquals(new int[] {7, 30}, indices(b, 1));
      assertEquals(31, b.dimension());
      b.refillRenamed(rows, new int[] {2}, 0, 1, BITS, rank(0, 1), 30, null, false);
      assertEquals(1, b.size());
      assertEquals(0, b.nnz(0));
      assertEquals(rows.dimension(), b.dimension());
    }
  }

  @Test
  void rowsRenamedAgainFromTheirMasksAndRowsLongerThanAMaskComeOutTheSame() {
    // Row 0: 70 entries, every third renamed, some beyond the mask's 64; rows 1 and 2 as above.
    int[] start = {0, 70, 74, 76};
    int[] idx = new int[76];
    double[] val = new double[76];
    for (int j = 0; j < 70; j++) {
      idx[j] = 2 * j;
      val[j] = j + 0.5;
    }
    int[] tail = {1, 3, 5, 8, 3, 7};
    for (int j = 0; j < 6; j++) {
      idx[70 + j] = tail[j];
      val[70 + j] = -j;
    }
    int dim = 140;
    int[] rank = new int[dim];
    long[] bits = new long[3];
    java.util.Arrays.fill(rank, -1);
    int k = 0;
    for (int i = 0; i < dim; i++) {
      if (i % 3 == 0) {
        rank[i] = k++;
        bits[i >>> 6] |= 1L << i;
      }
    }
    for (ElementType type : ElementType.values()) {
      SparseRows rows = SparseRows.of(start, idx, val, type);
      int[] order = {2, 0, 1};
      SparseRows plain = SparseRows.buffer(type);
      plain.refillRenamed(rows, order, 0, 3, bits, rank, 200, null, false);
      // Row 0: the 46 entries of coordinates not divisible by 3 in order, then 24 renamed ones.
      assertEquals(70, plain.nnz(1));
      int last = -1;
      for (int j = 0; j < 70; j++) {
        int i = plain.index(1, j);
        assertEquals(j < 46, i < 200, "entry " + j + ": " + i);
        assertEquals(true, i > last, "entry " + j + " follows " + last);
        last = i;
        int original = i < 200 ? i : -1;
        for (int c = 0; c < dim && original < 0; c++) {
          if (rank[c] == i - 200) {
            original = c;
          }
        }
        assertEquals(original / 2 + 0.5, plain.value(1, j), type.name() + " entry " + j);
      }
      long[] masks = new long[3];
      SparseRows first = SparseRows.buffer(type);
      first.refillRenamed(rows, order, 0, 3, bits, rank, 200, masks, false);
      SparseRows again = SparseRows.buffer(type);
      // Masks known: the look-up table no longer marks coordinate 3, yet the short rows (whose
      // masks were kept) come out with it renamed; the long row is looked up entry by entry.
      long[] without3 = bits.clone();
      without3[0] &= ~(1L << 3);
      again.refillRenamed(rows, order, 0, 3, without3, rank, 200, masks, true);
      for (SparseRows b : new SparseRows[] {first, again}) {
        assertEquals(plain.dimension(), b.dimension());
        for (int r = 0; r < 3; r++) {
          assertArrayEquals(indices(plain, r), indices(b, r));
          assertArrayEquals(values(plain, r), values(b, r));
        }
      }
    }
  }

  @Test
  void ranksThatDoNotGrowWithTheIndexOrABaseInsideTheRowsAreRefused() {
    SparseRows rows = SparseRows.of(START, IDX, VAL, ElementType.FLOAT);
    SparseRows b = SparseRows.buffer(ElementType.FLOAT);
    int[] order = {0, 1, 2};
    assertThrows(
        IllegalArgumentException.class,
        () -> b.refillRenamed(rows, order, 0, 3, BITS, rank(1, 0), 20, null, false));
    assertEquals(0, b.size(), "a refused fill leaves no rows");
    assertThrows(
        IllegalArgumentException.class,
        () -> b.refillRenamed(rows, order, 0, 3, BITS, rank(0, 1), 5, null, false));
    assertThrows(
        IllegalArgumentException.class,
        () -> rows.refillRenamed(rows, order, 0, 3, BITS, rank(0, 1), 20, null, false));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            SparseRows.buffer(ElementType.DOUBLE)
                .refillRenamed(rows, order, 0, 3, BITS, rank(0, 1), 20, null, false));
    assertThrows(
        IllegalArgumentException.class,
        () -> b.refillRenamed(rows, order, 2, 4, BITS, rank(0, 1), 20, null, false));
    assertThrows(
        IllegalArgumentException.class,
        () -> b.refillRenamed(rows, order, 0, 3, BITS, new int[3], 20, null, false));
    assertThrows(
        IllegalArgumentException.class,
        () -> b.refillRenamed(rows, order, 0, 3, BITS, rank(0, 1), 20, new long[2], false));
  }

  private static int[] indices(SparseRows r, int row) {
    int[] out = new int[r.nnz(row)];
    for (int j = 0; j < out.length; j++) {
      out[j] = r.index(row, j);
    }
    return out;
  }

  private static double[] values(SparseRows r, int row) {
    double[] out = new double[r.nnz(row)];
    for (int j = 0; j < out.length; j++) {
      out[j] = r.value(row, j);
    }
    return out;
  }
}
