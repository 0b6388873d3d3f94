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
 * InputPolicy#CHECKED} costs a round one comparison instead of a scan. The rows of {@link #of} are
 * immutable and thread-safe: one instance can feed any number of optimizers on any threads. A
 * {@link #buffer} is refilled block by block from a stream of row blocks by its owner.
 */
public final class SparseRows {
  private final ElementType type;

  /** Whether {@link #refill} may replace the rows (a {@link #buffer}). */
  private final boolean reusable;

  private int rows;
  private int[] start;
  private int[] indices;

  /** The values, one of the two by element type. */
  private float[] floats;

  private double[] doubles;
  private double[] maxAbs;
  private int dimension;
  private int maxNnz;

  private SparseRows(ElementType type, boolean reusable) {
    this.type = type;
    this.reusable = reusable;
    this.start = new int[1];
    this.indices = new int[0];
    this.maxAbs = new double[0];
    if (type == ElementType.FLOAT) {
      floats = new float[0];
    } else {
      doubles = new double[0];
    }
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
    SparseRows r = new SparseRows(type, false);
    r.load(rowStart.length - 1, rowStart, indices, values);
    return r;
  }

  /**
   * An empty buffer of rows of {@code type} that {@link #refill} fills block by block, its arrays
   * reused (grown only for a larger block): how a trainer feeds a stream of row blocks to the fused
   * rounds without allocating per block. Unlike the rows of {@link #of}, a buffer changes: its
   * owner refills it between blocks of rounds, never while a round runs.
   */
  public static SparseRows buffer(ElementType type) {
    if (type == null) {
      throw new IllegalArgumentException("type must not be null");
    }
    return new SparseRows(type, true);
  }

  /**
   * Replaces this buffer's rows by the {@code n} rows of {@code rowStart} ({@code n + 1} offsets)
   * over {@code indices} and {@code values} (a row block's arrays, which may be longer), validated
   * and rounded as {@link #of} does (row numbers in messages are positions in the block).
   *
   * @throws IllegalArgumentException if this is not a {@link #buffer}, an array is null or too
   *     short, or naming the row and entry of the first violation (the buffer then holds no rows)
   */
  public void refill(int n, int[] rowStart, int[] indices, double[] values) {
    if (!reusable) {
      throw new IllegalArgumentException(
          "only a SparseRows.buffer is refilled; the rows of SparseRows.of are immutable");
    }
    if (rowStart == null || indices == null || values == null) {
      throw new IllegalArgumentException("rowStart, indices and values must not be null");
    }
    if (n < 0 || rowStart.length < n + 1) {
      throw new IllegalArgumentException(
          n + " rows need " + (n + 1) + " offsets, rowStart has " + rowStart.length);
    }
    rows = 0;
    load(n, rowStart, indices, values);
  }

  /**
   * Validates rows {@code 0..n-1} of {@code rowStart} over {@code indices} and {@code values} and
   * copies them in, rounded to the element type; this instance's arrays are reused when large
   * enough. The checks run once per block: one pass folds every row's offsets, index order and
   * value range into a sign bit and a maximum ({@link #loadValid}), without a branch per entry;
   * only a block that fails them is checked entry by entry, for the message that names its first
   * violation.
   */
  private void load(int n, int[] rowStart, int[] indices, double[] values) {
    checkSpan(n, rowStart, indices, values);
    if (!loadValid(n, rowStart, indices, values)) {
      loadChecking(n, rowStart, indices, values);
    }
  }

  /** Refuses rows whose entries lie outside the arrays. */
  private static void checkSpan(int n, int[] rowStart, int[] indices, double[] values) {
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
  }

  /**
   * {@link #load} of rows that hold every check, which it tests once per row or block: row offsets
   * non-decreasing (per row, before its entries are read), indices non-negative and strictly
   * increasing (each row's first index and its gaps less one ORed together: the sign bit of any
   * violation), and the largest {@code |value|} within the element type's range (a NaN fails it
   * too). Copies the rows in and returns true; or, if a check fails, returns false and changes
   * nothing but scratch, for {@link #loadChecking}.
   */
  private boolean loadValid(int n, int[] rowStart, int[] indices, double[] values) {
    double limit = type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE;
    if (maxAbs.length < n) {
      maxAbs = new double[n];
    }
    double[] rowMax = maxAbs;
    boolean isFloat = type == ElementType.FLOAT;
    int bad = 0;
    int dim = 0;
    int longest = 0;
    double blockMax = 0;
    int end = rowStart[n];
    for (int r = 0; r < n; r++) {
      int s = rowStart[r];
      int e = rowStart[r + 1];
      if ((e - s | end - e) < 0) {
        return false; // offsets that decrease, or a row past the block's end: not read here
      }
      longest = Math.max(longest, e - s);
      int prev = -1;
      double m = 0;
      for (int j = s; j < e; j++) {
        int i = indices[j];
        bad |= i | (i - prev - 1);
        prev = i;
        m = Math.max(m, Math.abs(values[j]));
      }
      dim = Math.max(dim, prev + 1);
      blockMax = Math.max(blockMax, m);
      // Rounding to float is monotone and symmetric: the largest rounded |value| is the rounded
      // largest, the bits the entry-by-entry checks keep.
      rowMax[r] = isFloat ? (float) m : m;
    }
    if (bad < 0 || !(blockMax <= limit)) {
      return false;
    }
    copyIn(n, rowStart, indices, values, dim, longest);
    return true;
  }

  /** {@link #load}, checking entry by entry: names the row and entry of the first violation. */
  private void loadChecking(int n, int[] rowStart, int[] indices, double[] values) {
    double limit = type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE;
    if (maxAbs.length < n) {
      maxAbs = new double[n];
    }
    double[] rowMax = maxAbs;
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
    copyIn(n, rowStart, indices, values, dim, longest);
  }

  /**
   * Copies checked rows in, rounded to the element type, with their dimension and longest row (the
   * rows' {@code max |x_j|} are already in {@link #maxAbs}).
   */
  private void copyIn(int n, int[] rowStart, int[] indices, double[] values, int dim, int longest) {
    int end = rowStart[n];
    int count = end - rowStart[0];
    if (this.indices.length < count) {
      this.indices = new int[count];
    }
    System.arraycopy(indices, rowStart[0], this.indices, 0, count);
    if (start.length < n + 1) {
      start = new int[n + 1];
    }
    for (int r = 0; r <= n; r++) {
      start[r] = rowStart[r] - rowStart[0];
    }
    if (type == ElementType.FLOAT) {
      if (floats.length < count) {
        floats = new float[count];
      }
      for (int j = 0; j < count; j++) {
        floats[j] = (float) values[rowStart[0] + j];
      }
    } else {
      if (doubles.length < count) {
        doubles = new double[count];
      }
      System.arraycopy(values, rowStart[0], doubles, 0, count);
    }
    this.rows = n;
    this.dimension = dim;
    this.maxNnz = longest;
  }

  /**
   * Replaces this buffer's rows by rows {@code order[from] .. order[to - 1]} of {@code source} (in
   * that order) with the entries of some coordinates moved to the end of their row and renamed: an
   * entry whose index {@code i} is in {@code renamed} (bit {@code i % 64} of word {@code i / 64})
   * becomes index {@code base + rank[i]}, after the row's other entries, which keep their order and
   * index; the values keep their bits (a shared-state worker's block of rows naming its private
   * copies of the hottest records). {@code rank} must grow with the index among the renamed
   * coordinates and {@code base} be at least {@code source.dimension()}, so every row stays
   * strictly increasing. The source was validated when made; nothing is checked again but the
   * ranks' order. Allocates only to grow this buffer (to the longest block it has held).
   *
   * <p>{@code masks} (null: none) keeps, per source row of at most 64 entries, which of its entries
   * are renamed (bit {@code k}: entry {@code k}), so that a row renamed again needs no look-up per
   * entry: with {@code masksKnown} false they are written for the rows filled, with it true read
   * (every such row must have been filled before with the same {@code renamed}).
   *
   * @throws IllegalArgumentException if this is not a {@link #buffer}, the element types differ,
   *     {@code base} is below the source's dimension, {@code renamed}, {@code rank} or {@code
   *     masks} is too short for the source, or the ranks do not grow with the index (the buffer
   *     then holds no rows)
   */
  public void refillRenamed(
      SparseRows source,
      int[] order,
      int from,
      int to,
      long[] renamed,
      int[] rank,
      int base,
      long[] masks,
      boolean masksKnown) {
    if (!reusable
        || source == null
        || source.type != type
        || order == null
        || renamed == null
        || rank == null
        || from < 0
        || to < from
        || to > order.length
        || base < source.dimension
        || (long) renamed.length * Long.SIZE < source.dimension
        || rank.length < source.dimension
        || (masks != null && masks.length < source.rows)) {
      throw new IllegalArgumentException(
          "refillRenamed needs a buffer, rows of its element type, positions within the order,"
              + " a bit and a rank per coordinate, a mask per row and a base of at least the rows'"
              + " dimension");
    }
    rows = 0;
    int n = to - from;
    int count = 0;
    for (int q = from; q < to; q++) {
      count += source.nnz(order[q]);
    }
    if (start.length < n + 1) {
      start = new int[n + 1];
    }
    if (maxAbs.length < n) {
      maxAbs = new double[n];
    }
    if (indices.length < count) {
      indices = new int[count];
    }
    if (type == ElementType.FLOAT ? floats.length < count : doubles.length < count) {
      if (type == ElementType.FLOAT) {
        floats = new float[count];
      } else {
        doubles = new double[count];
      }
    }
    // Row by row in a method of its own: called 256 times a block, it is compiled within the first
    // blocks (one method holding every loop ran in the interpreter for the first second of a fit).
    top = source.dimension;
    int w = 0;
    for (int q = from; q < to; q++) {
      int r = order[q];
      start[q - from] = w;
      maxAbs[q - from] = source.maxAbs[r];
      w = renameRow(source, r, w, renamed, rank, base, masks, masksKnown);
    }
    int dim = top;
    start[n] = w;
    this.dimension = dim;
    this.maxNnz = source.maxNnz;
    this.rows = n;
  }

  /**
   * The largest renamed index of the rows filled so far, plus one (at least the source's
   * dimension).
   */
  private int top;

  /** Source row {@code r} renamed from place {@code w} ({@link #refillRenamed}); the next place. */
  private int renameRow(
      SparseRows source,
      int r,
      int w,
      long[] renamed,
      int[] rank,
      int base,
      long[] masks,
      boolean masksKnown) {
    int[] from1 = source.indices;
    int[] to1 = indices;
    int s0 = source.start[r];
    int s1 = source.start[r + 1];
    // The mask covers a row's first 64 entries; a longer row's others are looked up one by one.
    int e = Math.min(s1, s0 + Long.SIZE);
    long m;
    if (masks != null && masksKnown && s1 - s0 <= Long.SIZE) {
      m = masks[r];
    } else {
      m = 0;
      for (int j = s0; j < e; j++) {
        int i = from1[j];
        m |= ((renamed[i >>> 6] >>> i) & 1L) << (j - s0);
      }
      if (masks != null && s1 - s0 <= Long.SIZE) {
        masks[r] = m;
      }
    }
    // The cold entries without a branch per entry (whether an entry is renamed follows no
    // pattern): every entry is written at the next cold place and only a cold one moves it on; a
    // renamed entry's stray write is overwritten by the row's renamed entries after them.
    if (type == ElementType.FLOAT) {
      float[] fromF = source.floats;
      float[] toF = floats;
      for (int j = s0; j < e; j++) {
        to1[w] = from1[j];
        toF[w] = fromF[j];
        w += 1 - (int) ((m >>> (j - s0)) & 1L);
      }
    } else {
      double[] fromD = source.doubles;
      double[] toD = doubles;
      for (int j = s0; j < e; j++) {
        to1[w] = from1[j];
        toD[w] = fromD[j];
        w += 1 - (int) ((m >>> (j - s0)) & 1L);
      }
    }
    w = renameRest(source, e, s1, w, renamed);
    int last = -1;
    for (long h = m; h != 0; h &= h - 1) {
      int j = s0 + Long.numberOfTrailingZeros(h);
      last = renamedEntry(source, j, w++, rank, base, last);
    }
    for (int j = e; j < s1; j++) {
      int i = from1[j];
      if (((renamed[i >>> 6] >>> i) & 1L) != 0) {
        last = renamedEntry(source, j, w++, rank, base, last);
      }
    }
    top = Math.max(top, last + 1);
    return w;
  }

  /**
   * The cold entries {@code [j0, j1)} of a row longer than 64, from place {@code w}; the next
   * place.
   */
  private int renameRest(SparseRows source, int j0, int j1, int w, long[] renamed) {
    for (int j = j0; j < j1; j++) {
      int i = source.indices[j];
      if (((renamed[i >>> 6] >>> i) & 1L) == 0) {
        indices[w] = i;
        if (type == ElementType.FLOAT) {
          floats[w] = source.floats[j];
        } else {
          doubles[w] = source.doubles[j];
        }
        w++;
      }
    }
    return w;
  }

  /**
   * Writes source entry {@code j} renamed at place {@code w}; its new index, above {@code last}.
   */
  private int renamedEntry(SparseRows source, int j, int w, int[] rank, int base, int last) {
    int k = rank[source.indices[j]];
    int i = base + k;
    if (k < 0 || i <= last) {
      throw new IllegalArgumentException(
          "rank " + k + " of coordinate " + source.indices[j] + " does not grow with the index");
    }
    indices[w] = i;
    if (type == ElementType.FLOAT) {
      floats[w] = source.floats[j];
    } else {
      doubles[w] = source.doubles[j];
    }
    return i;
  }

  /** Element type of the values. */
  public ElementType elementType() {
    return type;
  }

  /** Number of rows. */
  public int size() {
    return rows;
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
