package org.onlinekernels.trainer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.LinearModelOptimizer;

/**
 * The sequential trainer's round on a dense row: the row is packed once into a {@code d}-element
 * segment, all {@code K} planar optimizers predict on it, the example is scored (progressive
 * validation: before any update on it), every optimizer updates, and the segment goes back to zeros
 * in O(nnz). Keeps the progressive sums of the epoch in progress; allocates nothing per row.
 */
final class DenseRound {
  private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;

  private final MemorySegment x;
  private final boolean isFloat;
  private final LinearModelOptimizer[] opt;
  private final Loss loss;
  private final boolean multiclass;
  private final double[] yhat;
  private double lossSum;
  private double errSum;

  /**
   * A round for {@code opt.length} outputs of dimension {@code d} in {@code type}, its segment in
   * {@code arena}; {@code opt}'s elements are read at every row (a handover replaces them).
   */
  DenseRound(
      Arena arena,
      int d,
      ElementType type,
      LinearModelOptimizer[] opt,
      Loss loss,
      boolean multiclass) {
    this.x = arena.allocate((long) d * type.bytes(), 64);
    this.isFloat = type == ElementType.FLOAT;
    this.opt = opt;
    this.loss = loss;
    this.multiclass = multiclass;
    this.yhat = new double[opt.length];
  }

  /**
   * Trains on row {@code r} of {@code data}, at position {@code q} (0-based) of epoch {@code e}
   * (1-based), both for a refused update's message and the sink ({@code null}: none).
   */
  void row(TrainingData data, int r, int e, int q, OnlineTrainer.ProgressiveSink sink) {
    int s = data.start[r];
    row(data.indices, data.values, s, data.start[r + 1] - s, data.labels[r], r, e, q, sink);
  }

  /**
   * Trains on the row of {@code nnz} entries at {@code s} of {@code idx} and {@code val}, label
   * {@code y}, named {@code id} to the sink, at position {@code q} (0-based) of epoch {@code e}.
   */
  void row(
      int[] idx,
      double[] val,
      int s,
      int nnz,
      double y,
      long id,
      int e,
      long q,
      OnlineTrainer.ProgressiveSink sink) {
    final int k = opt.length;
    for (int j = 0; j < nnz; j++) {
      if (isFloat) {
        x.setAtIndex(F, idx[s + j], (float) val[s + j]);
      } else {
        x.setAtIndex(D, idx[s + j], val[s + j]);
      }
    }
    for (int c = 0; c < k; c++) {
      yhat[c] = opt[c].predict(x);
    }
    lossSum += Metrics.loss(loss, multiclass, y, yhat, k);
    errSum += Metrics.error(multiclass, y, yhat, k);
    try {
      for (int c = 0; c < k; c++) {
        double yc = multiclass ? (c == y ? 1.0 : -1.0) : y;
        opt[c].update(loss.derivative(yc, yhat[c]));
      }
    } catch (IllegalArgumentException | IllegalStateException ex) {
      throw new OnlineTrainer.TrainingException(e, q + 1, ex);
    }
    if (sink != null) {
      sink.accept(e, id, y, yhat, k);
    }
    for (int j = 0; j < nnz; j++) {
      if (isFloat) {
        x.setAtIndex(F, idx[s + j], 0f);
      } else {
        x.setAtIndex(D, idx[s + j], 0.0);
      }
    }
  }

  /** The progressive metrics of the epoch's {@code n} rows; the next epoch's sums start at 0. */
  Metrics endEpoch(long n) {
    Metrics m = new Metrics(n, n == 0 ? Double.NaN : lossSum / n, n == 0 ? Double.NaN : errSum / n);
    lossSum = 0;
    errSum = 0;
    return m;
  }
}
