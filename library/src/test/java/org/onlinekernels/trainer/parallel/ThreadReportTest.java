package org.onlinekernels.trainer.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.onlinekernels.data.HashedZipfStream;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.BlockLoop;
import org.onlinekernels.trainer.ThreadReport;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.TrainingMode;
import org.onlinekernels.trainer.handover.KernelHandover;

/**
 * The thread report ({@link ThreadReport}) adds up what the workers did, and its counters cannot
 * pass cache lines between the cores: each worker's slots lie on lines of their own.
 */
class ThreadReportTest {
  private static final SparseDataset ROWS =
      new HashedZipfStream(1 << 14, 10, 1.1, 1).rows(5_000, 2);

  @Test
  void eachWorkersSlotsLieOnCacheLinesOfTheirOwn() {
    for (int t : new int[] {1, 2, 3, 4, 7, 16}) {
      WorkerClocks c = new WorkerClocks(t);
      // 128 bytes = two 64-byte lines (adjacent-line prefetch) between any two workers' slots,
      // and between the first or last worker's and the array's ends (another object's fields).
      assertTrue(WorkerClocks.STRIDE * Long.BYTES >= 128);
      assertTrue(WorkerClocks.SLOTS <= WorkerClocks.STRIDE);
      for (int j = 0; j < t; j++) {
        int first = WorkerClocks.at(j, 0);
        int last = WorkerClocks.at(j, WorkerClocks.STRIDE - 1);
        assertTrue(first >= WorkerClocks.STRIDE, "worker " + j + " too close to the array's start");
        assertTrue(
            c.slots().length - 1 - last >= WorkerClocks.STRIDE,
            "worker " + j + " too close to the array's end");
        if (j > 0) {
          assertTrue(first - WorkerClocks.at(j - 1, 0) >= WorkerClocks.STRIDE);
        }
      }
    }
  }

  @Test
  void sharedStateReportAddsUpTheRowsBlocksAndFits() {
    TrainerConfig c =
        TrainerConfig.of(AlgorithmSpec.of("scinol2")).withShuffle(false, 1).withEpochs(3);
    TrainResult r = ParallelTraining.train(c, 3, TrainingMode.SHARED, 0, ROWS, null);
    ThreadReport t = r.threadReport();
    assertNotNull(t);
    assertEquals(1, t.fits());
    assertEquals(3, t.workers().size());
    long rows = 0;
    long blocks = 0;
    for (ThreadReport.Worker w : t.workers()) {
      rows += w.rows();
      blocks += w.blocks();
      assertTrue(w.waitSeconds() <= w.wallSeconds() + 1e-3, w.toString());
      assertTrue(w.wallSeconds() <= t.wallSeconds() + 1e-3, w.toString());
    }
    assertEquals(3L * ROWS.size(), rows);
    assertEquals(3L * ((ROWS.size() + BlockLoop.BLOCK - 1) / BlockLoop.BLOCK), blocks);
    // One worker trained the fit's first block alone.
    assertEquals(1, t.workers().stream().filter(w -> w.aloneSeconds() > 0).count());
  }

  @Test
  void mixingReportCountsEachRoundSliceAndTheHandover() {
    TrainerConfig c =
        TrainerConfig.of(AlgorithmSpec.of("scinol2")).withShuffle(false, 1).withEpochs(2);
    try (ParallelTrainer p =
        new ParallelTrainer(
            c,
            2,
            1_000,
            ROWS.dimension(),
            false,
            1,
            org.onlinekernels.trainer.Datasets.maxNnz(ROWS),
            KernelHandover.after(2_500, KernelProvider.get()))) {
      p.fit(ROWS);
      p.fit(ROWS);
      ThreadReport t = p.threadReport();
      assertEquals(2, t.fits());
      for (ThreadReport.Worker w : t.workers()) {
        assertEquals(2L * 2 * ROWS.size() / 2, w.rows());
        assertEquals(2L * 2 * ROWS.size() / 1_000, w.blocks());
        // The first round boundary at or after 2,500 examples.
        assertEquals(3_000, w.handedOverAt());
      }
      assertTrue(t.workers().get(0).aloneSeconds() > 0);
      assertEquals(0, t.workers().get(1).aloneSeconds());
    }
  }
}
