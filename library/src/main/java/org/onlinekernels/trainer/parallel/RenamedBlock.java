package org.onlinekernels.trainer.parallel;

import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.RefusedRoundException;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.optimizer.parallel.SharedState;
import org.onlinekernels.trainer.BlockLoop;

/**
 * One shared-state worker's current block of rows, its hot coordinates renamed to the worker's
 * private copies of their records ({@link HotCoordinates#rename}), in a buffer of the worker's own:
 * made on the worker's thread, refilled at the start of each of its blocks and reused for the whole
 * fit, so the rows are never copied whole (a per-fit copy of 2,000,000 rows of 40 nonzeros was 96
 * MB, written by one thread before the workers started) and each worker renames only the rows it
 * trains. The block's rounds then run on the buffer's rows in order; a refused round is reported at
 * its position in the epoch's order, as on the shared rows.
 */
final class RenamedBlock {
  /** Positions {@code 0 .. BLOCK - 1}: the buffer holds the block's rows in the epoch's order. */
  private static final int[] IN_ORDER = inOrder();

  private final SparseRows rows;

  /** The position in the epoch's order of the buffer's first row. */
  private int first;

  /** An empty block of rows of {@code type}. */
  RenamedBlock(ElementType type) {
    this.rows = SparseRows.buffer(type);
  }

  /**
   * Holds rows {@code order[from] .. order[to - 1]} of {@code source} ({@code to - from <=
   * BlockLoop.BLOCK}), renamed for worker {@code worker}; {@code again}: in a later epoch of the
   * fit, every row renamed once ({@link HotCoordinates#rename}).
   */
  void fill(
      HotCoordinates hot,
      SparseRows source,
      int[] order,
      int from,
      int to,
      int worker,
      boolean again) {
    if (to - from > BlockLoop.BLOCK) {
      throw new IllegalArgumentException(
          "a block holds at most " + BlockLoop.BLOCK + " rows, got " + (to - from));
    }
    hot.rename(rows, source, order, from, to, worker, again);
    first = from;
  }

  /**
   * Worker {@code j}'s rounds on {@code state} for positions {@code [from, to)} of the epoch's
   * order, within the block held ({@link SharedState#rounds}).
   */
  void rounds(
      SharedState state,
      int j,
      int from,
      int to,
      double[] y,
      Loss loss,
      double[] yhat,
      double[] losses) {
    try {
      state.rounds(j, rows, IN_ORDER, from - first, to - first, y, loss, yhat, losses);
    } catch (RefusedRoundException e) {
      throw new RefusedRoundException(
          e.position() + first, (IllegalArgumentException) e.getCause());
    }
  }

  /** The rows held (for tests). */
  SparseRows rows() {
    return rows;
  }

  private static int[] inOrder() {
    int[] order = new int[BlockLoop.BLOCK];
    for (int q = 0; q < order.length; q++) {
      order[q] = q;
    }
    return order;
  }
}
