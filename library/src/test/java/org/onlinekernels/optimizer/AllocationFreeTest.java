package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * After warm-up, no vector kernel entry allocates: a heap allocation there means C2 boxed a vector
 * (10-50x slower). Which element type runs first changes C2's inlining decisions, and this JVM has
 * already run other tests in some order, so each order gets a fresh JVM running {@link
 * AllocationProbeMain}.
 */
@Tag("long")
class AllocationFreeTest {
  /** Bytes per call tolerated: well below one boxed vector (a header plus its lane array). */
  private static final double LIMIT = 16;

  @ParameterizedTest
  @ValueSource(strings = {"FLOAT DOUBLE", "DOUBLE FLOAT"})
  void everyVectorEntryIsAllocationFreeAfterWarmUp(String order) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(
        List.of(
            "--add-modules",
            "jdk.incubator.vector",
            "-Xss4m",
            "-cp",
            System.getProperty("java.class.path")));
    cmd.add(AllocationProbeMain.class.getName());
    cmd.addAll(List.of(order.split(" ")));
    // Output to a file, so that the timeout below bounds the wait even if the child hangs.
    java.nio.file.Path log = java.nio.file.Files.createTempFile("allocation-probe", ".txt");
    Process p =
        new ProcessBuilder(cmd)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .redirectOutput(log.toFile())
            .start();
    // A hang guard, not a speed limit: every configuration x 2 types, each warmed until C2 has
    // compiled it, take about 60 s on an idle 2-core machine and twice that under load.
    boolean finished = p.waitFor(300, TimeUnit.SECONDS);
    if (!finished) {
      p.destroyForcibly();
    }
    String out = java.nio.file.Files.readString(log, StandardCharsets.UTF_8);
    java.nio.file.Files.deleteIfExists(log);
    assertTrue(finished, "probe did not finish within 300 s; output so far:\n" + out);
    assertEquals(0, p.exitValue(), out);
    List<String> bad = new ArrayList<>();
    int entries = 0;
    for (String line : out.split("\n")) {
      String[] f = line.trim().split(" ");
      if (f.length != 4) {
        continue;
      }
      entries++;
      if (Double.parseDouble(f[2]) >= LIMIT) {
        bad.add(line);
      }
    }
    // Every optimizer configuration x 2 types x ({predict, update} x {dense, sparse} + the fused
    // round):
    // an entry the probe skipped or lost would otherwise pass unseen.
    assertEquals(AllOptimizers.all().size() * 2 * 5, entries, out);
    assertTrue(
        bad.isEmpty(),
        "entries allocating >= "
            + LIMIT
            + " B/call (entry type B/call ns/coord):\n"
            + String.join("\n", bad)
            + "\nfull table:\n"
            + out);
  }
}
