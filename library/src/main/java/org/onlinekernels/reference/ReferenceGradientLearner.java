package org.onlinekernels.reference;

/**
 * The gradient form (online convex optimisation) of ALGORITHMS.md: the caller passes the gradient
 * {@code g_t} of round {@code t}, dense or sparse.
 *
 * <p>Gradients are validated at entry like the instances of {@link ReferenceLinearModel}.
 */
public interface ReferenceGradientLearner {
  /**
   * The number of coordinates {@code d}.
   *
   * @return {@code d >= 1}
   */
  int dimension();

  /**
   * One round with a dense gradient.
   *
   * @param g the gradient; {@code g.length} must equal {@link #dimension()}, values finite
   */
  void step(double[] g);

  /**
   * One round with a sparse gradient: absent coordinates are 0, and an explicit 0 means the same.
   *
   * @param idx strictly increasing indices in {@code [0, d)}; only the first {@code nnz} are read
   * @param val the values at those indices (finite); only the first {@code nnz} are read
   * @param nnz the number of entries, {@code 0 <= nnz <= min(idx.length, val.length)}
   */
  void stepSparse(int[] idx, double[] val, int nnz);

  /**
   * The current weights, as a fresh copy.
   *
   * @return a new array of length {@link #dimension()}
   */
  double[] weights();
}
