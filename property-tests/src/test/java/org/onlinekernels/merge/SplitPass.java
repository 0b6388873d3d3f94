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

  /** The merge step: the library's, or a planted fault in a test of the test. */
  interface Merge {
    /** Merges {@code learners} into {@code start}. */
    void apply(AbstractOptimizer start, List<AbstractOptimizer> learners);
  }

  /** The merge under test: {@link AbstractOptimizer#merge}. */
  static final Merge LIBRARY = AbstractOptimizer::merge;

  /**
   * A K-way split pass: the merged model's test loss and weights, and the weights of each of the K
   * learners before the merge.
   */
  record Split(double loss, float[] merged, List<float[]> learners) {}

  /** Test loss of the sequential pass ({@code k = 1}) or of the K-way split pass plus merge. */
  static double testLoss(AlgorithmSpec spec, SparseDataset train, SparseDataset test, int k) {
    return split(spec, train, test, k, LIBRARY).loss();
  }

  /** The K-way split pass, its learners merged by {@code merge}. */
  static Split split(
      AlgorithmSpec spec, SparseDataset train, SparseDataset test, int k, Merge merge) {
    int d = Math.max(train.dimension(), test.dimension());
    ElementType type = ElementType.FLOAT;
    try (Arena arena = Arena.ofConfined()) {
      AbstractOptimizer start = (AbstractOptimizer) spec.create(d, type, arena);
      List<AbstractOptimizer> learners = new ArrayList<>();
      List<float[]> weights = new ArrayList<>();
      int n = train.size();
      for (int j = 0; j < k; j++) {
        AbstractOptimizer l = (AbstractOptimizer) spec.create(d, type, arena);
        run(l, train, (int) ((long) n * j / k), (int) ((long) n * (j + 1) / k), arena);
        learners.add(l);
        weights.add(weights(l, arena));
      }
      merge.apply(start, learners);
      float[] merged = weights(start, arena);
      return new Split(loss(merged, test), merged, weights);
    }
  }

  /** Test loss of a learner that saw only the first of the K parts: the no-parallelism baseline. */
  static double oneShardLoss(AlgorithmSpec spec, SparseDataset train, SparseDataset test, int k) {
    int d = Math.max(train.dimension(), test.dimension());
    try (Arena arena = Arena.ofConfined()) {
      AbstractOptimizer l = (AbstractOptimizer) spec.create(d, ElementType.FLOAT, arena);
      run(l, train, 0, train.size() / k, arena);
      return loss(weights(l, arena), test);
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

  private static float[] weights(AbstractOptimizer o, Arena arena) {
    MemorySegment w = arena.allocate(ValueLayout.JAVA_FLOAT, o.dimension());
    o.readWeights(w);
    return w.toArray(ValueLayout.JAVA_FLOAT);
  }

  private static double loss(float[] w, SparseDataset test) {
    double sum = 0;
    int[] ix = test.indices();
    double[] vx = test.values();
    for (int r = 0; r < test.size(); r++) {
      double yhat = 0;
      for (int j = test.rowStart(r); j < test.rowEnd(r); j++) {
        yhat += w[ix[j]] * vx[j];
      }
      sum += Loss.LOGISTIC.value(test.label(r), yhat);
    }
    return sum / test.size();
  }
}
