package org.onlinekernels.reference;

import java.util.List;
import java.util.Map;

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

  /**
   * The state buffers, live (writing them sets the state), under the names the rule's optimizer
   * gives them ({@code AbstractOptimizer.state()}): what the suites compare, load and merge without
   * naming the rule.
   */
  public abstract Map<String, double[]> buffers();

  /**
   * The scalar state under the optimizer's names ({@code AbstractOptimizer.scalarState()}); none by
   * default.
   */
  public Map<String, Double> scalars() {
    return Map.of();
  }

  /**
   * Sets scalar {@code name} of {@link #scalars()}.
   *
   * @throws IllegalArgumentException for a name that is not one of them
   */
  public void setScalar(String name, double value) {
    throw new IllegalArgumentException(getClass().getSimpleName() + " has no scalar " + name);
  }

  /**
   * Merges learners of this class that started from this learner's state (docs/MERGING.md), as the
   * rule's own {@code merge} does.
   *
   * @throws ClassCastException for a learner of another class
   */
  public abstract void mergeLearners(List<? extends ReferenceModel> learners);

  /** {@code learners} as a list of {@code type}, each checked. */
  protected static <T extends ReferenceModel> List<T> learnersOf(
      Class<T> type, List<? extends ReferenceModel> learners) {
    return learners.stream().<T>map(type::cast).toList();
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
