package org.onlinekernels.data;

import java.util.Arrays;

/**
 * An immutable labelled data set in compressed sparse row (CSR) form.
 *
 * <p>Row {@code r} owns the positions {@code rowStart(r) .. rowEnd(r)-1} of {@link #indices()} and
 * {@link #values()}; its indices are 0-based and strictly increasing. Explicit zero values are kept
 * as given (the update kernels treat them like absent features, but a reader should not lose what
 * the file said).
 *
 * <p>Labels: a data set whose labels all lie in {@code {-1, +1}} is <em>binary</em> ({@link
 * #numClasses()} = 2, {@link #isBinary()} true); otherwise every label must be a non-negative
 * integer class number and the data set is <em>multiclass</em> with {@code K = max label + 1}
 * classes. Anything else (fractions, negative labels other than -1, a mix of -1 and class numbers 0
 * or &ge; 2) is rejected when the data set is built. A data set with labels only in {@code {1}} or
 * only in {@code {-1, 1}} is therefore binary, and one with labels {@code {0, 1}} is multiclass
 * with two classes; an empty data set counts as binary.
 *
 * <p>The accessor arrays {@link #indices()} and {@link #values()} are copies; hot loops should
 * fetch them once, not per row.
 */
public final class SparseDataset {
  private final int dimension;
  private final double[] labels;
  private final int[] rowPtr;
  private final int[] indices;
  private final double[] values;
  private final boolean binary;
  private final int numClasses;

  private SparseDataset(
      int dimension,
      double[] labels,
      int[] rowPtr,
      int[] indices,
      double[] values,
      boolean binary,
      int numClasses) {
    this.dimension = dimension;
    this.labels = labels;
    this.rowPtr = rowPtr;
    this.indices = indices;
    this.values = values;
    this.binary = binary;
    this.numClasses = numClasses;
  }

  /** Number of rows (examples). */
  public int size() {
    return labels.length;
  }

  /** Number of features: at least one more than the largest index present. */
  public int dimension() {
    return dimension;
  }

  /** Label of {@code row}: {@code -1/+1} for binary data, {@code 0..K-1} for multiclass. */
  public double label(int row) {
    return labels[row];
  }

  /** Position in {@link #indices()} / {@link #values()} of the first entry of {@code row}. */
  public int rowStart(int row) {
    checkRow(row);
    return rowPtr[row];
  }

  /** Position one past the last entry of {@code row}. */
  public int rowEnd(int row) {
    checkRow(row);
    return rowPtr[row + 1];
  }

  /** Number of stored entries (including explicit zeros) of {@code row}. */
  public int nnz(int row) {
    checkRow(row);
    return rowPtr[row + 1] - rowPtr[row];
  }

  /** Number of stored entries over all rows. */
  public long totalNonZeros() {
    return rowPtr[labels.length];
  }

  /** A copy of all rows' 0-based feature indices, row after row. */
  public int[] indices() {
    return indices.clone();
  }

  /** A copy of all rows' values, aligned with {@link #indices()}. */
  public double[] values() {
    return values.clone();
  }

  /** 2 for binary data, {@code K = max label + 1} for multiclass data. */
  public int numClasses() {
    return numClasses;
  }

  /** True when every label is {@code -1} or {@code +1}. */
  public boolean isBinary() {
    return binary;
  }

  /**
   * The same rows with other labels (the feature arrays are shared, not copied), e.g. raw class
   * numbers mapped to {@code -1/+1}.
   *
   * @param newLabels one per row, all {@code -1/+1} or all class numbers {@code 0..K-1}
   * @throws IllegalArgumentException on a wrong count or a label that is neither
   */
  public SparseDataset withLabels(double[] newLabels) {
    if (newLabels == null || newLabels.length != labels.length) {
      throw new IllegalArgumentException(
          "need "
              + labels.length
              + " labels, got "
              + (newLabels == null ? "none" : newLabels.length));
    }
    double[] copy = newLabels.clone();
    for (int r = 0; r < copy.length; r++) {
      if (!Double.isFinite(copy[r])) {
        throw new IllegalArgumentException(
            "row " + r + ": label " + copy[r] + " is not a finite number");
      }
    }
    int k = DatasetChecks.classes(copy, copy.length);
    return new SparseDataset(dimension, copy, rowPtr, indices, values, k == 0, k == 0 ? 2 : k);
  }

  /**
   * The same rows labelled by class numbers {@code 0..numClasses-1}, multiclass with {@code
   * numClasses} classes whichever of them occur: a label map names its classes, and data holding
   * only some of them (or only class 1, which alone would read as binary {@code +1}) still has them
   * all.
   *
   * @throws IllegalArgumentException on a wrong count or a label that is not one of the classes
   */
  public SparseDataset withClasses(double[] classNumbers, int numClasses) {
    if (classNumbers == null || classNumbers.length != labels.length || numClasses < 1) {
      throw new IllegalArgumentException(
          "need "
              + labels.length
              + " class numbers and at least one class, got "
              + (classNumbers == null ? "none" : classNumbers.length)
              + " and "
              + numClasses);
    }
    double[] copy = classNumbers.clone();
    for (int r = 0; r < copy.length; r++) {
      if (!(copy[r] >= 0 && copy[r] < numClasses && copy[r] == Math.rint(copy[r]))) {
        throw new IllegalArgumentException(
            "row "
                + r
                + ": label "
                + DatasetChecks.formatLabel(copy[r])
                + " is not a class number 0.."
                + (numClasses - 1));
      }
    }
    return new SparseDataset(dimension, copy, rowPtr, indices, values, false, numClasses);
  }

  /**
   * Row {@code row} as a dense vector of length {@link #dimension()}.
   *
   * @param into an array of length {@code dimension()} to overwrite (reused to avoid garbage in
   *     loops), or {@code null} to allocate one
   * @return {@code into}, or the new array
   */
  public double[] denseRow(int row, double[] into) {
    checkRow(row);
    if (into == null) {
      into = new double[dimension];
    } else if (into.length != dimension) {
      throw new IllegalArgumentException(
          "denseRow: array has length "
              + into.length
              + " but the data set has dimension "
              + dimension);
    } else {
      Arrays.fill(into, 0.0);
    }
    for (int k = rowPtr[row]; k < rowPtr[row + 1]; k++) {
      into[indices[k]] = values[k];
    }
    return into;
  }

  /** The first {@code to} rows as a new data set of the same dimension (e.g. to shorten a demo). */
  public SparseDataset head(int to) {
    if (to < 0 || to > size()) {
      throw new IllegalArgumentException("head(" + to + "): the data set has " + size() + " rows");
    }
    Builder b = new Builder().minDimension(dimension);
    for (int r = 0; r < to; r++) {
      int s = rowPtr[r];
      b.addRow(
          labels[r],
          Arrays.copyOfRange(indices, s, rowPtr[r + 1]),
          Arrays.copyOfRange(values, s, rowPtr[r + 1]));
    }
    return b.build();
  }

  private void checkRow(int row) {
    if (row < 0 || row >= labels.length) {
      throw new IndexOutOfBoundsException(
          "row " + row + " out of range [0, " + labels.length + ")");
    }
  }

  /**
   * A data set from dense rows; zero entries are left out of the sparse form (a dense matrix has no
   * notion of an explicit zero).
   *
   * @param x rows, all of the same length (the dimension); at least one row unless {@code y} is
   *     empty too
   * @param y one label per row
   */
  public static SparseDataset fromDense(double[][] x, double[] y) {
    if (x == null || y == null) {
      throw new IllegalArgumentException("fromDense: x and y must not be null");
    }
    if (x.length != y.length) {
      throw new IllegalArgumentException(
          "fromDense: x has " + x.length + " rows but y has " + y.length + " labels");
    }
    int d = x.length == 0 ? 0 : x[0] == null ? -1 : x[0].length;
    Builder b = new Builder().minDimension(Math.max(d, 0));
    int[] idx = new int[Math.max(d, 0)];
    double[] val = new double[Math.max(d, 0)];
    for (int r = 0; r < x.length; r++) {
      if (x[r] == null) {
        throw new IllegalArgumentException("fromDense: row " + r + " is null");
      }
      if (x[r].length != d) {
        throw new IllegalArgumentException(
            "fromDense: row " + r + " has " + x[r].length + " entries but row 0 has " + d);
      }
      int k = 0;
      for (int j = 0; j < d; j++) {
        if (x[r][j] != 0.0) {
          idx[k] = j;
          val[k] = x[r][j];
          k++;
        }
      }
      b.addRow(y[r], idx, val, k);
    }
    return b.build();
  }

  /**
   * Appends rows one at a time; arrays grow by half their size so that appending {@code n} rows
   * costs amortised {@code O(n + nnz)}. Each row is validated when appended, the labels as a whole
   * when {@link #build()} is called. Not thread-safe; a builder can build only once.
   */
  public static final class Builder {
    private double[] labels = new double[16];
    private int[] rowPtr = new int[17];
    private int[] indices = new int[64];
    private double[] values = new double[64];
    private int rows;
    private int nnz;
    private int maxIndex = -1;
    private int minDimension;
    private boolean built;

    /** An empty builder. */
    public Builder() {}

    /**
     * The built data set gets at least this dimension, even if no row uses the last features (e.g.
     * a test file read with its training file's dimension).
     */
    public Builder minDimension(int d) {
      if (d < 0) {
        throw new IllegalArgumentException("minimum dimension must be >= 0, got " + d);
      }
      minDimension = d;
      return this;
    }

    /** Number of rows appended so far. */
    public int size() {
      return rows;
    }

    /** Appends a row whose entries are all of {@code idx} and {@code val} (same length). */
    public Builder addRow(double label, int[] idx, double[] val) {
      if (idx == null || val == null) {
        throw new IllegalArgumentException("row " + rows + ": indices and values must not be null");
      }
      if (idx.length != val.length) {
        throw new IllegalArgumentException(
            "row " + rows + ": " + idx.length + " indices but " + val.length + " values");
      }
      return addRow(label, idx, val, idx.length);
    }

    /**
     * Appends a row made of the first {@code count} entries of {@code idx} and {@code val}; the
     * arrays are copied, so callers may reuse them.
     *
     * @throws IllegalArgumentException if the label is not finite, an index is negative or not
     *     strictly greater than the previous one, or a value is not finite
     */
    public Builder addRow(double label, int[] idx, double[] val, int count) {
      if (built) {
        throw new IllegalStateException("this builder has already built its data set");
      }
      int prev = DatasetChecks.checkRow(rows, label, idx, val, count);
      if ((long) nnz + count > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException(
            "more than " + (Integer.MAX_VALUE - 8) + " stored entries do not fit in one data set");
      }
      if (rows == labels.length) {
        int cap = grow(labels.length, rows + 1);
        labels = Arrays.copyOf(labels, cap);
        rowPtr = Arrays.copyOf(rowPtr, cap + 1);
      }
      if (nnz + count > indices.length) {
        int cap = grow(indices.length, nnz + count);
        indices = Arrays.copyOf(indices, cap);
        values = Arrays.copyOf(values, cap);
      }
      System.arraycopy(idx, 0, indices, nnz, count);
      System.arraycopy(val, 0, values, nnz, count);
      nnz += count;
      labels[rows] = label;
      rows++;
      rowPtr[rows] = nnz;
      if (prev > maxIndex) {
        maxIndex = prev;
      }
      return this;
    }

    private static int grow(int current, int needed) {
      long cap = Math.max((long) needed, current + (current >> 1) + 16L);
      return (int) Math.min(cap, Integer.MAX_VALUE - 8);
    }

    /**
     * The data set; dimension = max(minimum dimension, largest index + 1).
     *
     * @throws IllegalArgumentException if the labels are neither all in {@code {-1, +1}} nor all
     *     non-negative integers (the message names the first offending row)
     */
    public SparseDataset build() {
      if (built) {
        throw new IllegalStateException("this builder has already built its data set");
      }
      int numClasses = DatasetChecks.classes(labels, rows);
      boolean binary = numClasses == 0;
      numClasses = binary ? 2 : numClasses;
      built = true;
      // Trim so that the immutable result holds no spare capacity.
      return new SparseDataset(
          Math.max(minDimension, maxIndex + 1),
          Arrays.copyOf(labels, rows),
          Arrays.copyOf(rowPtr, rows + 1),
          Arrays.copyOf(indices, nnz),
          Arrays.copyOf(values, nnz),
          binary,
          numClasses);
    }
  }
}
