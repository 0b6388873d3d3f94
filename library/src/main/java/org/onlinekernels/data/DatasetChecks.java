package org.onlinekernels.data;

/**
 * What makes a {@link SparseDataset} valid: a row's label, indices and values as they are appended,
 * and the labels as a whole (binary or class numbers) when it is built; each refusal names the row.
 */
final class DatasetChecks {
  private DatasetChecks() {}

  /**
   * Checks row {@code row}: the first {@code count} entries of {@code idx} and {@code val}, and its
   * label.
   *
   * @return the row's largest index, or -1 for an empty row
   * @throws IllegalArgumentException if the label is not finite, an index is negative or not
   *     strictly greater than the previous one, or a value is not finite
   */
  static int checkRow(long row, double label, int[] idx, double[] val, int count) {
    if (idx == null || val == null) {
      throw new IllegalArgumentException("row " + row + ": indices and values must not be null");
    }
    if (count < 0 || count > idx.length || count > val.length) {
      throw new IllegalArgumentException(
          "row "
              + row
              + ": count "
              + count
              + " exceeds the arrays ("
              + idx.length
              + " indices, "
              + val.length
              + " values)");
    }
    if (!Double.isFinite(label)) {
      throw new IllegalArgumentException(
          "row " + row + ": label " + label + " is not a finite number");
    }
    int prev = -1;
    for (int k = 0; k < count; k++) {
      int j = idx[k];
      if (j < 0) {
        throw new IllegalArgumentException(
            "row " + row + ": index " + j + " is negative (indices are 0-based)");
      }
      if (j == Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "row " + row + ": index " + j + " is too large (the dimension must fit in an int)");
      }
      if (j <= prev) {
        throw new IllegalArgumentException(
            "row "
                + row
                + ": index "
                + j
                + " after "
                + prev
                + ": indices must be strictly increasing");
      }
      if (!Double.isFinite(val[k])) {
        throw new IllegalArgumentException(
            "row " + row + ": value " + val[k] + " at index " + j + " is not a finite number");
      }
      prev = j;
    }
    return prev;
  }

  /**
   * 0 when every label of {@code labels[0..rows)} is {@code -1} or {@code +1} (binary), else {@code
   * K = max + 1} for class numbers {@code 0..K-1}.
   *
   * @throws IllegalArgumentException naming the first row whose label is neither
   */
  static int classes(double[] labels, int rows) {
    boolean binary = true;
    int firstNonBinary = -1;
    for (int r = 0; r < rows; r++) {
      if (labels[r] != 1.0 && labels[r] != -1.0) {
        binary = false;
        firstNonBinary = r;
        break;
      }
    }
    int numClasses = 0;
    if (!binary) {
      double max = -1;
      for (int r = 0; r < rows; r++) {
        double y = labels[r];
        if (!(y >= 0) || y != Math.rint(y) || y > Integer.MAX_VALUE - 1) {
          String why =
              y == -1.0
                  ? "label -1 with class number "
                      + formatLabel(labels[firstNonBinary])
                      + " at row "
                      + firstNonBinary
                      + ": labels must be all +1/-1 (binary) or all class numbers 0..K-1"
                  : "label " + formatLabel(y) + " is neither +1/-1 nor a class number 0..K-1";
          throw new IllegalArgumentException("row " + r + ": " + why);
        }
        max = Math.max(max, y);
      }
      numClasses = (int) max + 1;
    }
    return numClasses;
  }

  /** A label as written in messages: a whole number without its fraction. */
  static String formatLabel(double y) {
    return y == Math.rint(y) && Math.abs(y) < 1e15 ? Long.toString((long) y) : Double.toString(y);
  }
}
