package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.ElementType;

/**
 * {@link SparseRows#renamed} moves the entries of ranked coordinates to the end of their row,
 * renamed {@code base + rank}, values with them and the others as they were; {@link
 * SparseRows#shifted} moves every index from a bound up; both keep each row strictly increasing and
 * refuse what would break it.
 */
class RenamedRowsTest {
  private static final int[] START = {0, 4, 6, 6};
  private static final int[] IDX = {1, 3, 5, 8, 3, 7};
  private static final double[] VAL = {0.5, -2, 3.25, 1e-3, 7, -0.125};

  @Test
  void rankedEntriesMoveToTheEndRenamedWithTheirValues() {
    for (ElementType type : ElementType.values()) {
      SparseRows rows = SparseRows.of(START, IDX, VAL, type);
      int[] rank = new int[9];
      Arrays.fill(rank, -1);
      rank[3] = 0;
      rank[5] = 1;
      SparseRows r = rows.renamed(rank, 20);
      assertEquals(3, r.size());
      assertArrayEquals(new int[] {1, 8, 20, 21}, indices(r, 0), type.name());
      double small = type == ElementType.FLOAT ? (float) 1e-3 : 1e-3;
      assertArrayEquals(new double[] {0.5, small, -2, 3.25}, values(r, 0, type));
      assertArrayEquals(new int[] {7, 20}, indices(r, 1));
      assertEquals(0, r.nnz(2));
      assertEquals(22, r.dimension());
      assertEquals(rows.maxAbs(0), r.maxAbs(0));
      SparseRows s = r.shifted(9, 100);
      assertArrayEquals(new int[] {1, 8, 120, 121}, indices(s, 0));
      assertArrayEquals(values(r, 0, type), values(s, 0, type));
      assertEquals(122, s.dimension());
    }
  }

  @Test
  void ranksThatDoNotGrowWithTheIndexOrABaseInsideTheRowsAreRefused() {
    SparseRows rows = SparseRows.of(START, IDX, VAL, ElementType.FLOAT);
    int[] rank = new int[9];
    Arrays.fill(rank, -1);
    rank[3] = 1;
    rank[5] = 0;
    assertThrows(IllegalArgumentException.class, () -> rows.renamed(rank, 20));
    int[] ok = new int[9];
    Arrays.fill(ok, -1);
    assertThrows(IllegalArgumentException.class, () -> rows.renamed(ok, 5));
    assertThrows(
        IllegalArgumentException.class, () -> SparseRows.buffer(ElementType.FLOAT).renamed(ok, 20));
    assertThrows(IllegalArgumentException.class, () -> rows.shifted(0, -1));
  }

  private static int[] indices(SparseRows r, int row) {
    int[] out = new int[r.nnz(row)];
    for (int j = 0; j < out.length; j++) {
      out[j] = r.index(row, j);
    }
    return out;
  }

  private static double[] values(SparseRows r, int row, ElementType type) {
    double[] out = new double[r.nnz(row)];
    for (int j = 0; j < out.length; j++) {
      out[j] = r.value(row, j);
    }
    return out;
  }
}
