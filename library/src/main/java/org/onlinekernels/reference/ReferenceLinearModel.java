package org.onlinekernels.reference;

/**
 * The linear-model form of ALGORITHMS.md: predict {@code x -> yhat = <w, x>}, then {@code
 * update(g)} with {@code g = d loss / d yhat}; the gradient with respect to {@code w} is {@code g *
 * x}.
 *
 * <p>Instances are validated at entry: a wrong length, a non-finite value, or a sparse index list
 * that is not strictly increasing inside {@code [0, d)} is refused with an {@link
 * IllegalArgumentException} naming the argument, before any state changes.
 */
public interface ReferenceLinearModel {
  /**
   * The number of coordinates {@code d}.
   *
   * @return {@code d >= 1}
   */
  int dimension();

  /**
   * Predicts on a dense instance and remembers it for the next {@link #update(double)}.
   *
   * @param x the instance; {@code x.length} must equal {@link #dimension()}, values finite
   * @return {@code yhat_t}
   */
  double predict(double[] x);

  /**
   * Predicts on a sparse instance and remembers it for the next {@link #update(double)}. Absent
   * coordinates are 0; an explicit 0 means the same as an absent coordinate.
   *
   * @param idx strictly increasing indices in {@code [0, d)}; only the first {@code nnz} are read
   * @param val the values at those indices (finite); only the first {@code nnz} are read
   * @param nnz the number of entries, {@code 0 <= nnz <= min(idx.length, val.length)}
   * @return {@code yhat_t}
   */
  double predictSparse(int[] idx, double[] val, int nnz);

  /**
   * Applies the update for the instance of the last prediction. Each prediction takes exactly one
   * update: a second update without a new prediction is refused.
   *
   * @param g {@code d loss / d yhat} at the last prediction, finite
   * @throws IllegalStateException if no prediction is pending
   */
  void update(double g);

  /**
   * The current weights, as a fresh copy. The read-out is the one ALGORITHMS.md fixes per algorithm
   * (ScInOL: the predict formulas with {@code x = 0}; DFEG: the current {@code H}).
   *
   * @return a new array of length {@link #dimension()}
   */
  double[] weights();
}
