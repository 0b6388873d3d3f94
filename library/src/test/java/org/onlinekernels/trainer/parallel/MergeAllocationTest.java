package org.onlinekernels.trainer.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.data.SyntheticScInOL;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * The deterministic mode's merge allocates nothing in the steady state: the merger is kept across
 * rounds (its buffers sized once by the thread count and the model), so after a warm-up fit every
 * worker's part of every merge (collecting and placing the marks, scanning its share, thread 0's
 * preparation, the check, the write, the scalars) allocates no byte. Measured per worker with
 * {@code ThreadMXBean.getCurrentThreadAllocatedBytes} on the worker's own thread, at the start and
 * end of its part of each merge ({@link ParallelTrainer.MergeWatch}); a single allocation per merge
 * (16 bytes or more) on any worker fails.
 */
class MergeAllocationTest {
  private static final SparseDataset TRAIN = SyntheticScInOL.generate(3000, 1);

  /** Examples per round: 30 merges per epoch of the 3,000 rows. */
  private static final int EVERY = 100;

  @ParameterizedTest
  @CsvSource({"scinol2, 2", "adagrad, 2", "scinol2, 3", "adagrad, 4"})
  void aMergeAllocatesNothingAfterWarmUp(String algorithm, int threads) {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of(algorithm)).withEpochs(10);
    try (ParallelTrainer t =
        new ParallelTrainer(
            c, threads, EVERY, TRAIN.dimension(), false, 2, Datasets.maxNnz(TRAIN))) {
      t.fit(TRAIN); // warm-up: the JIT, the handover, the kept merges made again after it
      long[] start = new long[threads];
      long[] bytes = new long[threads];
      long[] merges = new long[threads];
      t.watch(
          (j, begins) -> {
            long now = mx.getCurrentThreadAllocatedBytes();
            if (begins) {
              start[j] = now;
            } else {
              bytes[j] += now - start[j];
              merges[j]++;
            }
          });
      t.fit(TRAIN);
      for (int j = 0; j < threads; j++) {
        String what = algorithm + " T=" + threads + " worker " + j;
        assertEquals(300, merges[j], what + ": merges watched");
        assertTrue(
            bytes[j] < 16 * merges[j] / 2,
            what + ": " + bytes[j] + " bytes over " + merges[j] + " merges");
      }
    }
  }
}
