package org.onlinekernels.optimizer;

import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.ElementType;

/**
 * Sparse rows validated once, for {@link LinearModelOptimizer#round}: a compressed sparse row (CSR)
 * copy of the caller's arrays with the values rounded to one element type, in heap arrays.
 *
 * <p>Everything a round would otherwise check on every call is checked here, once, in O(nnz): row
 * offsets non-decreasing and within the arrays, indices non-negative and strictly increasing within
 * each row, values finite in the element type. Each row's {@code max |x_j|} is kept, so {@link
 * InputPolicy#CHECKED} costs a round one comparison instead of a scan. Immutable and thread-safe:
 * one instance can feed any number of optimizers on any threads.
 */
public final class SparseRows {
  private final ElementType type;
  private final int[] start;
  private final int[] indices;

  /** The values, one of the two by element type. */
  private final float[] floats;

  private final double[] doubles;
  private final double[] maxAbs;
  private final int dimension;
  private final int maxNnz;

  private SparseRows(
      ElementType type,
      int[] start,
      int[] indices,
      float[] floats,
      double[] doubles,
      double[] maxAbs,
      int dimension,
      int maxNnz) {
    this.type = type;
    this.start = start;
    this.indices = indices;
    this.floats = floats;
    this.doubles = doubles;
    this.maxAbs = maxAbs;
    this.dimension = dimension;
    this.maxNnz = maxNnz;
  }

  /**
   * Rows {@code r = 0 .. rowStart.length - 2}: row {@code r} is the entries {@code rowStart[r] ..
   * rowStart[r+1] - 1} of {@code indices} and {@code values} (0-based feature indices). The arrays
   * are copied; the values are rounded to {@code type}.
   *
   * @throws IllegalArgumentException naming the row and entry of the first violation
   */
  public static SparseRows of(int[] rowStart, int[] indices, double[] values, ElementType type) {
    if (rowStart == null || indices == null || values == null || type == null) {
      throw new IllegalArgumentException("rowStart, indices, values and type must not be null");
    }
    if (rowStart.length < 1) {
      throw new IllegalArgumentException(
          "rowStart needs at least one element (rows + 1 offsets), got none");
    }
    int n = rowStart.length - 1;
    int end = rowStart[n];
    if (rowStart[0] < 0 || end > indices.length || end > values.length) {
      throw new IllegalArgumentException(
          "rows span entries "
              + rowStart[0]
              + ".."
              + end
              + " but indices has "
              + indices.length
              + " and values "
              + values.length
              + " entries");
    }
    double limit = type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE;
    double[] rowMax = new double[n];
    int dim = 0;
    int longest = 0;
    for (int r = 0; r < n; r++) {
      int s = rowStart[r];
      int e = rowStart[r + 1];
      if (e < s) {
        throw new IllegalArgumentException(
            "rowStart["
                + (r + 1)
                + "] = "
                + e
                + " < rowStart["
                + r
                + "] = "
                + s
                + "; row offsets must not decrease");
      }
      longest = Math.max(longest, e - s);
      double m = 0;
      for (int j = s; j < e; j++) {
        int i = indices[j];
        if (i < 0) {
          throw new IllegalArgumentException(
              "row " + r + ", entry " + (j - s) + ": index " + i + " is negative");
        }
        if (j > s && i <= indices[j - 1]) {
          throw new IllegalArgumentException(
              "row "
                  + r
                  + ", entry "
                  + (j - s)
                  + ": index "
                  + i
                  + " does not follow "
                  + indices[j - 1]
                  + "; indices must be strictly increasing within a row");
        }
        double a = Math.abs(values[j]);
        if (!(a <= limit)) {
          throw new IllegalArgumentException(
              "row "
                  + r
                  + ", entry "
                  + (j - s)
                  + " (index "
                  + i
                  + "): value "
                  + values[j]
                  + " is not finite as "
                  + type.name().toLowerCase());
        }
        m = Math.max(m, type == ElementType.FLOAT ? Math.abs((float) values[j]) : a);
        dim = Math.max(dim, i + 1);
      }
      rowMax[r] = m;
    }
    int count = end - rowStart[0];
    int[] idx = new int[count];
    System.arraycopy(indices, rowStart[0], idx, 0, count);
    int[] st = new int[n + 1];
    for (int r = 0; r <= n; r++) {
      st[r] = rowStart[r] - rowStart[0];
    }
    float[] f = null;
    double[] v = null;
    if (type == ElementType.FLOAT) {
      f = new float[count];
      for (int j = 0; j < count; j++) {
        f[j] = (float) values[rowStart[0] + j];
      }
    } else {
      v = new double[count];
      System.arraycopy(values, rowStart[0], v, 0, count);
    }
    return new SparseRows(type, st, idx, f, v, rowMax, dim, longest);
  }

  /** Element type of the values. */
  public ElementType elementType() {
    return type;
  }

  /** Number of rows. */
  public int size() {
    return maxAbs.length;
  }

  /** Number of entries of row {@code r}. */
  public int nnz(int r) {
    return start[r + 1] - start[r];
  }

  /**
   * One more than the largest index of any row (0 without entries): the smallest model they fit.
   */
  public int dimension() {
    return dimension;
  }

  /** The largest number of entries of a row. */
  public int maxNnz() {
    return maxNnz;
  }

  /** {@code max_j |x_j|} of row {@code r} in the element type (0 for an empty row). */
  public double maxAbs(int r) {
    return maxAbs[r];
  }

  /** Index of entry {@code j} of row {@code r}. */
  public int index(int r, int j) {
    return indices[start[r] + j];
  }

  /** Value of entry {@code j} of row {@code r}, widened to double. */
  public double value(int r, int j) {
    int at = start[r] + j;
    return type == ElementType.FLOAT ? floats[at] : doubles[at];
  }

  /**
   * Row {@code r}'s indices as a read-only view (allocates the view; {@link AbstractOptimizer}'s
   * rounds do not use it).
   */
  public MemorySegment indexSlice(int r) {
    return MemorySegment.ofArray(indices)
        .asSlice((long) start[r] * Integer.BYTES, (long) nnz(r) * Integer.BYTES)
        .asReadOnly();
  }

  /** Row {@code r}'s values as a read-only view (allocates the view, like {@link #indexSlice}). */
  public MemorySegment valueSlice(int r) {
    MemorySegment all =
        type == ElementType.FLOAT ? MemorySegment.ofArray(floats) : MemorySegment.ofArray(doubles);
    return all.asSlice((long) start[r] * type.bytes(), (long) nnz(r) * type.bytes()).asReadOnly();
  }

  /**
   * Position of row {@code r}'s first entry in {@link #indices}, {@link #floats} and {@link
   * #doubles}.
   */
  int offset(int r) {
    return start[r];
  }

  /** All indices (not to be written). */
  int[] indices() {
    return indices;
  }

  /** All values of float rows (not to be written), else null. */
  float[] floats() {
    return floats;
  }

  /** All values of double rows (not to be written), else null. */
  double[] doubles() {
    return doubles;
  }
}
