package org.onlinekernels.trainer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.data.SyntheticScInOL;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;
import org.onlinekernels.trainer.model.LinearModel;

class OnlineTrainerTest {
  /** Three well separated classes in 3 features plus a bias, labels 0..2. */
  static SparseDataset threeClasses(int n, long seed) {
    java.util.Random r = new java.util.Random(seed);
    SparseDataset.Builder b = new SparseDataset.Builder();
    for (int t = 0; t < n; t++) {
      int c = r.nextInt(3);
      double[] v = new double[4];
      for (int i = 0; i < 3; i++) {
        v[i] = (i == c ? 2.0 : 0.0) + 0.3 * r.nextGaussian();
      }
      v[3] = 1;
      b.addRow(c, new int[] {0, 1, 2, 3}, v);
    }
    return b.build();
  }

  @Test
  void progressiveLossIsMeasuredBeforeEachUpdate() {
    // By hand: a driver that predicts, scores, then updates, one optimizer, file order.
    SparseDataset data = SyntheticScInOL.generate(300, 3);
    TrainerConfig cfg =
        TrainerConfig.of(AlgorithmSpec.of("scinol2"))
            .withShuffle(false, 0)
            .withType(ElementType.DOUBLE);
    TrainResult res = OnlineTrainer.train(cfg, data, null, null);
    double lossSum = 0;
    try (Arena a = Arena.ofConfined();
        ScInOL2Optimizer o =
            new ScInOL2Optimizer(21, ElementType.DOUBLE, ScInOLParams.defaults())) {
      MemorySegment x = a.allocate(21 * 8L);
      double[] row = new double[21];
      for (int r = 0; r < data.size(); r++) {
        data.denseRow(r, row);
        MemorySegment.copy(row, 0, x, ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, 21);
        double yhat = o.predict(x);
        lossSum += Loss.LOGISTIC.value(data.label(r), yhat);
        o.update(Loss.LOGISTIC.derivative(data.label(r), yhat));
      }
    }
    assertEquals(lossSum / data.size(), res.progressive().meanLoss(), 1e-12);
    assertNull(res.test());
    assertEquals(300, res.examples());
    assertEquals(300 * 21, res.nonzeros());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "adagrad",
        "adagrad-global",
        "aogd-ball",
        "aogd-coord",
        "scinol1",
        "scinol2",
        "dfeg",
        "ogd"
      })
  void denseAndSparseRowsGiveTheSameModel(String algorithm) {
    SparseDataset data = threeClasses(200, 5);
    TrainerConfig cfg =
        TrainerConfig.of(AlgorithmSpec.of(algorithm)).withType(ElementType.DOUBLE).withEpochs(2);
    TrainResult sparse = OnlineTrainer.train(cfg, data, null, null);
    TrainResult dense = OnlineTrainer.train(cfg.withDense(true), data, null, null);
    for (int k = 0; k < 3; k++) {
      assertArrayEquals(
          sparse.model().weights()[k],
          dense.model().weights()[k],
          1e-9,
          algorithm + " output " + k);
    }
    assertEquals(sparse.progressive().meanLoss(), dense.progressive().meanLoss(), 1e-9);
  }

  @Test
  void oneVsRestOutputsEqualIndependentBinaryRuns() {
    // Multiclass = K binary learners on +1/-1 targets, fed the same rows in the same order.
    SparseDataset data = threeClasses(400, 7);
    TrainerConfig cfg = TrainerConfig.of(AlgorithmSpec.of("scinol2")).withShuffle(true, 11);
    TrainResult multi = OnlineTrainer.train(cfg, data, null, null);
    assertEquals(3, multi.model().outputs());
    assertTrue(multi.model().multiclass());
    for (int k = 0; k < 3; k++) {
      TrainResult bin = OnlineTrainer.train(cfg, Datasets.oneVsRest(data, k), null, null);
      assertArrayEquals(bin.model().weights()[0], multi.model().weights()[k], "class " + k);
    }
    // Separable enough: one pass learns it.
    Metrics m = Metrics.evaluate(multi.model(), threeClasses(1000, 8));
    assertTrue(m.errorRate() < 0.05, "test error " + m.errorRate());
  }

  @Test
  void shufflingIsSeededAndChangesTheOrder() {
    SparseDataset data = SyntheticScInOL.generate(500, 2);
    TrainerConfig cfg = TrainerConfig.of(AlgorithmSpec.of("adagrad")).withEpochs(3);
    double[] a =
        OnlineTrainer.train(cfg.withShuffle(true, 42), data, null, null).model().weights()[0];
    double[] b =
        OnlineTrainer.train(cfg.withShuffle(true, 42), data, null, null).model().weights()[0];
    double[] c =
        OnlineTrainer.train(cfg.withShuffle(true, 43), data, null, null).model().weights()[0];
    double[] fileOrder =
        OnlineTrainer.train(cfg.withShuffle(false, 42), data, null, null).model().weights()[0];
    assertArrayEquals(a, b);
    assertNotEquals(a[20], c[20]);
    assertNotEquals(a[20], fileOrder[20]);
  }

  @Test
  void testSetIsScoredWithTheFinalWeights(@TempDir Path dir) throws Exception {
    SparseDataset train = SyntheticScInOL.generate(2000, 4);
    SparseDataset test = SyntheticScInOL.generate(1000, 4, 1);
    TrainResult r =
        OnlineTrainer.train(TrainerConfig.of(AlgorithmSpec.of("scinol2")), train, test, null);
    assertEquals(Metrics.evaluate(r.model(), test), r.test());
    Path f = dir.resolve("m.model");
    r.model().save(f);
    LinearModel back = LinearModel.load(f);
    assertArrayEquals(r.model().weights()[0], back.weights()[0]);
    assertEquals(r.test(), Metrics.evaluate(back, test));
    assertTrue(r.test().meanLoss() < 0.45, "ScInOL2 learns the synthetic problem: " + r.test());
  }

  @Test
  void epochsAddUp() {
    SparseDataset data = SyntheticScInOL.generate(100, 2);
    TrainResult r =
        OnlineTrainer.train(
            TrainerConfig.of(AlgorithmSpec.of("dfeg")).withEpochs(3), data, null, null);
    assertEquals(3, r.epochs().length);
    assertEquals(300, r.examples());
    double mean =
        (r.epochs()[0].meanLoss() + r.epochs()[1].meanLoss() + r.epochs()[2].meanLoss()) / 3;
    assertEquals(mean, r.progressive().meanLoss(), 1e-12);
  }

  @Test
  void testLabelsMustFitTheModel() {
    SparseDataset bin = SyntheticScInOL.generate(10, 2);
    SparseDataset multi = threeClasses(10, 1);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> OnlineTrainer.train(TrainerConfig.of(AlgorithmSpec.of("ogd")), bin, multi, null));
    assertTrue(e.getMessage().contains("binary"), e.getMessage());
  }

  /**
   * The trainer's own loop allocates nothing per example: with the data prepared once, a pass over
   * 40,000 rows allocates no more than one over 2,000 (a constant, at most 16 KiB, for the
   * segments, JIT and the per-epoch results). Measured with the scalar kernels, so that the
   * assertion is about this loop; the vector kernels' own allocation depends on the JIT (see
   * docs/EXPERIMENTS.md).
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "adagrad",
        "adagrad-global",
        "aogd-ball",
        "aogd-coord",
        "scinol1",
        "scinol2",
        "dfeg",
        "ogd"
      })
  void hotLoopAllocatesNothingPerExample(String algorithm) {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    TrainingData small = TrainingData.of(threeClasses(2_000, 1));
    TrainingData big = TrainingData.of(threeClasses(40_000, 1));
    TrainerConfig cfg = TrainerConfig.of(AlgorithmSpec.of(algorithm));
    for (ElementType type : List.of(ElementType.FLOAT, ElementType.DOUBLE)) {
      for (boolean dense : new boolean[] {false, true}) {
        TrainerConfig c = cfg.withType(type).withDense(dense);
        try (OnlineTrainer t = new OnlineTrainer(c, 4, true, 3, KernelProvider.scalar())) {
          t.fit(big, null, 0, null); // warm up: let the JIT compile the loop
          t.fit(
              small, null, 0, null); // and finish preparing small (its rows, once per element type)
          long tid = Thread.currentThread().threadId();
          long b0 = mx.getThreadAllocatedBytes(tid);
          t.fit(small, null, 0, null);
          long b1 = mx.getThreadAllocatedBytes(tid);
          t.fit(big, null, 0, null);
          long b2 = mx.getThreadAllocatedBytes(tid);
          String what = algorithm + " " + type + (dense ? " dense" : " sparse");
          assertTrue(
              b2 - b1 < 16384, what + ": " + (b2 - b1) + " bytes for a pass over 40000 examples");
          assertTrue(
              b1 - b0 < 16384, what + ": " + (b1 - b0) + " bytes for a pass over 2000 examples");
        }
      }
    }
  }
}
