package org.onlinekernels.data;

import java.util.Arrays;

/**
 * A block of labelled sparse rows in reusable buffers: what a {@link RowFeed} hands a trainer, one
 * block at a time. Row {@code r} has a label, an id (its number in the source, e.g. the example's
 * 0-based position in a file, kept through shuffling so that progressive predictions can name it)
 * and the entries {@link #rowStart(int) rowStart(r)} .. {@link #rowEnd(int) rowEnd(r)} - 1 of
 * {@link #indexArray()} and {@link #valueArray()}: 0-based, strictly increasing indices and finite
 * values, checked when the row is added (the same rules as {@link SparseDataset.Builder}).
 *
 * <p>The buffers are kept between blocks: {@link #clear()} forgets the rows, not the arrays, which
 * grow only when a block holds more entries than any before; so a feed that refills one block
 * allocates nothing once the buffers have grown to its largest block. {@link #rowCapacity()} is the
 * number of rows a producer should put in one block (a hint: {@link #add} grows past it), which
 * bounds the memory a feed's blocks hold.
 *
 * <p>Not thread-safe: a block belongs to one thread at a time (a pipelined feed hands filled blocks
 * over through a queue, or by {@link #exchange}).
 */
public final class RowBlock {
  /** Default rows per block: enough that per-block costs vanish, few enough to stay in cache. */
  public static final int DEFAULT_ROWS = 1024;

  private final int capacity;
  private int rows;
  private int entries;
  private double[] labels;
  private long[] ids;
  private int[] start;
  private int[] indices;
  private double[] values;

  /** A block of {@link #DEFAULT_ROWS} rows. */
  public RowBlock() {
    this(DEFAULT_ROWS);
  }

  /**
   * A block whose producers aim at {@code rowCapacity} rows.
   *
   * @throws IllegalArgumentException if {@code rowCapacity < 1}
   */
  public RowBlock(int rowCapacity) {
    if (rowCapacity < 1) {
      throw new IllegalArgumentException("a block holds at least 1 row, got " + rowCapacity);
    }
    this.capacity = rowCapacity;
    this.labels = new double[rowCapacity];
    this.ids = new long[rowCapacity];
    this.start = new int[rowCapacity + 1];
    this.indices = new int[Math.max(16, rowCapacity * 8)];
    this.values = new double[indices.length];
  }

  /** Forgets the rows; the buffers stay. */
  public void clear() {
    rows = 0;
    entries = 0;
  }

  /** Number of rows. */
  public int size() {
    return rows;
  }

  /** Whether the block has no rows. */
  public boolean isEmpty() {
    return rows == 0;
  }

  /** The number of rows a producer should put in one block. */
  public int rowCapacity() {
    return capacity;
  }

  /** Whether the block holds {@link #rowCapacity()} rows or more. */
  public boolean isFull() {
    return rows >= capacity;
  }

  /** Number of entries of all rows. */
  public int entries() {
    return entries;
  }

  /**
   * Appends a row: label {@code label}, id {@code id}, the first {@code count} entries of {@code
   * idx} and {@code val} (copied; the arrays may be reused).
   *
   * @throws IllegalArgumentException if the label is not finite, an index is negative, not below
   *     {@code 2^31 - 1} or not strictly greater than the one before, or a value is not finite; the
   *     message names the row by its id, and the block is unchanged
   */
  public RowBlock add(double label, long id, int[] idx, double[] val, int count) {
    DatasetChecks.checkRow(id, label, idx, val, count);
    put(label, id, idx, 0, val, 0, count);
    return this;
  }

  /** Appends a checked row from {@code idx[from..)} and {@code val[vfrom..)}. */
  void put(double label, long id, int[] idx, int from, double[] val, int vfrom, int count) {
    if ((long) entries + count > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException(
          "a block holds at most " + (Integer.MAX_VALUE - 8) + " entries");
    }
    if (rows == labels.length) {
      int cap = grow(labels.length, rows + 1);
      labels = Arrays.copyOf(labels, cap);
      ids = Arrays.copyOf(ids, cap);
      start = Arrays.copyOf(start, cap + 1);
    }
    if (entries + count > indices.length) {
      int cap = grow(indices.length, entries + count);
      indices = Arrays.copyOf(indices, cap);
      values = Arrays.copyOf(values, cap);
    }
    System.arraycopy(idx, from, indices, entries, count);
    System.arraycopy(val, vfrom, values, entries, count);
    labels[rows] = label;
    ids[rows] = id;
    start[rows] = entries;
    entries += count;
    rows++;
    start[rows] = entries;
  }

  /** Appends row {@code r} of {@code other} (checked when it was added there), id and all. */
  public void append(RowBlock other, int r) {
    other.check(r);
    put(other, r);
  }

  /** Appends row {@code r} of {@code other} (already checked there). */
  void put(RowBlock other, int r) {
    int s = other.start[r];
    put(other.labels[r], other.ids[r], other.indices, s, other.values, s, other.start[r + 1] - s);
  }

  private static int grow(int current, int needed) {
    long cap = Math.max((long) needed, current + (current >> 1) + 16L);
    return (int) Math.min(cap, Integer.MAX_VALUE - 8);
  }

  /** Label of row {@code r}. */
  public double label(int r) {
    check(r);
    return labels[r];
  }

  /**
   * Replaces the label of row {@code r} (e.g. raw class numbers mapped to {@code -1/+1}).
   *
   * @throws IllegalArgumentException if {@code y} is not finite
   */
  public void setLabel(int r, double y) {
    check(r);
    if (!Double.isFinite(y)) {
      throw new IllegalArgumentException("row " + ids[r] + ": label " + y + " is not finite");
    }
    labels[r] = y;
  }

  /** Id of row {@code r}: its number in the source. */
  public long id(int r) {
    check(r);
    return ids[r];
  }

  /** Position of row {@code r}'s first entry in {@link #indexArray()} and {@link #valueArray()}. */
  public int rowStart(int r) {
    check(r);
    return start[r];
  }

  /** Position one past row {@code r}'s last entry. */
  public int rowEnd(int r) {
    check(r);
    return start[r + 1];
  }

  /** Number of entries of row {@code r}. */
  public int nnz(int r) {
    check(r);
    return start[r + 1] - start[r];
  }

  /**
   * The block's index buffer (not a copy): row {@code r}'s indices are positions {@link
   * #rowStart(int)} .. {@link #rowEnd(int)} - 1. Valid until the block is changed; not to be
   * written.
   */
  public int[] indexArray() {
    return indices;
  }

  /**
   * The block's value buffer (not a copy), aligned with {@link #indexArray()}. A reader may rescale
   * a row's values in place (e.g. to unit norm), keeping them finite; valid until the block is
   * changed.
   */
  public double[] valueArray() {
    return values;
  }

  /** The labels buffer (not a copy): the first {@link #size()} entries; not to be written. */
  public double[] labelArray() {
    return labels;
  }

  /** The ids buffer (not a copy): the first {@link #size()} entries; not to be written. */
  public long[] idArray() {
    return ids;
  }

  /**
   * The row starts buffer (not a copy): row {@code r} is {@code [starts[r], starts[r + 1])}; the
   * first {@link #size()} + 1 entries; not to be written.
   */
  public int[] startArray() {
    return start;
  }

  /**
   * Gives the rows the ids {@code first, first + 1, ...} in their order: a reader that parses a
   * chunk of its input before it knows how many rows came before numbers them afterwards.
   */
  public void renumber(long first) {
    for (int r = 0; r < rows; r++) {
      ids[r] = first + r;
    }
  }

  /**
   * Swaps the contents and buffers of this block and {@code other}: a pipelined feed hands a filled
   * block to its consumer without copying. The {@link #rowCapacity()} of each stays its own.
   *
   * @throws IllegalArgumentException if {@code other} is null or this block
   */
  public void exchange(RowBlock other) {
    if (other == null || other == this) {
      throw new IllegalArgumentException("exchange needs another block");
    }
    int r = rows;
    rows = other.rows;
    other.rows = r;
    int n = entries;
    entries = other.entries;
    other.entries = n;
    double[] l = labels;
    labels = other.labels;
    other.labels = l;
    long[] i = ids;
    ids = other.ids;
    other.ids = i;
    int[] s = start;
    start = other.start;
    other.start = s;
    int[] x = indices;
    indices = other.indices;
    other.indices = x;
    double[] v = values;
    values = other.values;
    other.values = v;
  }

  private void check(int r) {
    if (r < 0 || r >= rows) {
      throw new IndexOutOfBoundsException("row " + r + " out of range [0, " + rows + ")");
    }
  }
}
