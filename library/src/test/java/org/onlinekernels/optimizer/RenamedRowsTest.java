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
      b.refillRenamed(rows, new int[] {2, 0, 1}, 1, 3, BITS, rank(0, 1), 20);
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
      b.refillRenamed(rows, new int[] {2, 1}, 0, 2, BITS, rank(0, 1), 30);
      assertEquals(2, b.size());
      assertEquals(0, b.nnz(0));
      assertArrayEquals(new int[] {7, 30}, indices(b, 1));
      assertEquals(31, b.dimension());
      b.refillRenamed(rows, new int[] {2}, 0, 1, BITS, rank(0, 1), 30);
      assertEquals(1, b.size());
      assertEquals(0, b.nnz(0));
      assertEquals(rows.dimension(), b.dimension());
    }
  }

  @Test
  void ranksThatDoNotGrowWithTheIndexOrABaseInsideTheRowsAreRefused() {
    SparseRows rows = SparseRows.of(START, IDX, VAL, ElementType.FLOAT);
    SparseRows b = SparseRows.buffer(ElementType.FLOAT);
    int[] order = {0, 1, 2};
    assertThrows(
        IllegalArgumentException.class,
        () -> b.refillRenamed(rows, order, 0, 3, BITS, rank(1, 0), 20));
    assertEquals(0, b.size(), "a refused fill leaves no rows");
    assertThrows(
        IllegalArgumentException.class,
        () -> b.refillRenamed(rows, order, 0, 3, BITS, rank(0, 1), 5));
    assertThrows(
        IllegalArgumentException.class,
        () -> rows.refillRenamed(rows, order, 0, 3, BITS, rank(0, 1), 20));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            SparseRows.buffer(ElementType.DOUBLE)
                .refillRenamed(rows, order, 0, 3, BITS, rank(0, 1), 20));
    assertThrows(
        IllegalArgumentException.class,
        () -> b.refillRenamed(rows, order, 2, 4, BITS, rank(0, 1), 20));
    assertThrows(
        IllegalArgumentException.class,
        () -> b.refillRenamed(rows, order, 0, 3, BITS, new int[3], 20));
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
