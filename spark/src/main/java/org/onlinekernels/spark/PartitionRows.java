package org.onlinekernels.spark;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Iterator;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.onlinekernels.data.SparseDataset;
import scala.Tuple2;

/**
 * The rows of one partition packed into arrays (labels as read), kept in memory across the rounds
 * and epochs of a job: one object per partition instead of one per row.
 */
final class PartitionRows implements Serializable {
  private static final long serialVersionUID = 1L;
  final int partition;
  final double[] labels;

  /** Row {@code r} is {@code [start[r], start[r + 1])} of {@link #indices} and {@link #values}. */
  final int[] start;

  final int[] indices;
  final double[] values;

  /** The largest vector size among the rows, and the most nonzeros of a row. */
  final int size;

  final int maxNnz;

  private PartitionRows(
      int partition,
      double[] labels,
      int[] start,
      int[] indices,
      double[] values,
      int size,
      int maxNnz) {
    this.partition = partition;
    this.labels = labels;
    this.start = start;
    this.indices = indices;
    this.values = values;
    this.size = size;
    this.maxNnz = maxNnz;
  }

  /** Packs the rows {@code (position, row)} in the iterator's order. */
  static PartitionRows of(int partition, Iterator<Tuple2<Long, LabeledRow>> rows) {
    double[] labels = new double[16];
    int[] start = new int[17];
    int[] idx = new int[64];
    double[] val = new double[64];
    int n = 0;
    int nnz = 0;
    int size = 0;
    int maxNnz = 0;
    while (rows.hasNext()) {
      LabeledRow r = rows.next()._2();
      int k = r.indices().length;
      if (n == labels.length) {
        labels = Arrays.copyOf(labels, n * 2);
        start = Arrays.copyOf(start, n * 2 + 1);
      }
      if (nnz + k > idx.length) {
        int cap = Math.max(nnz + k, idx.length * 2);
        idx = Arrays.copyOf(idx, cap);
        val = Arrays.copyOf(val, cap);
      }
      System.arraycopy(r.indices(), 0, idx, nnz, k);
      System.arraycopy(r.values(), 0, val, nnz, k);
      labels[n] = r.label();
      nnz += k;
      start[++n] = nnz;
      size = Math.max(size, r.size());
      maxNnz = Math.max(maxNnz, k);
    }
    return new PartitionRows(
        partition,
        Arrays.copyOf(labels, n),
        Arrays.copyOf(start, n + 1),
        Arrays.copyOf(idx, nnz),
        Arrays.copyOf(val, nnz),
        size,
        maxNnz);
  }

  /**
   * One row as it travels through the shuffle: the label as read, the features' size and entries.
   */
  record LabeledRow(double label, int size, int[] indices, double[] values)
      implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Row {@code (label, features)}. */
    static LabeledRow of(Row r) {
      if (r.isNullAt(0) || r.isNullAt(1)) {
        throw new IllegalArgumentException("a row has a null label or features: " + r);
      }
      SparseVector v = ((Vector) r.get(1)).toSparse();
      return new LabeledRow(r.getDouble(0), v.size(), v.indices(), v.values());
    }
  }

  int size() {
    return labels.length;
  }

  /**
   * Rows {@code order[from..to)} as a data set of dimension {@code d}, labels mapped to the
   * trainer's (binary {@code +1/-1}, or classes {@code 0..K-1}).
   */
  SparseDataset slice(int[] order, int from, int to, int d, Labels scheme) {
    SparseDataset.Builder b = new SparseDataset.Builder().minDimension(d);
    int[] ix = new int[maxNnz];
    double[] vx = new double[maxNnz];
    for (int q = from; q < to; q++) {
      int r = order[q];
      int lo = start[r];
      int count = start[r + 1] - lo;
      System.arraycopy(indices, lo, ix, 0, count);
      System.arraycopy(values, lo, vx, 0, count);
      b.addRow(scheme.target(labels[r]), ix, vx, count);
    }
    return b.build();
  }
}
