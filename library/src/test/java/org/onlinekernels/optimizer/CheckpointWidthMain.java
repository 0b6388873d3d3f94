package org.onlinekernels.optimizer;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.vector.VectorConstants;
import org.onlinekernels.optimizer.checkpoint.Checkpoint;
import org.onlinekernels.optimizer.checkpoint.CheckpointTest;

/**
 * The first half of {@link CheckpointAcrossWidthsTest}, in a JVM of its own at the vector width
 * {@code -Donlinekernels.vectorBits} asks for: every optimizer, float and double, trains on the
 * first half of heart_scale's dense rows with the vector kernels and saves a checkpoint into the
 * directory given; the width in effect goes into the file {@code bits}.
 */
public final class CheckpointWidthMain {
  private CheckpointWidthMain() {}

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]);
    SparseDataset ds = CheckpointTest.data();
    for (AllOptimizers.Named n : AllOptimizers.all()) {
      for (ElementType t : ElementType.values()) {
        try (Arena a = Arena.ofConfined();
            AbstractOptimizer o =
                n.factory().create(CheckpointTest.DENSE_D, t, null, KernelProvider.vector())) {
          CheckpointTest.runDense(o, ds, 0, ds.size() / 2, a);
          Checkpoint.save(o, dir.resolve(n.name() + "-" + t + ".ckpt"));
        }
      }
    }
    Files.writeString(dir.resolve("bits"), Integer.toString(VectorConstants.BITS));
  }
}
