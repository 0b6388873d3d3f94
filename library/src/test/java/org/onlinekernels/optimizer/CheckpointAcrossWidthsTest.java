package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.vector.VectorConstants;
import org.onlinekernels.optimizer.checkpoint.Checkpoint;
import org.onlinekernels.optimizer.checkpoint.CheckpointTest;

/**
 * docs/GUARANTEES.md: "a checkpoint resumes ... at any vector width" (issue #41: inferred from the
 * widths' bit identity, never run). A JVM at 128 bits and one at 256 ({@link CheckpointWidthMain})
 * train every optimizer on the first half of heart_scale's dense rows and save; this JVM, at its
 * preferred width, resumes each on the second half: the predictions and the whole state of one run
 * straight through here, bit for bit. Starts JVMs: the long stage.
 */
@Tag("long")
class CheckpointAcrossWidthsTest {
  @TempDir Path dir;

  @Test
  void aCheckpointSavedAtAnotherWidthResumesBitIdentically() throws Exception {
    SparseDataset ds = CheckpointTest.data();
    int half = ds.size() / 2;
    int checked = 0;
    for (int bits : new int[] {128, 256}) {
      if (bits > VectorConstants.BITS) {
        continue; // this CPU has no such width: the child would run at ours
      }
      Path out = Files.createDirectory(dir.resolve("w" + bits));
      saveAt(bits, out);
      assertEquals(Integer.toString(bits), Files.readString(out.resolve("bits")), "child width");
      for (AllOptimizers.Named n : AllOptimizers.all()) {
        for (ElementType t : ElementType.values()) {
          String what = n + " " + t + " saved at " + bits + " bits";
          try (Arena a = Arena.ofConfined();
              AbstractOptimizer straight =
                  n.factory().create(CheckpointTest.DENSE_D, t, null, KernelProvider.vector());
              AbstractOptimizer resumed =
                  n.factory().create(CheckpointTest.DENSE_D, t, null, KernelProvider.vector())) {
            long[] all = CheckpointTest.runDense(straight, ds, 0, ds.size(), a);
            Checkpoint.load(out.resolve(n.name() + "-" + t + ".ckpt"), resumed);
            long[] rest = CheckpointTest.runDense(resumed, ds, half, ds.size(), a);
            assertArrayEquals(Arrays.copyOfRange(all, half, ds.size()), rest, what);
            StateSnapshot.of(straight).assertSame(resumed, what);
            checked++;
          }
        }
      }
    }
    assertTrue(checked > 0 || VectorConstants.BITS < 256, "nothing checked");
  }

  private static void saveAt(int bits, Path out) throws IOException, InterruptedException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "--add-modules",
                "jdk.incubator.vector",
                "-D" + VectorConstants.WIDTH_PROPERTY + "=" + bits,
                "-Donlinekernels.data=" + System.getProperty("onlinekernels.data", "../data"),
                "-cp",
                System.getProperty("java.class.path"),
                CheckpointWidthMain.class.getName(),
                out.toString())
            .redirectErrorStream(true)
            .redirectOutput(out.resolve("log").toFile())
            .start();
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the child did not finish");
    assertEquals(0, p.exitValue(), () -> read(out.resolve("log")));
  }

  private static String read(Path f) {
    try {
      return Files.readString(f);
    } catch (IOException e) {
      return e.toString();
    }
  }
}
