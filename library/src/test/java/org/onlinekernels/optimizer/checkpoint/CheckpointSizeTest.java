package org.onlinekernels.optimizer.checkpoint;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.StateSnapshot;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/** Issue 12, item 8: a huge file is refused by its size, not read whole into memory first. */
class CheckpointSizeTest {
  @Test
  void aThreeGigabyteFileIsRefusedBeforeReading(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("huge.ckpt");
    try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
      r.setLength(3L << 30); // sparse: takes no disk space
    }
    try (ScInOL2Optimizer o = new ScInOL2Optimizer(8, ElementType.FLOAT, ScInOLParams.defaults())) {
      StateSnapshot before = StateSnapshot.of(o);
      CheckpointException e = assertThrows(CheckpointException.class, () -> Checkpoint.load(f, o));
      assertTrue(
          e.getMessage()
              .startsWith(
                  f
                      + ": is 3221225472 bytes; a checkpoint of this optimizer (scinol2, d = 8)"
                      + " has at most "),
          e.getMessage());
      before.assertSame(o, "refused by size");
    }
  }
}
