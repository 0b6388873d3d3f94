package org.onlinekernels.reference;

/**
 * A reference learner that stores its weights and moves them by gradient steps, in both forms: the
 * linear model predicts {@code <x, w>} and steps on {@code g x}; the gradient form steps on the
 * gradient given. A rule gives the step; the two forms' plumbing is here once.
 */
public abstract class ReferenceStoredWeightsLearner extends ReferenceModel
    implements ReferenceGradientLearner {
  /** The weights, LIVE: the rule's constructor sets their start, its step moves them. */
  protected final double[] w;

  /**
   * @param d number of coordinates, {@code >= 1}
   */
  protected ReferenceStoredWeightsLearner(int d) {
    super(d);
    this.w = new double[d];
  }

  /** One round's step on the nonzero entries of gradient {@code g}. */
  protected abstract void apply(SparseVec g);

  /** {@inheritDoc} */
  @Override
  public final void step(double[] g) {
    apply(SparseVec.ofDense("g", g, d));
  }

  /** {@inheritDoc} */
  @Override
  public final void stepSparse(int[] idx, double[] val, int nnz) {
    apply(SparseVec.ofSparse("idx", "val", idx, val, nnz, d));
  }

  @Override
  protected final double predictOn(SparseVec x) {
    return x.dot(w);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The gradient with respect to {@code w} is {@code g * x_i}; products that are 0 are skipped
   * like zero gradients.
   */
  @Override
  public final void update(double g) {
    SparseVec x = takePending(g);
    apply(x.times(g));
  }

  /** {@inheritDoc} */
  @Override
  public final double[] weights() {
    return w.clone();
  }
}
