package org.onlinekernels.optimizer.checkpoint;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.AllOptimizers;
import org.onlinekernels.optimizer.StateSnapshot;

/**
 * {@link Checkpoint#load(Path, long, long, String, AbstractOptimizer)}: an image that a container
 * file holds between other bytes (as the command line's state file holds one per output) loads from
 * its place into the optimizer, every optimizer in both types, as its bytes would; an image cut
 * short by its stated length, or placed wrongly, is refused as damaged with the optimizer
 * unchanged.
 */
class CheckpointInPlaceTest {
  @TempDir Path dir;

  /** Bytes before and after the image in the container: neither a multiple of 4 nor of 8. */
  private static final int BEFORE = 37;

  private static final int AFTER = 11;

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("org.onlinekernels.optimizer.checkpoint.CheckpointTest#cases")
  void anImageInsideAContainerLoadsFromItsPlace(AllOptimizers.Named n, ElementType t)
      throws IOException {
    SparseDataset ds = CheckpointTest.data();
    try (Arena a = Arena.ofConfined();
        AbstractOptimizer trained = n.create(ds.dimension(), t);
        AbstractOptimizer loaded = n.create(ds.dimension(), t)) {
      CheckpointTest.run(trained, ds, 0, ds.size() / 2, a);
      byte[] image = Checkpoint.toBytes(trained);
      Path container = container(image);
      Checkpoint.load(container, BEFORE, image.length, "container, output 1", loaded);
      StateSnapshot.of(trained).assertSame(loaded, n + " " + t + " loaded in place");
    }
  }

  @Test
  void anImageCutShortOrPlacedWronglyIsRefusedAsDamaged() throws IOException {
    SparseDataset ds = CheckpointTest.data();
    AllOptimizers.Named n = AllOptimizers.all().get(0);
    try (Arena a = Arena.ofConfined();
        AbstractOptimizer trained = n.create(ds.dimension(), ElementType.FLOAT);
        AbstractOptimizer target = n.create(ds.dimension(), ElementType.FLOAT)) {
      CheckpointTest.run(trained, ds, 0, ds.size() / 2, a);
      byte[] image = Checkpoint.toBytes(trained);
      Path container = container(image);
      StateSnapshot before = StateSnapshot.of(target);
      CheckpointException shortened =
          assertThrows(
              CheckpointException.class,
              () -> Checkpoint.load(container, BEFORE, image.length - 1, "c", target));
      assertTrue(shortened.getMessage().startsWith("c: checksum mismatch"), shortened.getMessage());
      CheckpointException moved =
          assertThrows(
              CheckpointException.class,
              () -> Checkpoint.load(container, BEFORE + 1, image.length, "c", target));
      assertTrue(moved.getMessage().contains("bad magic"), moved.getMessage());
      before.assertSame(target, "refused");
      assertThrows(
          IllegalArgumentException.class,
          () -> Checkpoint.load(container, -1, image.length, "c", target));
      assertThrows(
          IllegalArgumentException.class,
          () -> Checkpoint.load(container, BEFORE, image.length, null, target));
    }
  }

  private Path container(byte[] image) throws IOException {
    byte[] bytes = new byte[BEFORE + image.length + AFTER];
    Arrays.fill(bytes, (byte) 0x5a);
    System.arraycopy(image, 0, bytes, BEFORE, image.length);
    Path file = dir.resolve("container.bin");
    Files.write(file, bytes);
    return file;
  }
}
