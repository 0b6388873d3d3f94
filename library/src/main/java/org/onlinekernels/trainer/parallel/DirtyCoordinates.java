package org.onlinekernels.trainer.parallel;

/**
 * The coordinates a round's rows named, per thread, for a merge that visits only those ({@link
 * org.onlinekernels.optimizer.parallel.CoordinateMerge}): each thread sets the bits of its rows'
 * indices in a bitset of its own; then each thread collects a range of the bitsets' words (the
 * union of every thread's bits there, cleared for the next round) into an ascending list, and the
 * lists, in thread order, are the round's coordinates in ascending order. Everything is allocated
 * once.
 */
final class DirtyCoordinates {
  private final int threads;
  private final int words;

  /** bits[j]: the coordinates thread j's rows named this round. */
  private final long[][] bits;

  /** found[j]: the coordinates thread j collected; count[j] of them. */
  private final int[][] found;

  private final int[] count;
  private final int[] all;
  private int total;

  DirtyCoordinates(int d, int threads) {
    this.threads = threads;
    this.words = (d + 63) >>> 6;
    this.bits = new long[threads][words];
    this.found = new int[threads][];
    this.count = new int[threads];
    for (int j = 0; j < threads; j++) {
      found[j] = new int[(wordAt(j + 1) - wordAt(j)) * 64];
    }
    this.all = new int[d];
  }

  private int wordAt(int j) {
    return (int) ((long) words * j / threads);
  }

  /** Thread {@code j} marks the indices of rows {@code order[from..to)}. */
  void mark(int j, Rows rows, int[] order, int from, int to) {
    long[] b = bits[j];
    int[] idx = rows.indices();
    int[] start = rows.start;
    for (int q = from; q < to; q++) {
      int r = order[q];
      for (int e = start[r], end = start[r + 1]; e < end; e++) {
        int i = idx[e];
        b[i >>> 6] |= 1L << i;
      }
    }
  }

  /** Thread {@code j} collects (and clears) its range of words, after every thread has marked. */
  void collect(int j) {
    int[] out = found[j];
    int c = 0;
    for (int w = wordAt(j), end = wordAt(j + 1); w < end; w++) {
      long u = 0;
      for (long[] b : bits) {
        u |= b[w];
        b[w] = 0;
      }
      while (u != 0) {
        out[c++] = (w << 6) + Long.numberOfTrailingZeros(u);
        u &= u - 1;
      }
    }
    count[j] = c;
  }

  /**
   * The collected coordinates, ascending, after every thread has collected ({@link #count} of
   * them).
   */
  int[] gather() {
    int at = 0;
    for (int j = 0; j < threads; j++) {
      System.arraycopy(found[j], 0, all, at, count[j]);
      at += count[j];
    }
    total = at;
    return all;
  }

  /** The number of coordinates {@link #gather} returned. */
  int count() {
    return total;
  }
}
