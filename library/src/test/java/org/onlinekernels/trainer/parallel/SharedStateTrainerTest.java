package org.onlinekernels.trainer.parallel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.data.HashedZipfStream;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.checkpoint.Checkpoint;
import org.onlinekernels.optimizer.parallel.SharedState;
import org.onlinekernels.rules.Rules;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.TrainingMode;
import org.onlinekernels.trainer.handover.KernelHandover;

/**
 * Shared-state training (docs/parallel/README.md): one thread is the sequential trainer bit for
 * bit; several threads lose no scalar increment (the round counters end exact); a stress run of
 * four threads on a few popular coordinates leaves, for every rule and element type, a state every
 * invariant check accepts (a checkpoint of it loads) and finite weights; two threads learn a sparse
 * Zipf stream within the documented margin of one.
 */
class SharedStateTrainerTest {
  @TempDir Path dir;

  static java.util.List<String> rules() {
    return Rules.names();
  }

  @ParameterizedTest
  @MethodSource("rules")
  void oneThreadIsTheSequentialTrainer(String algorithm) {
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of(algorithm)).withEpochs(2);
    SparseDataset multi = popular(1500, 5, 4);
    TrainResult seq = OnlineTrainer.train(c, multi, null, null);
    TrainResult shared = ParallelTraining.train(c, 1, TrainingMode.SHARED, 0, multi, null);
    for (int o = 0; o < seq.model().outputs(); o++) {
      assertArrayEquals(
          seq.model().weights()[o], shared.model().weights()[o], algorithm + " output " + o);
    }
    assertEquals(seq.progressive(), shared.progressive());
    assertSame(TrainingMode.SHARED, shared.mode());
  }

  @ParameterizedTest
  @MethodSource("rules")
  void oneThreadHandedOverToTheVectorKernelsMidwayIsTheSequentialTrainer(String algorithm) {
    // The views move to the vector kernels between two blocks, mid-epoch; the kernels compute the
    // same bits, so the model and the metrics are the sequential trainer's.
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of(algorithm)).withEpochs(2);
    SparseDataset multi = popular(1500, 5, 4);
    TrainResult seq = OnlineTrainer.train(c, multi, null, null);
    try (SharedStateTrainer t =
        new SharedStateTrainer(
            c,
            1,
            multi.dimension(),
            true,
            multi.numClasses(),
            KernelHandover.after(700, KernelProvider.vector()))) {
      Metrics[] epochs = t.fit(multi);
      assertTrue(t.state(0).handedOver(0), algorithm + ": the handover did not happen");
      assertSame(KernelProvider.vector(), t.state(0).view(0).kernels());
      for (int o = 0; o < seq.model().outputs(); o++) {
        assertArrayEquals(
            seq.model().weights()[o], t.model().weights()[o], algorithm + " output " + o);
      }
      assertEquals(seq.progressive(), Metrics.combine(epochs));
    }
  }

  @Test
  void everyWorkerHandsOverOnceTheMomentHasCome() {
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of("scinol2")).withEpochs(2);
    SparseDataset data = popular(5000, 6, 1);
    try (SharedStateTrainer t =
        new SharedStateTrainer(
            c, 3, data.dimension(), false, 1, KernelHandover.after(0, KernelProvider.vector()))) {
      t.fit(data);
      for (int j = 0; j < 3; j++) {
        assertTrue(t.state(0).handedOver(j), "worker " + j + " did not hand over");
      }
    }
    try (SharedStateTrainer never =
        new SharedStateTrainer(
            c,
            2,
            data.dimension(),
            false,
            1,
            KernelHandover.after(Long.MAX_VALUE, KernelProvider.vector()))) {
      never.fit(data);
      assertSame(KernelProvider.scalar(), never.state(0).view(0).kernels());
    }
  }

  @Test
  void aViewNumberOutsideTheStateIsRefusedByName() {
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of("scinol2"));
    try (SharedStateTrainer t =
        new SharedStateTrainer(
            c, 2, 8, false, 1, KernelHandover.after(0, KernelProvider.vector()))) {
      SharedState s = t.state(0);
      for (int j : new int[] {-1, 2}) {
        IndexOutOfBoundsException e =
            org.junit.jupiter.api.Assertions.assertThrows(
                IndexOutOfBoundsException.class, () -> s.handOver(j));
        assertEquals("view " + j + " of a shared state with 2 views", e.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(
            IndexOutOfBoundsException.class, () -> s.transferView(j, Thread.currentThread()));
        org.junit.jupiter.api.Assertions.assertThrows(
            IndexOutOfBoundsException.class, () -> s.handedOver(j));
      }
    }
  }

  @ParameterizedTest
  @MethodSource("rules")
  void roundCountersEndExactOnThreeThreads(String algorithm) {
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of(algorithm)).withEpochs(2);
    SparseDataset data = popular(5000, 6, 1);
    try (OnlineTrainer seq = new OnlineTrainer(c, data.dimension(), false, 1);
        SharedStateTrainer t = new SharedStateTrainer(c, 3, data.dimension(), false, 1)) {
      seq.fit(data, null, 0, null);
      t.fit(data);
      var expected = ((AbstractOptimizer) seq.optimizer(0)).scalarState();
      var got = t.state(0).owner().scalarState();
      if (expected.containsKey("t")) {
        assertEquals(
            expected.get("t"), got.get("t"), algorithm + ": round counter after 2 x 5000 rows");
      }
      assertEquals(expected.keySet(), got.keySet());
    }
  }

  @ParameterizedTest
  @MethodSource("rules")
  void fourThreadsOnPopularCoordinatesLeaveAStateEveryCheckAccepts(String algorithm)
      throws IOException {
    for (ElementType type : ElementType.values()) {
      TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of(algorithm)).withType(type).withEpochs(3);
      SparseDataset data = popular(20_000, 7, 1);
      try (SharedStateTrainer t = new SharedStateTrainer(c, 4, data.dimension(), false, 1)) {
        t.fit(data);
        for (double w : t.model().weights()[0]) {
          assertTrue(Double.isFinite(w), algorithm + " " + type + ": weight " + w);
        }
        AbstractOptimizer owner = t.state(0).owner();
        Path file = dir.resolve(algorithm + "-" + type + ".ckpt");
        Checkpoint.save(owner, file);
        // The state holds the workers' hot records after the data's coordinates.
        assertEquals(t.model().dimension(), data.dimension());
        try (LinearModelOptimizer fresh =
            c.algorithm().create(owner.dimension(), c.precision(), c.stateLayout(), null, null)) {
          // Loading validates every element and scalar against the rule's invariants.
          Checkpoint.load(file, (AbstractOptimizer) fresh);
        }
      }
    }
  }

  @Test
  void twoThreadsFoldEveryHotRecordIntoTheSharedState() {
    // ScInOL2's M is the largest |x| a coordinate has seen, whatever the predictions. Every
    // coordinate of these rows is hot (named at least twice, fewer than the capacity), so the
    // workers train private copies only and fold them with the merge's MAX: M must end exactly
    // the data's, and the model must have the data's dimension.
    SparseDataset data = popular(3000, 8, 1);
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of("scinol2")).withEpochs(2);
    float[] max = new float[data.dimension()];
    int[] idx = data.indices();
    double[] val = data.values();
    for (int e = 0; e < idx.length; e++) {
      max[idx[e]] = Math.max(max[idx[e]], Math.abs((float) val[e]));
    }
    // Private records are off by default (bench report, session 7); this test turns them on for
    // the trainer it makes.
    try (SharedStateTrainer t =
        withHotRecords("1024", () -> new SharedStateTrainer(c, 2, data.dimension(), false, 1))) {
      t.fit(data);
      int[] hot = t.hotCoordinates();
      assertEquals(data.dimension(), hot.length, "every coordinate is hot");
      var m = t.state(0).owner().stateAccess().store().field("M");
      for (int i = 0; i < data.dimension(); i++) {
        assertEquals(max[i], m.get(i), 0, "M[" + i + "]");
      }
      assertEquals(data.dimension(), t.model().dimension());
    }
  }

  @Test
  void hotRecordsAreKeptOnSeveralThreadsForRulesWhoseVariablesAdd() {
    TrainerConfig scinol2 = TrainerConfig.of(AlgorithmSpec.of("scinol2"));
    assertEquals(1024, SharedStateTrainer.hotCapacity(scinol2, 2, 1 << 20, 1024));
    assertEquals(100, SharedStateTrainer.hotCapacity(scinol2, 4, 100, 1024), "at most d");
    assertEquals(0, SharedStateTrainer.hotCapacity(scinol2, 1, 1 << 20, 1024), "one thread");
    assertEquals(0, SharedStateTrainer.hotCapacity(scinol2, 2, 1 << 20, 0), "turned off");
    for (String rule : new String[] {"scinol1", "freegrad", "aogd-ball"}) {
      assertEquals(
          0,
          SharedStateTrainer.hotCapacity(
              TrainerConfig.of(AlgorithmSpec.of(rule)), 2, 1 << 20, 1024),
          rule);
    }
  }

  @Tag("long")
  @Test
  void twoThreadsLearnASparseStreamWithinTheStatedMargin() {
    // docs/parallel/README.md states the margins on this stream: two threads' test loss within
    // these of one thread's. Measured: the largest difference of 20 two-thread runs (machine
    // otherwise idle) was 0.0103 (adagrad), 0.0107 (ftrl), 0.0021 (adagrad-global), 0.0016
    // (scinol1), 0.0009 (kt, freegrad), 0.0006 (scinol2); each margin is about three times that.
    // dfeg stays at the zero model on 20,000 rows and aogd-coord diverges at its defaults here:
    // neither says anything about races, so neither is asserted.
    HashedZipfStream s = new HashedZipfStream(1 << 16, 20, 1.1, 1);
    SparseDataset train = s.rows(20_000, 2);
    SparseDataset test = s.rows(5_000, 3);
    String[] algorithms = {
      "scinol2", "adagrad", "adagrad-global", "scinol1", "ftrl", "kt", "freegrad"
    };
    double[] margins = {0.005, 0.03, 0.006, 0.005, 0.03, 0.003, 0.003};
    for (int a = 0; a < algorithms.length; a++) {
      TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of(algorithms[a]));
      double seq = OnlineTrainer.train(c, train, test, null).test().meanLoss();
      // The default, and private records for the 64 hottest coordinates (renamed block by block
      // by each worker): the same margins hold for both.
      for (String hot : new String[] {null, "64"}) {
        double two =
            withHotRecords(
                hot,
                () ->
                    ParallelTraining.train(c, 2, TrainingMode.SHARED, 0, train, test)
                        .test()
                        .meanLoss());
        assertTrue(
            Math.abs(two - seq) < margins[a],
            algorithms[a]
                + " (hot records "
                + (hot == null ? "as by default" : hot)
                + "): two threads "
                + two
                + ", one "
                + seq
                + ", margin "
                + margins[a]);
      }
    }
  }

  /**
   * {@code run} with {@link SharedStateTrainer#HOT_PROPERTY} set to {@code hot} (null: as it is).
   */
  private static <T> T withHotRecords(String hot, java.util.function.Supplier<T> run) {
    if (hot == null) {
      return run.get();
    }
    String before = System.getProperty(SharedStateTrainer.HOT_PROPERTY);
    System.setProperty(SharedStateTrainer.HOT_PROPERTY, hot);
    try {
      return run.get();
    } finally {
      if (before == null) {
        System.clearProperty(SharedStateTrainer.HOT_PROPERTY);
      } else {
        System.setProperty(SharedStateTrainer.HOT_PROPERTY, before);
      }
    }
  }

  @Test
  void theFastestModeIsSharedWhereRoundsRunLockFree() {
    assertSame(
        TrainingMode.SHARED,
        ParallelTraining.fastest(TrainerConfig.of(AlgorithmSpec.of("scinol2"))));
    assertSame(
        TrainingMode.MIXING,
        ParallelTraining.fastest(TrainerConfig.of(AlgorithmSpec.of("aogd-ball"))));
    try (SharedStateTrainer t =
        new SharedStateTrainer(TrainerConfig.of(AlgorithmSpec.of("aogd-ball")), 2, 8, false, 1)) {
      SharedState s = t.state(0);
      assertTrue(!s.lockFree());
    }
  }

  /**
   * Rows whose first {@code hot} coordinates are in every row (the coordinates every thread writes
   * at once), plus four of 64 others; values over five orders of magnitude; labels +1/-1 (binary,
   * {@code classes} 1) or {@code 0..classes-1}.
   */
  private static SparseDataset popular(int n, long seed, int classes) {
    SparseDataset.Builder b = new SparseDataset.Builder();
    Random r = new Random(seed);
    int hot = 4;
    for (int i = 0; i < n; i++) {
      int[] idx = new int[hot + 4];
      double[] val = new double[hot + 4];
      for (int j = 0; j < hot; j++) {
        idx[j] = j;
      }
      int base = hot;
      for (int j = 0; j < 4; j++) {
        idx[hot + j] = base + 16 * j + r.nextInt(16);
      }
      for (int j = 0; j < idx.length; j++) {
        val[j] = r.nextGaussian() * Math.pow(10, r.nextInt(5) - 2);
      }
      double label = classes > 1 ? r.nextInt(classes) : (val[0] + val[hot] > 0 ? 1 : -1);
      b.addRow(label, idx, val);
    }
    return b.build();
  }
}
