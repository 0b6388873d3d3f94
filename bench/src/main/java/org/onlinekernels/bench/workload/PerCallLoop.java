package org.onlinekernels.bench.workload;

import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.LinearModelOptimizer;

/**
 * {@code per-call}: the public per-call path as a user with rows of their own calls it, per row and
 * output {@code predictSparse} on the row's segments, the logistic loss and its derivative ({@code
 * Loss.derivativeAndValue}, one {@code exp} for both), then {@code update}. Issue #21's target: at
 * least 0.7x the hand loop.
 */
public final class PerCallLoop extends SegmentRowLoop {
  private final double[] loss = new double[1];

  /** Row segments made once; the optimizers by {@link #reset}. */
  public PerCallLoop(Workload wl, String rule, ElementType type) {
    super(wl, rule, type);
  }

  @Override
  double step(
      LinearModelOptimizer o, MemorySegment indices, MemorySegment values, int nnz, double y) {
    double yhat = o.predictSparse(indices, values, nnz);
    o.update(Loss.LOGISTIC.derivativeAndValue(y, yhat, loss, 0));
    return loss[0];
  }
}
