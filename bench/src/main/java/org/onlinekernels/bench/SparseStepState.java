package org.onlinekernels.bench;

import org.onlinekernels.optimizer.GradientOptimizer;

/**
 * Sparse twin of {@link StepState}: {@code stepSparse} on the next pooled gradient, in {@link
 * SparseRoundState}'s set-up, reset and checks.
 */
public abstract class SparseStepState extends SparseRoundState {
  /** One sparse step. */
  public void step() {
    round();
  }

  /** A gradient step on pooled vector {@code k} (the label is not used). */
  @Override
  protected double call(int k, double y) {
    ((GradientOptimizer) opt).stepSparse(pool.idx[k], pool.val[k], nnz);
    return 0;
  }
}
