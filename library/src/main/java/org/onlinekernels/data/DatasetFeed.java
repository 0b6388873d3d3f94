package org.onlinekernels.data;

/** The rows of a {@link SparseDataset} as a {@link RowFeed} ({@link RowFeed#of}). */
final class DatasetFeed implements RowFeed {
  private final SparseDataset data;
  private final int blockRows;
  private final int[] indices;
  private final double[] values;
  private int next;

  DatasetFeed(SparseDataset data, int blockRows) {
    if (data == null || blockRows < 1) {
      throw new IllegalArgumentException(
          "a feed of a data set needs the data and at least 1 row per block");
    }
    this.data = data;
    this.blockRows = blockRows;
    this.indices = data.indices();
    this.values = data.values();
  }

  @Override
  public boolean next(RowBlock block) {
    block.clear();
    int end = Math.min(data.size(), next + blockRows);
    for (; next < end; next++) {
      int s = data.rowStart(next);
      block.put(data.label(next), next, indices, s, values, s, data.rowEnd(next) - s);
    }
    return !block.isEmpty();
  }

  @Override
  public double progress() {
    return data.size() == 0 ? 1 : (double) next / data.size();
  }
}
