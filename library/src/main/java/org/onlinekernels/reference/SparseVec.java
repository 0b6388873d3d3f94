package org.onlinekernels.reference;

/**
 * A validated sparse vector holding only the nonzero entries, in increasing index order.
 *
 * <p>Every reference rule (except the ball form of Adaptive OGD) leaves a coordinate with a zero
 * input untouched, so dense and sparse inputs are both reduced to this one form and then run
 * through the same loop: that is what makes dense and sparse results equal bit for bit, and it
 * makes "an explicit 0 equals an absent entry" (ALGORITHMS.md) hold by construction. Zeros are
 * compared with {@code == 0}, so {@code -0.0} is dropped too.
 */
public final class SparseVec {
  /** Indices, strictly increasing. */
  public final int[] idx;

  /** Values. */
  public final double[] val;

  /** Number of entries. */
  public final int nnz;

  private SparseVec(int[] idx, double[] val, int nnz) {
    this.idx = idx;
    this.val = val;
    this.nnz = nnz;
  }

  /** Validates {@code d >= 1} for a constructor. */
  public static int checkDimension(int d) {
    if (d < 1) {
      throw new IllegalArgumentException("dimension d must be >= 1, got " + d);
    }
    return d;
  }

  /** Validates a finite scalar argument. */
  public static double checkFinite(String name, double v) {
    if (!Double.isFinite(v)) {
      throw new IllegalArgumentException(name + " must be finite, got " + v);
    }
    return v;
  }

  /** Validates a curvature {@code H_t}: finite and {@code >= 0}. */
  public static double checkCurvature(String name, double h) {
    if (!(h >= 0) || !Double.isFinite(h)) {
      throw new IllegalArgumentException(
          name + " (curvature H_t) must be finite and >= 0, got " + h);
    }
    return h;
  }

  /** The nonzero entries of a dense vector, after validating its length and values. */
  public static SparseVec ofDense(String name, double[] x, int d) {
    if (x == null) {
      throw new IllegalArgumentException(name + " must not be null");
    }
    if (x.length != d) {
      throw new IllegalArgumentException(
          name + " has length " + x.length + " but the model has dimension " + d);
    }
    int n = 0;
    for (int i = 0; i < d; i++) {
      if (!Double.isFinite(x[i])) {
        throw new IllegalArgumentException(name + "[" + i + "] must be finite, got " + x[i]);
      }
      if (x[i] != 0) n++;
    }
    int[] idx = new int[n];
    double[] val = new double[n];
    int k = 0;
    for (int i = 0; i < d; i++) {
      if (x[i] != 0) {
        idx[k] = i;
        val[k] = x[i];
        k++;
      }
    }
    return new SparseVec(idx, val, n);
  }

  /** A copy of the nonzero entries of a sparse vector, after validating it. */
  public static SparseVec ofSparse(
      String idxName, String valName, int[] idx, double[] val, int nnz, int d) {
    if (idx == null) {
      throw new IllegalArgumentException(idxName + " must not be null");
    }
    if (val == null) {
      throw new IllegalArgumentException(valName + " must not be null");
    }
    if (nnz < 0 || nnz > idx.length || nnz > val.length) {
      throw new IllegalArgumentException(
          "nnz = "
              + nnz
              + " must lie in [0, min("
              + idxName
              + ".length = "
              + idx.length
              + ", "
              + valName
              + ".length = "
              + val.length
              + ")]");
    }
    int n = 0;
    for (int k = 0; k < nnz; k++) {
      if (idx[k] < 0 || idx[k] >= d) {
        throw new IllegalArgumentException(
            idxName + "[" + k + "] = " + idx[k] + " is outside [0, " + d + ")");
      }
      if (k > 0 && idx[k] <= idx[k - 1]) {
        throw new IllegalArgumentException(
            idxName
                + " must be strictly increasing, but "
                + idxName
                + "["
                + (k - 1)
                + "] = "
                + idx[k - 1]
                + " and "
                + idxName
                + "["
                + k
                + "] = "
                + idx[k]);
      }
      if (!Double.isFinite(val[k])) {
        throw new IllegalArgumentException(valName + "[" + k + "] must be finite, got " + val[k]);
      }
      if (val[k] != 0) n++;
    }
    int[] i2 = new int[n];
    double[] v2 = new double[n];
    int j = 0;
    for (int k = 0; k < nnz; k++) {
      if (val[k] != 0) {
        i2[j] = idx[k];
        v2[j] = val[k];
        j++;
      }
    }
    return new SparseVec(i2, v2, n);
  }

  /** {@code sum_k val_k^2}, summed sequentially in index order (so that dense == sparse). */
  public double squaredNorm() {
    double s = 0;
    for (int k = 0; k < nnz; k++) {
      s += val[k] * val[k];
    }
    return s;
  }

  /** {@code sum_k val_k * w[idx_k]}, summed sequentially in index order. */
  public double dot(double[] w) {
    double s = 0;
    for (int k = 0; k < nnz; k++) {
      s += val[k] * w[idx[k]];
    }
    return s;
  }

  /** This vector scaled by {@code g}: entries {@code g * val_k}, dropping products that are 0. */
  public SparseVec times(double g) {
    int n = 0;
    for (int k = 0; k < nnz; k++) {
      if (g * val[k] != 0) n++;
    }
    int[] i2 = new int[n];
    double[] v2 = new double[n];
    int j = 0;
    for (int k = 0; k < nnz; k++) {
      double p = g * val[k];
      if (p != 0) {
        i2[j] = idx[k];
        v2[j] = p;
        j++;
      }
    }
    return new SparseVec(i2, v2, n);
  }

  /** A dense array of length {@code d} with these entries and +0.0 elsewhere. */
  public double[] toDense(int d) {
    double[] x = new double[d];
    for (int k = 0; k < nnz; k++) {
      x[idx[k]] = val[k];
    }
    return x;
  }
}
