package org.onlinekernels.data;

import java.io.IOException;
import java.util.Arrays;
import java.util.Random;

/**
 * Shuffles a feed within a bounded buffer: it holds up to {@code bufferRows} rows of its source,
 * and each row it gives is drawn uniformly at random from those it holds, its place then taken by
 * the source's next row (a shuffle buffer, as streaming data loaders have it). A source of at most
 * {@code bufferRows} rows is thus shuffled in full, a uniformly random permutation of all its rows;
 * a longer one is shuffled locally: a row leaves at most about {@code bufferRows} positions ahead
 * of where it came in, and on average that far behind. Memory: the rows held, each in arrays of its
 * own that are reused (grown only for a longer row), so a stream of rows of steady length allocates
 * nothing per row once the buffer is full.
 *
 * <p>The order depends only on the source's rows and the generator: one seeded {@link Random} gives
 * one order. Ids are kept, so the rows can still be named by their place in the source.
 */
public final class ShuffleFeed implements RowFeed {
  /** A default buffer: 65,536 rows. */
  public static final int DEFAULT_ROWS = 1 << 16;

  private final RowFeed source;
  private final int capacity;
  private final Random random;
  private final RowBlock in;
  private int inPos;
  private boolean sourceEnded;

  // The rows held: slot s has nnz[s] entries in idx[s] and val[s].
  private int held;
  private int[][] idx = new int[16][];
  private double[][] val = new double[16][];
  private int[] nnz = new int[16];
  private double[] label = new double[16];
  private long[] id = new long[16];

  /**
   * Shuffles {@code source} within {@code bufferRows} rows, drawing from {@code random}.
   *
   * @throws IllegalArgumentException if an argument is null or {@code bufferRows < 1}
   */
  public ShuffleFeed(RowFeed source, int bufferRows, Random random) {
    if (source == null || random == null || bufferRows < 1) {
      throw new IllegalArgumentException(
          "a shuffle buffer needs a source, a generator and at least 1 row, got " + bufferRows);
    }
    this.source = source;
    this.capacity = bufferRows;
    this.random = random;
    this.in = new RowBlock(Math.min(RowBlock.DEFAULT_ROWS, bufferRows));
  }

  /** The most rows held at once. */
  public int bufferRows() {
    return capacity;
  }

  @Override
  public boolean next(RowBlock block) throws IOException {
    block.clear();
    while (!block.isFull()) {
      while (held < capacity && pull()) {
        store(held++, in, inPos++);
      }
      if (held == 0) {
        break;
      }
      int s = random.nextInt(held);
      block.put(label[s], id[s], idx[s], 0, val[s], 0, nnz[s]);
      if (pull()) {
        store(s, in, inPos++);
      } else {
        held--;
        swapSlots(s, held);
      }
    }
    return !block.isEmpty();
  }

  /** Whether the source has a row at {@link #inPos} of {@link #in}, reading a block if needed. */
  private boolean pull() throws IOException {
    while (inPos >= in.size()) {
      inPos = 0;
      if (sourceEnded || !source.next(in)) {
        sourceEnded = true;
        in.clear();
        return false;
      }
    }
    return true;
  }

  private void store(int s, RowBlock b, int r) {
    if (s == nnz.length) {
      int cap = (int) Math.min((long) s * 2, Integer.MAX_VALUE - 8);
      idx = Arrays.copyOf(idx, cap);
      val = Arrays.copyOf(val, cap);
      nnz = Arrays.copyOf(nnz, cap);
      label = Arrays.copyOf(label, cap);
      id = Arrays.copyOf(id, cap);
    }
    int n = b.nnz(r);
    if (idx[s] == null || idx[s].length < n) {
      idx[s] = new int[Math.max(4, n + (n >> 2))];
      val[s] = new double[idx[s].length];
    }
    int from = b.rowStart(r);
    System.arraycopy(b.indexArray(), from, idx[s], 0, n);
    System.arraycopy(b.valueArray(), from, val[s], 0, n);
    nnz[s] = n;
    label[s] = b.label(r);
    id[s] = b.id(r);
  }

  private void swapSlots(int a, int b) {
    int[] i = idx[a];
    idx[a] = idx[b];
    idx[b] = i;
    double[] v = val[a];
    val[a] = val[b];
    val[b] = v;
    nnz[a] = nnz[b];
    label[a] = label[b];
    id[a] = id[b];
  }

  @Override
  public double progress() {
    return source.progress();
  }

  @Override
  public void close() throws IOException {
    source.close();
  }
}
