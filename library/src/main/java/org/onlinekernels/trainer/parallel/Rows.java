package org.onlinekernels.trainer.parallel;

import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.TrainingData;

/** A dataset's rows as plain arrays, read by every worker (never written after construction). */
public final class Rows {
  private final SparseDataset data;

  /** All rows' feature indices, row after row; copied on first use (mixing's merges read them). */
  private int[] indices;

  /** Row {@code r} is {@code [start[r], start[r + 1])} of {@link #indices()}. */
  final int[] start;

  final double[] labels;
  final int maxNnz;

  /**
   * The same data prepared for the sequential trainer: its validated rows serve the fused rounds.
   */
  private final TrainingData prepared;

  /**
   * The rows of a dataset.
   *
   * @param data the dataset
   */
  public Rows(SparseDataset data) {
    int n = data.size();
    this.data = data;
    this.start = new int[n + 1];
    this.labels = new double[n];
    int m = 1;
    for (int r = 0; r < n; r++) {
      start[r] = data.rowStart(r);
      labels[r] = data.label(r);
      m = Math.max(m, data.nnz(r));
    }
    start[n] = n == 0 ? 0 : data.rowEnd(n - 1);
    this.maxNnz = m;
    this.prepared = TrainingData.of(data);
  }

  /** All rows' feature indices, row after row (not to be written). */
  synchronized int[] indices() {
    if (indices == null) {
      indices = data.indices();
    }
    return indices;
  }

  /**
   * The rows as {@link SparseRows} of {@code type}: the sequential trainer's rounds run on them
   * too.
   */
  SparseRows sparse(ElementType type) {
    return prepared.rows(type);
  }

  /** The rows as {@link SparseRows} of the element type the rounds of {@code config} read. */
  SparseRows sparse(TrainerConfig config) {
    return sparse(config.type() == ElementType.FLOAT ? ElementType.FLOAT : ElementType.DOUBLE);
  }

  /** The positions {@code 0..size()-1} in file order: the visiting order an epoch shuffles. */
  int[] fileOrder() {
    int[] order = new int[size()];
    for (int r = 0; r < order.length; r++) {
      order[r] = r;
    }
    return order;
  }

  /** The number of rows. */
  public int size() {
    return labels.length;
  }
}
