package org.onlinekernels.trainer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.onlinekernels.data.SparseDataset;

/** Issue 12, item 3: --normalize at extreme scales (used to zero 1e200 and leave 1e-200). */
class NormalizeRowsTest {
  static double[] normalized(double... row) {
    int[] idx = new int[row.length];
    for (int i = 0; i < idx.length; i++) {
      idx[i] = i;
    }
    SparseDataset d = new SparseDataset.Builder().addRow(1, idx, row, row.length).build();
    SparseDataset n = Datasets.normalizeRows(d);
    double[] out = new double[row.length];
    System.arraycopy(n.values(), n.rowStart(0), out, 0, row.length);
    return out;
  }

  @Test
  void everyScaleGivesAUnitRow() {
    for (int e = -1074; e <= 1023; e += 7) {
      double x = Math.scalb(1.0, e);
      assertEquals(1.0, normalized(x)[0], "2^" + e);
      assertEquals(-1.0, normalized(-x)[0], "-2^" + e);
      double[] two = normalized(x, x);
      assertEquals(Math.sqrt(0.5), two[0], 1e-15, "2^" + e);
      assertEquals(Math.sqrt(0.5), two[1], 1e-15, "2^" + e);
      if (e >= -1072) { // 3x/4 exact
        double[] mixed = normalized(3 * x / 4, x); // 3:4 -> 0.6, 0.8
        assertEquals(0.6, mixed[0], 1e-15, "2^" + e);
        assertEquals(0.8, mixed[1], 1e-15, "2^" + e);
      }
    }
  }

  @Test
  void theReportedRows() {
    assertEquals(1.0, normalized(1e200)[0]);
    assertEquals(Math.sqrt(0.5), normalized(1e160, 1e160)[0], 1e-15);
    assertEquals(1.0, normalized(1e-200)[0]);
    assertEquals(Double.MIN_VALUE / Double.MIN_VALUE, normalized(Double.MIN_VALUE)[0]);
  }

  @Test
  void ordinaryRowsAreUnchangedFromThePlainFormulaAndZeroRowsStayZero() {
    double[] r = normalized(3, 4, 0);
    assertEquals(3 * (1 / Math.sqrt(25)), r[0]);
    assertEquals(4 * (1 / Math.sqrt(25)), r[1]);
    assertEquals(0, r[2]);
    double[] z = normalized(0, 0);
    assertEquals(0, z[0]);
    assertEquals(0, z[1]);
  }
}
