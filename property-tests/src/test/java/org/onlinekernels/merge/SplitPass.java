package org.onlinekernels.merge;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.trainer.AlgorithmSpec;

/**
 * One pass of an algorithm over a binary training set, sequentially or split into K contiguous
 * parts learned from the initial state and merged once (one round of parameter mixing); the result
 * is the mean logistic loss of the final weights on a test set.
 */
final class SplitPass {
  private SplitPass() {}

  /** Test loss of the sequential pass ({@code k = 1}) or of the K-way split pass plus merge. */
  static double testLoss(AlgorithmSpec spec, SparseDataset train, SparseDataset test, int k) {
    int d = Math.max(train.dimension(), test.dimension());
    ElementType type = ElementType.FLOAT;
    try (Arena arena = Arena.ofConfined()) {
      AbstractOptimizer start = (AbstractOptimizer) spec.create(d, type, arena);
      List<AbstractOptimizer> learners = new ArrayList<>();
      int n = train.size();
      for (int j = 0; j < k; j++) {
        AbstractOptimizer l = (AbstractOptimizer) spec.create(d, type, arena);
        run(l, train, (int) ((long) n * j / k), (int) ((long) n * (j + 1) / k), arena);
        learners.add(l);
      }
      start.merge(learners);
      return loss(start, test, arena);
    }
  }

  /** Test loss of a learner that saw only the first of the K parts: the no-parallelism baseline. */
  static double oneShardLoss(AlgorithmSpec spec, SparseDataset train, SparseDataset test, int k) {
    int d = Math.max(train.dimension(), test.dimension());
    try (Arena arena = Arena.ofConfined()) {
      AbstractOptimizer l = (AbstractOptimizer) spec.create(d, ElementType.FLOAT, arena);
      run(l, train, 0, train.size() / k, arena);
      return loss(l, test, arena);
    }
  }

  private static void run(AbstractOptimizer o, SparseDataset data, int from, int to, Arena arena) {
    int m = 1;
    for (int r = from; r < to; r++) {
      m = Math.max(m, data.nnz(r));
    }
    MemorySegment idx = arena.allocate(ValueLayout.JAVA_INT, m);
    MemorySegment val = arena.allocate(ValueLayout.JAVA_FLOAT, m);
    int[] ix = data.indices();
    double[] vx = data.values();
    for (int r = from; r < to; r++) {
      int nnz = fill(data, ix, vx, r, idx, val);
      double y = data.label(r);
      double yhat = o.predictSparse(idx, val, nnz);
      o.update(Loss.LOGISTIC.derivative(y, yhat));
    }
  }

  private static int fill(
      SparseDataset data, int[] ix, double[] vx, int r, MemorySegment idx, MemorySegment val) {
    int s = data.rowStart(r);
    int nnz = data.rowEnd(r) - s;
    for (int j = 0; j < nnz; j++) {
      idx.setAtIndex(ValueLayout.JAVA_INT, j, ix[s + j]);
      val.setAtIndex(ValueLayout.JAVA_FLOAT, j, (float) vx[s + j]);
    }
    return nnz;
  }

  private static double loss(AbstractOptimizer o, SparseDataset test, Arena arena) {
    int d = o.dimension();
    MemorySegment w = arena.allocate(ValueLayout.JAVA_FLOAT, d);
    o.readWeights(w);
    double sum = 0;
    int[] ix = test.indices();
    double[] vx = test.values();
    for (int r = 0; r < test.size(); r++) {
      double yhat = 0;
      for (int j = test.rowStart(r); j < test.rowEnd(r); j++) {
        yhat += w.getAtIndex(ValueLayout.JAVA_FLOAT, ix[j]) * vx[j];
      }
      sum += Loss.LOGISTIC.value(test.label(r), yhat);
    }
    return sum / test.size();
  }
}
