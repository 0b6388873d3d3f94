package org.onlinekernels.optimizer;

/**
 * The argument checks of {@link LinearModelOptimizer#rounds} and of the single round's loss slot,
 * shared by their defaults and the fused forms.
 */
public final class RoundBlocks {
  private RoundBlocks() {}

  /**
   * Checks the block's arguments and every row number in it, in O(to - from): nothing of the block
   * has run when this throws.
   */
  public static void check(
      SparseRows rows, int[] order, int from, int to, double[] y, double[] yhat, double[] losses) {
    if (rows == null || order == null || y == null || yhat == null) {
      throw new IllegalArgumentException("rows, order, y and yhat must not be null");
    }
    if (from < 0 || to < from || to > order.length) {
      throw new IllegalArgumentException(
          "rounds [" + from + ", " + to + ") are not within order's " + order.length + " entries");
    }
    int n = to - from;
    if (y.length < n || yhat.length < n || (losses != null && losses.length < n)) {
      throw new IllegalArgumentException(
          n
              + " rounds need "
              + n
              + " labels, yhat and loss slots; got "
              + y.length
              + ", "
              + yhat.length
              + " and "
              + (losses == null ? "no losses" : losses.length));
    }
    int size = rows.size();
    for (int q = from; q < to; q++) {
      int r = order[q];
      if (r < 0 || r >= size) {
        throw new IllegalArgumentException(
            "order[" + q + "] = " + r + " is outside the rows 0.." + (size - 1));
      }
    }
  }

  /** Checks that {@code losses[at]} is a slot a round may write its loss to. */
  public static void checkSlot(double[] losses, int at) {
    if (losses == null) {
      throw new IllegalArgumentException("losses must not be null");
    }
    if (at < 0 || at >= losses.length) {
      throw new IllegalArgumentException(
          "loss slot " + at + " is outside losses' " + losses.length + " entries");
    }
  }
}
