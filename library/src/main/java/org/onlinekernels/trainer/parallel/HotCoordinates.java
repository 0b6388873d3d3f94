package org.onlinekernels.trainer.parallel;

import java.util.Arrays;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.optimizer.parallel.HotRecords;

/**
 * Which coordinates of a fit's data are hot (named by the most rows), and how a worker's block of
 * rows names its private copies of their records instead ({@link HotRecords}, {@link
 * RenamedBlock}). Counted over the fit's first {@link #SAMPLE} rows in file order; a coordinate is
 * hot if it is among the {@code capacity} most named there and named at least twice. Written by
 * {@link #choose} before the workers start, only read while they train.
 */
final class HotCoordinates {
  /** Rows counted: enough to rank the popular coordinates of a Zipf-like stream. */
  static final int SAMPLE = 10_000;

  private final int d;
  private final int capacity;

  /** Per coordinate: its count while choosing, else its rank among the hot ones or -1. */
  private int[] rank;

  /** Bit {@code i % 64} of word {@code i / 64}: coordinate {@code i} is hot (L2-sized at 2^20). */
  private long[] bits;

  private int[] coords = new int[0];

  /**
   * Per row of the fit, which of its first 64 entries are hot (bit {@code k}: entry {@code k}):
   * written by the worker that renames the row in the fit's first epoch, read in the later ones
   * (the team's barrier between epochs orders the two), so that a row renamed again costs no
   * look-up per entry. 8 bytes per row, not a copy of the rows.
   */
  private long[] masks = new long[0];

  HotCoordinates(int d, int capacity) {
    this.d = d;
    this.capacity = capacity;
  }

  /** The hot coordinates, ascending. */
  int[] coords() {
    return coords;
  }

  /** Chooses the hot coordinates of {@code rows} (replacing the last fit's). */
  void choose(SparseRows rows) {
    if (masks.length < rows.size()) {
      masks = new long[rows.size()];
    }
    if (rank == null) {
      rank = new int[d];
      bits = new long[(d + Long.SIZE - 1) / Long.SIZE];
    }
    Arrays.fill(rank, 0);
    int sample = Math.min(rows.size(), SAMPLE);
    int distinct = 0;
    for (int r = 0; r < sample; r++) {
      for (int j = 0; j < rows.nnz(r); j++) {
        if (rank[rows.index(r, j)]++ == 0) {
          distinct++;
        }
      }
    }
    // Candidates named at least twice, by count (most first), ties by coordinate.
    long[] keyed = new long[distinct];
    int m = 0;
    for (int r = 0; r < sample; r++) {
      for (int j = 0; j < rows.nnz(r); j++) {
        int c = rows.index(r, j);
        int k = rank[c];
        if (k > 0) {
          if (k >= 2) {
            keyed[m++] = ((long) (Integer.MAX_VALUE - k) << 32) | c;
          }
          rank[c] = 0;
        }
      }
    }
    Arrays.sort(keyed, 0, m);
    int n = Math.min(m, capacity);
    int[] hot = new int[n];
    for (int r = 0; r < n; r++) {
      hot[r] = (int) keyed[r];
    }
    Arrays.sort(hot);
    Arrays.fill(rank, -1);
    Arrays.fill(bits, 0L);
    for (int r = 0; r < n; r++) {
      rank[hot[r]] = r;
      bits[hot[r] >>> 6] |= 1L << hot[r];
    }
    coords = hot;
  }

  /**
   * Fills {@code buffer} with rows {@code order[from] .. order[to - 1]} of {@code rows} (the rows
   * {@link #choose} was given), each with the entries of cold coordinates first, as they were, then
   * those of hot coordinates, renamed to worker {@code worker}'s copies (ascending, since the
   * copies follow the hot coordinates' order and lie above {@code d}). {@code again}: every row has
   * been renamed since {@link #choose} (a later epoch of the fit), and its hot entries are known.
   */
  void rename(
      SparseRows buffer,
      SparseRows rows,
      int[] order,
      int from,
      int to,
      int worker,
      boolean again) {
    buffer.refillRenamed(
        rows, order, from, to, bits, rank, HotRecords.slot(d, capacity, worker, 0), masks, again);
  }
}
