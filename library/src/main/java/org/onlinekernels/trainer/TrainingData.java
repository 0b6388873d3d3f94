package org.onlinekernels.trainer;

import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.SparseRows;

/**
 * A data set laid out for {@link OnlineTrainer#fit}: its CSR arrays fetched once (the {@link
 * SparseDataset} accessors copy), row starts and labels as plain arrays, the largest row size, and
 * the visiting order that shuffling permutes in place. Preparing it is O(n + nnz); reusing it makes
 * a training pass allocate O(1) whatever the data size.
 */
public final class TrainingData {
  final SparseDataset source;
  final int[] indices;
  final double[] values;
  final int[] start;
  final double[] labels;
  final int[] order;
  final int maxNnz;

  /** The rows validated for the fused rounds, per element type; made on first use. */
  private SparseRows floatRows;

  private SparseRows doubleRows;

  private TrainingData(SparseDataset data) {
    this.source = data;
    int n = data.size();
    this.indices = data.indices();
    this.values = data.values();
    this.start = new int[n + 1];
    this.labels = new double[n];
    this.order = new int[n];
    int m = 0;
    for (int r = 0; r < n; r++) {
      start[r] = data.rowStart(r);
      labels[r] = data.label(r);
      order[r] = r;
      m = Math.max(m, data.nnz(r));
    }
    start[n] = n == 0 ? 0 : data.rowEnd(n - 1);
    this.maxNnz = Math.max(1, m);
  }

  /**
   * The rows as {@link SparseRows} of {@code type}, for fused rounds: validated and converted on
   * first use, then reused (thread-safe: the parallel trainer's workers share them).
   */
  public synchronized SparseRows rows(ElementType type) {
    if (type == ElementType.FLOAT) {
      if (floatRows == null) {
        floatRows = SparseRows.of(start, indices, values, type);
      }
      return floatRows;
    }
    if (doubleRows == null) {
      doubleRows = SparseRows.of(start, indices, values, type);
    }
    return doubleRows;
  }

  /** Prepares {@code data}. */
  public static TrainingData of(SparseDataset data) {
    return new TrainingData(data);
  }

  /** The data set this was prepared from. */
  public SparseDataset dataset() {
    return source;
  }

  /** Number of rows. */
  public int size() {
    return labels.length;
  }
}
