package org.onlinekernels.optimizer.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.AllOptimizers;
import org.onlinekernels.optimizer.StateSnapshot;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.scinol1.ScInOL1Optimizer;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/**
 * Issue 6, checkpoint and resume: on heart_scale (the repository's data folder), training with a
 * save/load in the middle predicts bit-identically to training straight through, for every
 * optimizer in float and double; damaged or mismatched files are refused with the optimizer
 * unchanged; a failed save never damages the previous checkpoint.
 */
public class CheckpointTest {
  @TempDir Path dir;

  public static SparseDataset data() throws IOException {
    return LibSvmReader.read(
        Path.of(System.getProperty("onlinekernels.data", "../data"), "heart_scale.svm"));
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (AllOptimizers.Named n : AllOptimizers.all()) {
      for (ElementType t : ElementType.values()) out.add(Arguments.of(n, t));
    }
    return out.stream();
  }

  /**
   * Sparse predict + logistic-gradient update over rows [from, to); returns the predictions' bits.
   */
  public static long[] run(AbstractOptimizer o, SparseDataset ds, int from, int to, Arena a) {
    ElementType t = o.elementType();
    long[] bits = new long[to - from];
    MemorySegment idx = a.allocate(4L * ds.dimension() + 4);
    MemorySegment val = a.allocate((long) t.bytes() * ds.dimension() + 8);
    for (int r = from; r < to; r++) {
      int nnz = 0;
      for (int j = ds.rowStart(r); j < ds.rowEnd(r); j++, nnz++) {
        idx.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, nnz, ds.indices()[j]);
        if (t == ElementType.FLOAT)
          val.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, nnz, (float) ds.values()[j]);
        else val.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, nnz, ds.values()[j]);
      }
      double yhat = o.predictSparse(idx, val, nnz);
      bits[r - from] = Double.doubleToRawLongBits(yhat);
      double y = ds.label(r);
      o.update(-y / (1 + Math.exp(y * yhat)));
    }
    return bits;
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  // Closes the saved optimizer inside its try-with-resources, as a run that ends would: "try" lint.
  @SuppressWarnings("try")
  void resumeIsBitIdentical(AllOptimizers.Named n, ElementType t) throws IOException {
    SparseDataset ds = data();
    int half = ds.size() / 2;
    Path file = dir.resolve(n.name() + "-" + t + ".ckpt");
    try (Arena a = Arena.ofConfined();
        AbstractOptimizer straight = n.create(ds.dimension(), t);
        AbstractOptimizer first = n.create(ds.dimension(), t);
        AbstractOptimizer resumed = n.create(ds.dimension(), t)) {
      long[] all = run(straight, ds, 0, ds.size(), a);
      run(first, ds, 0, half, a);
      Checkpoint.save(first, file);
      first.close();
      Checkpoint.load(file, resumed);
      StateSnapshot loaded = StateSnapshot.of(resumed);
      long[] rest = run(resumed, ds, half, ds.size(), a);
      long[] want = java.util.Arrays.copyOfRange(all, half, ds.size());
      assertArrayEquals(want, rest, "predictions after resume");
      assertTrue(loaded.buffers().size() >= 1);
    }
  }

  @Test
  void mismatchedDamagedAndForeignFilesAreRefused() throws IOException {
    Path good = dir.resolve("good.ckpt");
    try (Arena a = Arena.ofConfined();
        ScInOL2Optimizer src =
            new ScInOL2Optimizer(4, ElementType.DOUBLE, ScInOLParams.defaults())) {
      MemorySegment x = a.allocate(32);
      x.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, 1, 2.0);
      src.predict(x);
      assertThrows(
          IllegalStateException.class,
          () -> Checkpoint.save(src, good),
          "save with a pending predict");
      src.update(-1);
      Checkpoint.save(src, good);
      byte[] bytes = Files.readAllBytes(good);

      try (ScInOL2Optimizer target =
          new ScInOL2Optimizer(4, ElementType.DOUBLE, ScInOLParams.defaults())) {
        target.predict(x);
        target.update(0.3);
        refused(
            target,
            good,
            "scinol1",
            () -> new ScInOL1Optimizer(4, ElementType.DOUBLE, ScInOLParams.defaults()));
        refused(
            target,
            good,
            "float",
            () -> new ScInOL2Optimizer(4, ElementType.FLOAT, ScInOLParams.defaults()));
        refused(
            target,
            good,
            "dimension",
            () -> new ScInOL2Optimizer(5, ElementType.DOUBLE, ScInOLParams.defaults()));
        refused(
            target,
            good,
            "parameters",
            () -> new ScInOL2Optimizer(4, ElementType.DOUBLE, new ScInOLParams(2)));
        refused(
            target,
            good,
            "buffers",
            () ->
                new ScInOL2Optimizer(
                    4, ElementType.DOUBLE, ScInOLParams.defaults(), true, null, null));

        byte[] v2 = bytes.clone();
        v2[7] = 2;
        expectRefusal(target, v2, "format version 2");
        expectRefusal(target, java.util.Arrays.copyOf(bytes, bytes.length - 9), "checksum");
        expectRefusal(target, java.util.Arrays.copyOf(bytes, 10), "truncated");
        for (int pos : new int[] {20, bytes.length / 2, bytes.length - 20, bytes.length - 1}) {
          byte[] flipped = bytes.clone();
          flipped[pos] ^= 0x10;
          expectRefusal(target, flipped, "checksum");
        }
        byte[] junk = bytes.clone();
        junk[0] = 'X';
        expectRefusal(target, junk, "not an online-kernels checkpoint");

        Checkpoint.load(good, target);
        StateSnapshot.of(src).assertSame(target, "good file loads");
      }
    }
  }

  private void refused(
      AbstractOptimizer unused,
      Path file,
      String word,
      java.util.function.Supplier<AbstractOptimizer> make)
      throws IOException {
    try (AbstractOptimizer o = make.get()) {
      StateSnapshot before = StateSnapshot.of(o);
      CheckpointException e =
          assertThrows(CheckpointException.class, () -> Checkpoint.load(file, o));
      assertTrue(e.getMessage().contains(word) || e.getMessage().contains("holds"), e.getMessage());
      before.assertSame(o, "refused load");
    }
  }

  private void expectRefusal(AbstractOptimizer target, byte[] content, String word)
      throws IOException {
    Path f = dir.resolve("bad.ckpt");
    Files.write(f, content);
    StateSnapshot before = StateSnapshot.of(target);
    CheckpointException e =
        assertThrows(CheckpointException.class, () -> Checkpoint.load(f, target));
    assertTrue(e.getMessage().contains(word), e.getMessage());
    before.assertSame(target, "refused " + word);
  }

  @Test
  void failedSaveLeavesPreviousCheckpointIntact() throws IOException {
    Path file = dir.resolve("model.ckpt");
    try (Arena a = Arena.ofConfined();
        ScInOL1Optimizer o = new ScInOL1Optimizer(3, ElementType.FLOAT, ScInOLParams.defaults())) {
      MemorySegment x = a.allocate(12);
      x.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, 0, 1f);
      o.predict(x);
      o.update(-1);
      Checkpoint.save(o, file);
      byte[] before = Files.readAllBytes(file);
      o.predict(x);
      o.update(-1);
      Checkpoint.beforeRename =
          () -> {
            throw new IllegalStateException("simulated crash before the rename");
          };
      try {
        assertThrows(IllegalStateException.class, () -> Checkpoint.save(o, file));
      } finally {
        Checkpoint.beforeRename = null;
      }
      assertArrayEquals(before, Files.readAllBytes(file), "previous checkpoint untouched");
      try (Stream<Path> s = Files.list(dir)) {
        assertEquals(List.of(file), s.toList(), "no temporary file left behind");
      }
      Checkpoint.save(o, file);
      assertTrue(Files.readAllBytes(file).length == before.length);
    }
  }
}
