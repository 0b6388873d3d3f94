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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.AllOptimizers;
import org.onlinekernels.optimizer.StateSnapshot;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/**
 * {@link Checkpoint#toBytes} and {@link Checkpoint#restore}: the checkpoint file's bytes held in
 * memory (for containers such as the command line's training state), with the checks of {@link
 * Checkpoint#load}.
 */
class CheckpointBytesTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("org.onlinekernels.optimizer.checkpoint.CheckpointTest#cases")
  void theImageIsTheFileAndRestoresTheState(AllOptimizers.Named n, ElementType t)
      throws IOException {
    SparseDataset ds = CheckpointTest.data();
    Path file = dir.resolve("c.ckpt");
    try (Arena a = Arena.ofConfined();
        AbstractOptimizer trained = n.create(ds.dimension(), t);
        AbstractOptimizer restored = n.create(ds.dimension(), t)) {
      CheckpointTest.run(trained, ds, 0, ds.size() / 2, a);
      byte[] image = Checkpoint.toBytes(trained);
      Checkpoint.save(trained, file);
      assertArrayEquals(
          Files.readAllBytes(file), image, "the image is the checkpoint file's content");
      assertEquals(image.length, Checkpoint.byteSize(trained), "byteSize counts the image");
      Checkpoint.restore(image, "image", restored);
      StateSnapshot.of(trained).assertSame(restored, "restored from the image");
    }
  }

  @Test
  void aNullOptimizerOrStreamIsRefused() {
    try (ScInOL2Optimizer o =
        new ScInOL2Optimizer(4, ElementType.DOUBLE, ScInOLParams.defaults())) {
      assertThrows(
          IllegalArgumentException.class,
          () -> Checkpoint.write(null, new java.io.ByteArrayOutputStream()));
      assertThrows(IllegalArgumentException.class, () -> Checkpoint.write(o, null));
      assertThrows(IllegalArgumentException.class, () -> Checkpoint.byteSize(null));
    }
  }

  @Test
  void aPendingPredictOrAForeignImageIsRefusedNamingTheSource() {
    try (Arena a = Arena.ofConfined();
        ScInOL2Optimizer o = new ScInOL2Optimizer(4, ElementType.DOUBLE, ScInOLParams.defaults());
        ScInOL2Optimizer wide =
            new ScInOL2Optimizer(5, ElementType.DOUBLE, ScInOLParams.defaults())) {
      MemorySegment x = a.allocate(32);
      x.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, 1, 2.0);
      o.predict(x);
      assertThrows(
          IllegalStateException.class, () -> Checkpoint.toBytes(o), "a predict is pending");
      assertThrows(
          IllegalStateException.class,
          () -> Checkpoint.write(o, new java.io.ByteArrayOutputStream()),
          "a predict is pending");
      assertThrows(IllegalStateException.class, () -> Checkpoint.byteSize(o), "pending");
      o.update(-1);
      byte[] image = Checkpoint.toBytes(o);
      StateSnapshot before = StateSnapshot.of(wide);
      CheckpointException e =
          assertThrows(
              CheckpointException.class,
              () -> Checkpoint.restore(image, "state.okst, output 2", wide));
      assertTrue(e.getMessage().startsWith("state.okst, output 2: "), e.getMessage());
      before.assertSame(wide, "a refused image leaves the optimizer unchanged");
      byte[] cut = java.util.Arrays.copyOf(image, image.length - 9);
      e = assertThrows(CheckpointException.class, () -> Checkpoint.restore(cut, "cut", o));
      assertEquals(true, e.getMessage().contains("checksum"), e.getMessage());
    }
  }
}
