package org.onlinekernels.reference;

/**
 * A reference learner whose weight is a function of its own coordinate's state and whose update
 * reads the weights the round played, in both forms: the linear model (the weights of the predict)
 * and the gradient form (the weights before the step). A rule gives the weight formula and the
 * update; the bookkeeping of the played weights is here once.
 */
public abstract class ReferenceCoordinateLearner extends ReferenceModel
    implements ReferenceGradientLearner {
  private double[] pendingW;

  /**
   * @param d number of coordinates, {@code >= 1}
   */
  protected ReferenceCoordinateLearner(int d) {
    super(d);
  }

  /** Coordinate {@code i}'s weight on the current state. */
  protected abstract double weight(int i);

  /**
   * The update of the coordinates of {@code x} with gradient scale {@code g}.
   *
   * @param ws the weights played at {@code x}'s entries, in entry order
   */
  protected abstract void apply(SparseVec x, double g, double[] ws);

  @Override
  protected final double predictOn(SparseVec x) {
    double[] ws = new double[x.nnz];
    double yhat = 0;
    for (int k = 0; k < x.nnz; k++) {
      ws[k] = weight(x.idx[k]);
      yhat += x.val[k] * ws[k];
    }
    pendingW = ws;
    return yhat;
  }

  /** {@inheritDoc} */
  @Override
  public final void update(double g) {
    SparseVec x = takePending(g);
    apply(x, g, pendingW);
    pendingW = null;
  }

  /** {@inheritDoc} */
  @Override
  public final void step(double[] g) {
    stepOn(SparseVec.ofDense("g", g, d));
  }

  /** {@inheritDoc} */
  @Override
  public final void stepSparse(int[] idx, double[] val, int nnz) {
    stepOn(SparseVec.ofSparse("idx", "val", idx, val, nnz, d));
  }

  /** A gradient-form round: the weights played are the current ones. */
  private void stepOn(SparseVec g) {
    clearPending();
    double[] ws = new double[g.nnz];
    for (int k = 0; k < g.nnz; k++) {
      ws[k] = weight(g.idx[k]);
    }
    apply(g, 1.0, ws);
  }

  /** The weight formula on the current state, every coordinate. */
  @Override
  public double[] weights() {
    double[] w = new double[d];
    for (int i = 0; i < d; i++) {
      w[i] = weight(i);
    }
    return w;
  }
}
