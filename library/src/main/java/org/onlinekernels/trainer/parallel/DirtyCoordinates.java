package org.onlinekernels.trainer.parallel;

/**
 * The coordinates a round's rows named, per thread, for a merge that visits only those ({@link
 * org.onlinekernels.optimizer.parallel.CoordinateMerge}): each thread sets the bits of its rows'
 * indices in a bitset of its own; then each thread collects a range of the bitsets' words (the
 * union of every thread's bits there, cleared for the next round) into an ascending list, and the
 * lists, in thread order, are the round's coordinates in ascending order, each with the thread
 * whose rows alone named it (or -1 where several threads' rows did): a merge copies such a
 * coordinate from that thread's learner instead of combining every learner there. Each thread then
 * places its list at its offset in the round's list ({@link #place}), so no thread copies the whole
 * list. Everything is allocated once.
 */
final class DirtyCoordinates {
  private final int threads;
  private final int words;

  /** bits[j]: the coordinates thread j's rows named this round. */
  private final long[][] bits;

  /** found[j]: the coordinates thread j collected; count[j] of them. */
  private final int[][] found;

  /** foundOwner[j][q]: the only thread whose rows named found[j][q], or -1. */
  private final int[][] foundOwner;

  private final int[] count;
  private final int[] all;
  private final int[] allOwner;

  DirtyCoordinates(int d, int threads) {
    this.threads = threads;
    this.words = (d + 63) >>> 6;
    this.bits = new long[threads][words];
    this.found = new int[threads][];
    this.foundOwner = new int[threads][];
    this.count = new int[threads];
    for (int j = 0; j < threads; j++) {
      found[j] = new int[(wordAt(j + 1) - wordAt(j)) * 64];
      foundOwner[j] = new int[found[j].length];
    }
    this.all = new int[d];
    this.allOwner = new int[d];
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
    int[] owner = foundOwner[j];
    int c = 0;
    for (int w = wordAt(j), end = wordAt(j + 1); w < end; w++) {
      long u = 0;
      long several = 0;
      for (long[] b : bits) {
        several |= u & b[w];
        u |= b[w];
      }
      while (u != 0) {
        int bit = Long.numberOfTrailingZeros(u);
        int who = -1;
        if ((several & (1L << bit)) == 0) {
          who = 0;
          while ((bits[who][w] & (1L << bit)) == 0) {
            who++;
          }
        }
        owner[c] = who;
        out[c++] = (w << 6) + bit;
        u &= u - 1;
      }
      for (long[] b : bits) {
        b[w] = 0;
      }
    }
    count[j] = c;
  }

  /**
   * Thread {@code j}, after every thread has collected: places its coordinates and their owners at
   * its offset in the round's list (the counts of the threads before it).
   */
  void place(int j) {
    int at = 0;
    for (int i = 0; i < j; i++) {
      at += count[i];
    }
    System.arraycopy(found[j], 0, all, at, count[j]);
    System.arraycopy(foundOwner[j], 0, allOwner, at, count[j]);
  }

  /**
   * The round's coordinates, ascending ({@link #count} of them), after every thread has placed its
   * own.
   */
  int[] list() {
    return all;
  }

  /** Every thread's {@link #place} in turn, on one thread; returns {@link #list}. */
  int[] gather() {
    for (int j = 0; j < threads; j++) {
      place(j);
    }
    return all;
  }

  /**
   * Per position of {@link #gather}'s list, the only thread whose rows named that coordinate, or -1
   * where several threads' rows did.
   */
  int[] owners() {
    return allOwner;
  }

  /** The number of the round's coordinates, after every thread has collected. */
  int count() {
    int total = 0;
    for (int c : count) {
      total += c;
    }
    return total;
  }
}
