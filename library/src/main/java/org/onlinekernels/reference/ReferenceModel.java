package org.onlinekernels.reference;

/**
 * What every reference learner shares: its dimension and the predict -> update pairing. Both
 * predicts reduce the input to its nonzero entries ({@link SparseVec}), so dense and sparse input
 * run one code path and agree bit for bit; an instance becomes pending only once its prediction has
 * succeeded, so a refused predict (DFEG's overflow) leaves nothing for {@code update}.
 */
public abstract class ReferenceModel implements ReferenceLinearModel {
  /** Model dimension: the number of coordinates. */
  protected final int d;

  private SparseVec pending;

  protected ReferenceModel(int d) {
    this.d = SparseVec.checkDimension(d);
  }

  /** {@inheritDoc} */
  @Override
  public final int dimension() {
    return d;
  }

  /** {@inheritDoc} */
  @Override
  public final double predict(double[] x) {
    return begin(SparseVec.ofDense("x", x, d));
  }

  /** {@inheritDoc} */
  @Override
  public final double predictSparse(int[] idx, double[] val, int nnz) {
    return begin(SparseVec.ofSparse("idx", "val", idx, val, nnz, d));
  }

  private double begin(SparseVec x) {
    pending = null;
    double yhat = predictOn(x);
    pending = x;
    return yhat;
  }

  /** Whether a predicted instance waits for its update (a merge refuses such a learner). */
  protected final boolean hasPending() {
    return pending != null;
  }

  /** Drops the pending instance: a merge replaces the state it was predicted on. */
  protected final void clearPending() {
    pending = null;
  }

  /**
   * The algorithm's predict step on the instance's nonzero entries; may throw before changing
   * state.
   */
  protected abstract double predictOn(SparseVec x);

  /**
   * The instance of the last successful predict, for {@code update(g)}; checks {@code g} first.
   *
   * @throws IllegalStateException if no prediction is pending
   */
  protected final SparseVec takePending(double g) {
    SparseVec.checkFinite("g", g);
    if (pending == null) {
      throw new IllegalStateException(
          "update(g) needs a preceding predict(x) or predictSparse(...)");
    }
    SparseVec x = pending;
    pending = null;
    return x;
  }
}
