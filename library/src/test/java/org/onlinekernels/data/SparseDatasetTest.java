package org.onlinekernels.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SparseDatasetTest {

  @Test
  void fromDenseDropsZerosAndKeepsShape() {
    SparseDataset ds =
        SparseDataset.fromDense(
            new double[][] {{0, 2, 0}, {1, 0, 3}, {0, 0, 0}}, new double[] {1, -1, 1});
    assertEquals(3, ds.size());
    assertEquals(3, ds.dimension());
    assertEquals(3, ds.totalNonZeros());
    assertEquals(1, ds.nnz(0));
    assertEquals(2, ds.nnz(1));
    assertEquals(0, ds.nnz(2));
    assertEquals(1, ds.rowStart(1));
    assertEquals(3, ds.rowEnd(1));
    assertArrayEquals(new int[] {1, 0, 2}, ds.indices());
    assertArrayEquals(new double[] {2, 1, 3}, ds.values());
    assertArrayEquals(new double[] {1, 0, 3}, ds.denseRow(1, null));
    assertTrue(ds.isBinary());
    assertEquals(2, ds.numClasses());
  }

  @Test
  void denseRowReusesAndClearsTheArray() {
    SparseDataset ds =
        SparseDataset.fromDense(new double[][] {{5, 0}, {0, 7}}, new double[] {0, 1});
    double[] buf = new double[2];
    assertSame(buf, ds.denseRow(0, buf));
    assertArrayEquals(new double[] {5, 0}, buf);
    ds.denseRow(1, buf);
    assertArrayEquals(new double[] {0, 7}, buf);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ds.denseRow(0, new double[3]));
    assertEquals("denseRow: array has length 3 but the data set has dimension 2", e.getMessage());
  }

  @Test
  void accessorsReturnCopies() {
    SparseDataset ds = SparseDataset.fromDense(new double[][] {{1}}, new double[] {1});
    ds.indices()[0] = 9;
    ds.values()[0] = 9;
    assertEquals(0, ds.indices()[0]);
    assertEquals(1.0, ds.values()[0]);
  }

  @Test
  void builderGrowsAndKeepsExplicitZeros() {
    SparseDataset.Builder b = new SparseDataset.Builder();
    for (int r = 0; r < 1000; r++) {
      b.addRow(r % 3, new int[] {r, r + 1, r + 5}, new double[] {0, r, -r}, 3);
    }
    SparseDataset ds = b.build();
    assertEquals(1000, ds.size());
    assertEquals(3000, ds.totalNonZeros());
    assertEquals(1005, ds.dimension());
    assertFalse(ds.isBinary());
    assertEquals(3, ds.numClasses());
    assertEquals(3 * 999, ds.rowStart(999));
    assertEquals(0.0, ds.values()[3 * 999]);
  }

  @Test
  void minDimensionAndHead() {
    SparseDataset ds =
        new SparseDataset.Builder()
            .minDimension(10)
            .addRow(1, new int[] {2}, new double[] {1})
            .addRow(-1, new int[] {}, new double[] {})
            .build();
    assertEquals(10, ds.dimension());
    SparseDataset h = ds.head(1);
    assertEquals(1, h.size());
    assertEquals(10, h.dimension());
    assertEquals(1.0, h.label(0));
  }

  @Test
  void rowValidationMessages() {
    SparseDataset.Builder b = new SparseDataset.Builder();
    b.addRow(1, new int[] {0}, new double[] {1});
    assertEquals(
        "row 1: index 3 after 5: indices must be strictly increasing",
        assertThrows(
                IllegalArgumentException.class,
                () -> b.addRow(1, new int[] {5, 3}, new double[] {1, 1}))
            .getMessage());
    assertEquals(
        "row 1: index -1 is negative (indices are 0-based)",
        assertThrows(
                IllegalArgumentException.class, () -> b.addRow(1, new int[] {-1}, new double[] {1}))
            .getMessage());
    assertEquals(
        "row 1: value NaN at index 2 is not a finite number",
        assertThrows(
                IllegalArgumentException.class,
                () -> b.addRow(1, new int[] {2}, new double[] {Double.NaN}))
            .getMessage());
    assertEquals(
        "row 1: label Infinity is not a finite number",
        assertThrows(
                IllegalArgumentException.class,
                () -> b.addRow(Double.POSITIVE_INFINITY, new int[] {}, new double[] {}))
            .getMessage());
    assertEquals(
        "row 1: 2 indices but 1 values",
        assertThrows(
                IllegalArgumentException.class,
                () -> b.addRow(1, new int[] {1, 2}, new double[] {1}))
            .getMessage());
    assertEquals(1, b.size(), "failed rows are not appended");
  }

  @Test
  void labelValidationMessages() {
    assertEquals(
        "row 1: label 0.5 is neither +1/-1 nor a class number 0..K-1",
        assertThrows(
                IllegalArgumentException.class,
                () -> SparseDataset.fromDense(new double[][] {{1}, {1}}, new double[] {1, 0.5}))
            .getMessage());
    assertEquals(
        "row 0: label -1 with class number 2 at row 1: labels must be all +1/-1 (binary) or all class numbers 0..K-1",
        assertThrows(
                IllegalArgumentException.class,
                () -> SparseDataset.fromDense(new double[][] {{1}, {1}}, new double[] {-1, 2}))
            .getMessage());
  }

  @Test
  void fromDenseValidation() {
    assertEquals(
        "fromDense: x has 1 rows but y has 2 labels",
        assertThrows(
                IllegalArgumentException.class,
                () -> SparseDataset.fromDense(new double[][] {{1}}, new double[] {1, 1}))
            .getMessage());
    assertEquals(
        "fromDense: row 1 has 2 entries but row 0 has 1",
        assertThrows(
                IllegalArgumentException.class,
                () -> SparseDataset.fromDense(new double[][] {{1}, {1, 2}}, new double[] {1, 1}))
            .getMessage());
  }

  @Test
  void rowIndexOutOfRange() {
    SparseDataset ds = SparseDataset.fromDense(new double[][] {{1}}, new double[] {1});
    assertEquals(
        "row 1 out of range [0, 1)",
        assertThrows(IndexOutOfBoundsException.class, () -> ds.nnz(1)).getMessage());
  }

  @Test
  void builderBuildsOnce() {
    SparseDataset.Builder b = new SparseDataset.Builder();
    b.build();
    assertThrows(IllegalStateException.class, b::build);
    assertThrows(IllegalStateException.class, () -> b.addRow(1, new int[] {}, new double[] {}));
  }
}
