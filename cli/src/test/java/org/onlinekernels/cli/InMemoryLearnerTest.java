package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file that fits in memory trains on the learner made before the read-ahead where that is the
 * learner in-memory training would make: one model state allocated and zeroed, not two (a tiny
 * job's start; issue #35). Measured as the heap bytes the calling thread allocates during {@code
 * train}: ScInOL2 at 2^22 coordinates keeps a 64 MiB state on the heap, and the model's read-out is
 * 32 MiB of doubles; a second state brings the run above twice the state.
 */
class InMemoryLearnerTest {
  private static final long STATE = 64L << 20;

  @TempDir Path dir;

  @Test
  void aSmallFileMakesOneModelStateNotTwo() throws Exception {
    long bytes = allocatedBy("--no-shuffle");
    assertTrue(bytes > STATE, "the state itself was allocated here: " + bytes);
    assertTrue(bytes < 2 * STATE, "one state, not two: " + (bytes >> 20) + " MiB allocated");
  }

  private long allocatedBy(String... extra) throws Exception {
    Path data = dir.resolve("rows.vw");
    Files.writeString(data, "1 |f a b c\n-1 |f b d\n");
    String[] base = {
      "train", "--data", data.toString(), "--format", "vw", "--bits", "22", "--algorithm", "scinol2"
    };
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().threadId();
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    PrintStream quiet = new PrintStream(sink, true, StandardCharsets.UTF_8);
    long before = threads.getThreadAllocatedBytes(id);
    int code = Main.run(args, quiet, quiet);
    long after = threads.getThreadAllocatedBytes(id);
    assertEquals(0, code, sink::toString);
    return after - before;
  }
}
