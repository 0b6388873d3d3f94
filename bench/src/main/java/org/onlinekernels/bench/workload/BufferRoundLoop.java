package org.onlinekernels.bench.workload;

import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.LinearModelOptimizer;

/**
 * {@code rounds-buffers}: the fused round on the caller's own buffers ({@code
 * LinearModelOptimizer.round(indices, values, nnz, y, loss)}), one call per row and output on the
 * row's segments, as a user with a row format of their own calls it; the progressive loss is {@code
 * Loss.LOGISTIC.value} of the returned {@code yhat} (the round returns the score only, so this
 * takes a second {@code exp} that {@link RoundsLoop}'s block call shares with the derivative).
 * Issue #21's target: at least 0.9x {@code rounds}.
 */
public final class BufferRoundLoop extends SegmentRowLoop {
  /** Row segments made once; the optimizers by {@link #reset}. */
  public BufferRoundLoop(Workload wl, String rule, ElementType type) {
    super(wl, rule, type);
  }

  @Override
  double step(
      LinearModelOptimizer o, MemorySegment indices, MemorySegment values, int nnz, double y) {
    return Loss.LOGISTIC.value(y, o.round(indices, values, nnz, y, Loss.LOGISTIC));
  }
}
