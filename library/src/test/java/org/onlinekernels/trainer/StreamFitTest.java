package org.onlinekernels.trainer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.data.HashedZipfStream;
import org.onlinekernels.data.RowBlock;
import org.onlinekernels.data.RowFeed;
import org.onlinekernels.data.RowSource;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * A stream ({@link OnlineTrainer#fit(RowSource, java.io.PrintStream, int,
 * OnlineTrainer.Checkpoint)}) in a data set's order trains the data set's model, bit for bit, for
 * every rule, type and mode; bad rows are refused naming them.
 */
class StreamFitTest {
  static List<String> rules() {
    return AlgorithmSpec.NAMES;
  }

  private static final SparseDataset ZIPF = new HashedZipfStream(1 << 10, 12, 1.1, 7).rows(700, 3);

  /** Every row's progressive scores, as raw bits, with its epoch and row. */
  private static final class Trace implements OnlineTrainer.ProgressiveSink {
    final List<Long> bits = new ArrayList<>();

    @Override
    public void accept(int epoch, long row, double label, double[] yhat, int k) {
      bits.add((long) epoch);
      bits.add(row);
      bits.add(Double.doubleToRawLongBits(label));
      for (int c = 0; c < k; c++) {
        bits.add(Double.doubleToRawLongBits(yhat[c]));
      }
    }
  }

  private static long[] weightBits(LinearModel m) {
    int d = m.dimension();
    long[] b = new long[m.outputs() * d];
    for (int c = 0; c < m.outputs(); c++) {
      for (int i = 0; i < d; i++) {
        b[c * d + i] = Double.doubleToRawLongBits(m.weights()[c][i]);
      }
    }
    return b;
  }

  private static long[] metricBits(Metrics[] epochs) {
    long[] b = new long[epochs.length * 3];
    for (int e = 0; e < epochs.length; e++) {
      b[3 * e] = epochs[e].examples();
      b[3 * e + 1] = Double.doubleToRawLongBits(epochs[e].meanLoss());
      b[3 * e + 2] = Double.doubleToRawLongBits(epochs[e].errorRate());
    }
    return b;
  }

  /**
   * The kernels of the runs: the scalar ones in the default suite (fast from a cold start; both
   * providers compute the same bits), the JVM's choice with its handover in the long stage.
   */
  private static KernelProvider kernels = KernelProvider.scalar();

  private static OnlineTrainer trainer(TrainerConfig cfg, int d, boolean multiclass, int classes) {
    return kernels == null
        ? new OnlineTrainer(cfg, d, multiclass, classes)
        : new OnlineTrainer(cfg, d, multiclass, classes, kernels);
  }

  /** One run each way, with checkpoints every {@code every} examples recording the weights. */
  private static void sameBits(
      TrainerConfig cfg, SparseDataset data, boolean multiclass, int classes, int blockRows)
      throws IOException {
    List<long[]> atMemory = new ArrayList<>();
    List<long[]> atStream = new ArrayList<>();
    Trace memoryTrace = new Trace();
    Trace streamTrace = new Trace();
    int d = data.dimension();
    Metrics[] memory;
    long[] memoryWeights;
    try (OnlineTrainer t = trainer(cfg, d, multiclass, classes)) {
      t.setProgressiveSink(memoryTrace);
      memory = t.fit(data, null, 97, (seen, tr) -> atMemory.add(weightBits(tr.model())));
      memoryWeights = weightBits(t.model());
    }
    TrainResult stream;
    try (OnlineTrainer t = trainer(cfg, d, multiclass, classes)) {
      t.setProgressiveSink(streamTrace);
      stream =
          t.fit(
              epoch -> RowFeed.of(data, blockRows),
              null,
              97,
              (seen, tr) -> atStream.add(weightBits(tr.model())));
    }
    String what = cfg.algorithm().name() + " " + cfg.precision() + " dense=" + cfg.dense();
    assertArrayEquals(memoryWeights, weightBits(stream.model()), what + ": weights");
    assertArrayEquals(metricBits(memory), metricBits(stream.epochs()), what + ": metrics");
    assertEquals(memoryTrace.bits, streamTrace.bits, what + ": progressive scores");
    assertEquals(atMemory.size(), atStream.size(), what + ": checkpoints");
    for (int i = 0; i < atMemory.size(); i++) {
      assertArrayEquals(atMemory.get(i), atStream.get(i), what + ": checkpoint " + i);
    }
    assertEquals((long) data.size() * cfg.epochs(), stream.examples());
    assertEquals(data.totalNonZeros() * cfg.epochs(), stream.nonzeros());
  }

  @ParameterizedTest
  @MethodSource("rules")
  void everyRuleStreamedInFileOrderGivesTheDataSetsModelBitForBit(String rule) throws IOException {
    // Adaptive OGD on the ball projects every coordinate in every round: fewer rows.
    SparseDataset data = rule.equals("aogd-ball") ? ZIPF.head(100) : ZIPF;
    for (ElementType type : ElementType.values()) {
      TrainerConfig cfg =
          TrainerConfig.of(AlgorithmSpec.of(rule))
              .withType(type)
              .withShuffle(false, 1)
              .withEpochs(2);
      // Blocks of 300 rows: the trainer's blocks of 256 rounds cross the stream's blocks.
      sameBits(cfg, data, false, 1, 300);
    }
    if (AlgorithmSpec.MIXED.contains(rule)) {
      TrainerConfig cfg =
          TrainerConfig.of(AlgorithmSpec.of(rule))
              .withPrecision(Precision.MIXED)
              .withShuffle(false, 1);
      sameBits(cfg, data, false, 1, 1);
    }
  }

  /** The same on the JVM's kernels, with the scalar-to-vector handover where it is due. */
  @Test
  @Tag("long")
  void everyRuleOnTheChosenKernelsStreamsBitForBit() throws IOException {
    kernels = null;
    try {
      for (String rule : rules()) {
        everyRuleStreamedInFileOrderGivesTheDataSetsModelBitForBit(rule);
      }
      denseRowsStreamBitForBit();
    } finally {
      kernels = KernelProvider.scalar();
    }
  }

  @Test
  void multiclassRowsStreamBitForBit() throws IOException {
    SparseDataset three = OnlineTrainerTest.threeClasses(700, 5);
    TrainerConfig cfg =
        TrainerConfig.of(AlgorithmSpec.of("scinol2")).withShuffle(false, 1).withEpochs(3);
    sameBits(cfg, three, true, 3, 64);
  }

  @Test
  void denseRowsStreamBitForBit() throws IOException {
    TrainerConfig cfg =
        TrainerConfig.of(AlgorithmSpec.of("adagrad"))
            .withShuffle(false, 1)
            .withEpochs(2)
            .withDense(true);
    sameBits(cfg, OnlineTrainerTest.threeClasses(150, 5), true, 3, 1000);
    sameBits(cfg.withType(ElementType.DOUBLE), ZIPF.head(120), false, 1, 77);
  }

  @Test
  void aShufflingConfigurationShufflesEachPassWithinItsBuffer() throws IOException {
    TrainerConfig cfg = TrainerConfig.of(AlgorithmSpec.of("ftrl")).withShuffle(true, 3);
    List<Long> rows = new ArrayList<>();
    try (OnlineTrainer t = new OnlineTrainer(cfg, ZIPF.dimension(), false, 1)) {
      t.setProgressiveSink((epoch, row, label, yhat, k) -> rows.add(row));
      t.fit(RowSource.of(ZIPF), null, 0, null);
    }
    assertEquals(ZIPF.size(), rows.size());
    assertEquals(ZIPF.size(), rows.stream().distinct().count(), "every row once");
    assertTrue(!rows.equals(rows.stream().sorted().toList()), "not in file order");
  }

  /** A feed of one block of the given rows. */
  private static RowSource oneBlock(RowBlock b) {
    return epoch ->
        new RowFeed() {
          boolean given;

          @Override
          public boolean next(RowBlock block) {
            if (given) {
              block.clear();
              return false;
            }
            given = true;
            block.clear();
            for (int r = 0; r < b.size(); r++) {
              int s = b.rowStart(r);
              int n = b.nnz(r);
              block.add(
                  b.label(r),
                  b.id(r),
                  java.util.Arrays.copyOfRange(b.indexArray(), s, s + n),
                  java.util.Arrays.copyOfRange(b.valueArray(), s, s + n),
                  n);
            }
            return true;
          }
        };
  }

  @Test
  void rowsThatDoNotFitTheTrainerAreRefusedNamingTheirId() {
    TrainerConfig cfg = TrainerConfig.of(AlgorithmSpec.of("scinol2")).withShuffle(false, 1);
    RowBlock label = new RowBlock().add(1, 40, new int[] {0}, new double[] {1}, 1);
    label.add(0, 41, new int[] {1}, new double[] {1}, 1);
    RowBlock index = new RowBlock().add(1, 6, new int[] {2, 8}, new double[] {1, 1}, 2);
    RowBlock huge = new RowBlock().add(-1, 9, new int[] {3}, new double[] {1e39}, 1);
    try (OnlineTrainer t = new OnlineTrainer(cfg, 8, false, 1)) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> t.fit(oneBlock(label), null, 0, null));
      assertEquals("row 42 has label 0.0 but the model is binary (+1/-1)", e.getMessage());
      e = assertThrows(IllegalArgumentException.class, () -> t.fit(oneBlock(index), null, 0, null));
      assertEquals("row 7 has feature index 8 but the model has dimension 8", e.getMessage());
      e = assertThrows(IllegalArgumentException.class, () -> t.fit(oneBlock(huge), null, 0, null));
      assertEquals(
          "row 10, entry 0 (index 3): value 1.0E39 is not finite as float", e.getMessage());
    }
    try (OnlineTrainer t = new OnlineTrainer(cfg, 8, true, 3)) {
      RowBlock cls = new RowBlock().add(3, 0, new int[] {0}, new double[] {1}, 1);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> t.fit(oneBlock(cls), null, 0, null));
      assertEquals("row 1 has label 3.0 but the model knows only classes 0..2", e.getMessage());
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> new OnlineTrainer(cfg, 8, false, 1).fit((RowSource) null, null, 0, null));
  }

  @Test
  void aBlockRefusesRowsThatAreNotSortedFiniteSparseRowsNamingTheirId() {
    RowBlock b = new RowBlock(4);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> b.add(1, 17, new int[] {3, 3}, new double[] {1, 1}, 2));
    assertEquals("row 17: index 3 after 3: indices must be strictly increasing", e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> b.add(1, 18, new int[] {1}, new double[] {Double.NaN}, 1));
    assertEquals("row 18: value NaN at index 1 is not a finite number", e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> b.add(Double.POSITIVE_INFINITY, 19, new int[] {}, new double[] {}, 0));
    assertEquals("row 19: label Infinity is not a finite number", e.getMessage());
    assertEquals(0, b.size(), "a refused row leaves the block as it was");
  }
}
