package org.onlinekernels.optimizer.parallel;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.params.Box;
import org.onlinekernels.params.GlobalAdaGradParams;
import org.onlinekernels.rules.globaladagrad.GlobalAdaGradOptimizer;

/**
 * A view whose thread starts late: the other view has trained many blocks on the shared weights
 * (and synced its scalars) before this one runs its first. It must start from the shared scalars,
 * not from their values at the start: global AdaGrad's sum of squares still at 0 against the
 * near-zero gradient of a confident prediction gives a rate beyond the float range, and the run is
 * refused (seen on a loaded machine in SharedStateTrainerTest with three threads).
 */
class SharedStateLateViewTest {
  private static final int D = 8;

  @Test
  void aLateViewStartsFromTheSharedScalars() {
    int n = 4096;
    Random r = new Random(3);
    int[] start = new int[n + 1];
    int[] idx = new int[n * D];
    double[] val = new double[n * D];
    double[] y = new double[n];
    for (int i = 0; i < n; i++) {
      start[i + 1] = start[i] + D;
      double s = 0;
      for (int j = 0; j < D; j++) {
        idx[i * D + j] = j;
        val[i * D + j] = r.nextGaussian() * 100;
        s += j < 2 ? val[i * D + j] : 0;
      }
      y[i] = s > 0 ? 1 : -1;
    }
    SparseRows rows = SparseRows.of(start, idx, val, ElementType.FLOAT);
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    int block = 256;
    double[] yhat = new double[block];
    double[] losses = new double[block];
    try (SharedState s =
        SharedState.create(
            arena ->
                new GlobalAdaGradOptimizer(
                    D, ElementType.FLOAT, GlobalAdaGradParams.of(Box.symmetric(2)), arena, null),
            2)) {
      s.begin();
      // View 0 alone trains every block: its weights become confident on these separable rows.
      for (int q = 0; q < n; q += block) {
        s.rounds(0, rows, order, q, q + block, slice(y, q, block), Loss.LOGISTIC, yhat, losses);
      }
      // View 1's first blocks, on the same rows.
      assertDoesNotThrow(
          () -> {
            for (int q = 0; q < n; q += block) {
              s.rounds(
                  1, rows, order, q, q + block, slice(y, q, block), Loss.LOGISTIC, yhat, losses);
            }
          });
      float[] w = new float[D];
      s.owner().readWeights(MemorySegment.ofArray(w));
      for (float x : w) {
        assertTrue(Float.isFinite(x), "weight " + x);
      }
    }
  }

  private static double[] slice(double[] y, int from, int len) {
    double[] out = new double[len];
    System.arraycopy(y, from, out, 0, len);
    return out;
  }
}
