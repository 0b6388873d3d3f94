package org.onlinekernels.bench.workload;

import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.LinearModelOptimizer;

/**
 * {@code rounds-buffers}: the fused round on the caller's own buffers ({@code
 * LinearModelOptimizer.round(indices, values, nnz, y, loss, losses, at)}), one call per row and
 * output on the row's segments, as a user with a row format of their own calls it; the progressive
 * loss comes from the round's loss slot, computed with the derivative (one {@code exp}, as {@link
 * RoundsLoop}'s block call). Issue #21's target: at least 0.9x {@code rounds}.
 */
public final class BufferRoundLoop extends SegmentRowLoop {
  /** The round's loss slot. */
  private final double[] loss = new double[1];

  /** Row segments made once; the optimizers by {@link #reset}. */
  public BufferRoundLoop(Workload wl, String rule, ElementType type) {
    super(wl, rule, type);
  }

  @Override
  double step(
      LinearModelOptimizer o, MemorySegment indices, MemorySegment values, int nnz, double y) {
    o.round(indices, values, nnz, y, Loss.LOGISTIC, loss, 0);
    return loss[0];
  }
}
