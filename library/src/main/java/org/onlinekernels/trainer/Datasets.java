package org.onlinekernels.trainer;

import java.util.Random;
import org.onlinekernels.data.SparseDataset;

/** Whole-dataset transformations done once before training, never in the hot loop. */
public final class Datasets {
  private Datasets() {}

  /**
   * Rows whose largest magnitude lies in {@code [2^-480, 2^480]} take the plain sum of squares (no
   * square that matters leaves the normal range, the sum of up to 2^31 of them stays finite);
   * others are scaled by that magnitude first.
   */
  private static final double SQUARES_SAFE_LOW = 0x1p-480;

  private static final double SQUARES_SAFE_HIGH = 0x1p480;

  /**
   * Every row scaled to unit Euclidean norm (all-zero rows unchanged), as Streeter and McMahan did
   * with their bag-of-words vectors (section 5.1, footnote 3). The norm is computed without
   * overflow or underflow at any scale: {@code 1e200} and {@code 1e-200} both become 1, {@code
   * (1e160, 1e160)} becomes {@code (0.7071.., 0.7071..)}.
   */
  public static SparseDataset normalizeRows(SparseDataset data) {
    int[] idx = data.indices();
    double[] val = data.values();
    SparseDataset.Builder b = new SparseDataset.Builder().minDimension(data.dimension());
    double[] row = new double[Math.max(1, maxNnz(data))];
    int[] rowIdx = new int[row.length];
    for (int r = 0; r < data.size(); r++) {
      int s = data.rowStart(r);
      int n = data.rowEnd(r) - s;
      System.arraycopy(idx, s, rowIdx, 0, n);
      System.arraycopy(val, s, row, 0, n);
      normalize(row, 0, n);
      b.addRow(data.label(r), rowIdx, row, n);
    }
    return b.build();
  }

  /**
   * Scales the row {@code values[from..from+n)} in place to unit Euclidean norm ({@link
   * #normalizeRows}' rule and bits; an all-zero row stays as it is), e.g. a row of a stream.
   */
  public static void normalize(double[] values, int from, int n) {
    double peak = 0;
    for (int j = 0; j < n; j++) {
      peak = Math.max(peak, Math.abs(values[from + j]));
    }
    if (peak >= SQUARES_SAFE_LOW && peak <= SQUARES_SAFE_HIGH) {
      // Every square that matters is a normal double: the plain formula.
      double n2 = 0;
      for (int j = 0; j < n; j++) {
        n2 += values[from + j] * values[from + j];
      }
      double f = 1 / Math.sqrt(n2);
      for (int j = 0; j < n; j++) {
        values[from + j] *= f;
      }
    } else {
      // The squares would overflow (1e200 -> 0) or underflow (1e-200 left unscaled): scale by
      // the largest magnitude first, so that every term is at most 1 and the largest is 1.
      double n2 = 0;
      for (int j = 0; j < n; j++) {
        double v = peak == 0 ? 0 : values[from + j] / peak;
        n2 += v * v;
      }
      double root = Math.sqrt(n2);
      for (int j = 0; j < n && peak != 0; j++) {
        values[from + j] = values[from + j] / peak / root;
      }
    }
  }

  /**
   * Binary {@code +1/-1} labels: {@code +1} for class {@code positive}, {@code -1} for every other
   * class.
   */
  public static SparseDataset oneVsRest(SparseDataset data, int positive) {
    return map(data, null, r -> data.label(r) == positive ? 1.0 : -1.0);
  }

  /** The rows {@code rows[0..]} of {@code data}, in that order. */
  public static SparseDataset rows(SparseDataset data, int[] rows) {
    return map(data, rows, data::label);
  }

  /**
   * A seeded random split: the first {@code round(fraction * n)} rows of a {@code new Random(seed)}
   * Fisher-Yates permutation, and the rest; used for the data sets that ship without a test part
   * (the data README's 2/3 rule, with Java's generator instead of numpy's).
   */
  public static SparseDataset[] split(SparseDataset data, double fraction, long seed) {
    int n = data.size();
    int[] perm = permutation(n, new Random(seed));
    int m = (int) Math.round(fraction * n);
    int[] a = java.util.Arrays.copyOfRange(perm, 0, m);
    int[] b = java.util.Arrays.copyOfRange(perm, m, n);
    return new SparseDataset[] {rows(data, a), rows(data, b)};
  }

  /** A uniformly random permutation of {@code 0..n-1}. */
  public static int[] permutation(int n, Random rnd) {
    int[] p = new int[n];
    for (int i = 0; i < n; i++) {
      p[i] = i;
    }
    shuffle(p, rnd);
    return p;
  }

  /** Fisher-Yates in place; allocates nothing. */
  public static void shuffle(int[] p, Random rnd) {
    for (int i = p.length - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      int t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
  }

  /**
   * The model a training run on {@code train} needs: dimension {@code d} (the larger of the two
   * files', at least 1), and binary or multiclass with the training file's classes (and the test
   * file's, if it has more).
   *
   * @param d the model's dimension
   * @param multiclass whether the labels are classes (one-vs-rest)
   * @param classes the number of classes when {@code multiclass}, else 1
   */
  public record Shape(int d, boolean multiclass, int classes) {}

  /**
   * The {@link Shape} of a run on {@code train}, evaluated on {@code test} (may be null).
   *
   * @throws IllegalArgumentException if {@code train} has no examples, or {@code test}'s labels do
   *     not fit the training file's kind
   */
  public static Shape shape(SparseDataset train, SparseDataset test) {
    if (train.size() == 0) {
      throw new IllegalArgumentException("the training data has no examples");
    }
    int d = Math.max(1, Math.max(train.dimension(), test == null ? 0 : test.dimension()));
    boolean multi = !train.isBinary();
    int classes =
        multi
            ? Math.max(train.numClasses(), test == null || test.isBinary() ? 0 : test.numClasses())
            : 1;
    if (test != null) {
      Metrics.checkLabels(test, multi, classes, "the test data");
    }
    return new Shape(d, multi, classes);
  }

  /** Largest number of stored entries in one row (0 for an empty data set). */
  public static int maxNnz(SparseDataset data) {
    int m = 0;
    for (int r = 0; r < data.size(); r++) {
      m = Math.max(m, data.nnz(r));
    }
    return m;
  }

  private static SparseDataset map(
      SparseDataset data, int[] rows, java.util.function.IntToDoubleFunction label) {
    int[] idx = data.indices();
    double[] val = data.values();
    SparseDataset.Builder b = new SparseDataset.Builder().minDimension(data.dimension());
    int n = rows == null ? data.size() : rows.length;
    for (int q = 0; q < n; q++) {
      int r = rows == null ? q : rows[q];
      int s = data.rowStart(r);
      int e = data.rowEnd(r);
      b.addRow(
          label.applyAsDouble(r),
          java.util.Arrays.copyOfRange(idx, s, e),
          java.util.Arrays.copyOfRange(val, s, e));
    }
    return b.build();
  }
}
