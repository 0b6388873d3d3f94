package org.onlinekernels.merge;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.rules.aogd.AdaptiveOgdOptimizer;

/**
 * A merge case of the merge suites: a start state from a warm-up stream, then K learners copied
 * from it, each trained on its own stream (about one in five on none), with sparse inputs of mixed
 * scales and random labels.
 */
final class MergeScenario implements AutoCloseable {

  final AbstractOptimizer start;
  final List<AbstractOptimizer> learners = new ArrayList<>();
  private final Arena arena = Arena.ofConfined();
  private final MemorySegment idx;
  private final MemorySegment val;
  private final ElementType type;
  private final Random rnd;
  private final int d;

  MergeScenario(MergeAlgorithm algo, ElementType type, int d, long seed, int k) {
    this.rnd = new Random(seed);
    this.d = d;
    this.type = algo.elementType(type);
    this.idx = arena.allocate(ValueLayout.JAVA_INT, d);
    this.val = arena.allocate((long) d * 8);
    start = algo.create(d, type);
    run(start, rnd.nextInt(30));
    for (int j = 0; j < k; j++) {
      AbstractOptimizer l = algo.create(d, type);
      l.copyStateFrom(start);
      // About one learner in five sees nothing.
      run(l, rnd.nextInt(5) == 0 ? 0 : 1 + rnd.nextInt(60));
      learners.add(l);
    }
  }

  private void run(AbstractOptimizer o, int n) {
    double scale = Math.scalb(1.0, rnd.nextInt(9) - 4);
    for (int t = 0; t < n; t++) {
      int nnz = 0;
      double density = rnd.nextDouble();
      for (int i = 0; i < d; i++) {
        if (rnd.nextDouble() < density) {
          double v = scale * (rnd.nextDouble() * 2 - 1) * (rnd.nextInt(4) == 0 ? 8 : 1);
          idx.setAtIndex(ValueLayout.JAVA_INT, nnz, i);
          if (type == ElementType.FLOAT) {
            val.setAtIndex(ValueLayout.JAVA_FLOAT, nnz, (float) v);
          } else {
            val.setAtIndex(ValueLayout.JAVA_DOUBLE, nnz, v);
          }
          nnz++;
        }
      }
      double y = rnd.nextBoolean() ? 1 : -1;
      double yhat = o.predictSparse(idx, val, nnz);
      double g = Loss.LOGISTIC.derivative(y, yhat);
      if (o instanceof AdaptiveOgdOptimizer a && rnd.nextInt(3) == 0) {
        a.update(g, 0.05);
      } else {
        o.update(g);
      }
    }
  }

  @Override
  public void close() {
    start.close();
    learners.forEach(AbstractOptimizer::close);
    arena.close();
  }
}
