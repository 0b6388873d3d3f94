package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * After warm-up, no vector kernel entry allocates: a heap allocation there means C2 boxed a vector
 * (10-50x slower). Which element type runs first changes C2's inlining decisions, and this JVM has
 * already run other tests in some order, so each order gets a fresh JVM running {@link
 * AllocationProbeMain}. The two JVMs start together, before the first case, and run side by side:
 * each is one thread of work, so on two cores the pair takes the time of one.
 */
@Tag("long")
class AllocationFreeTest {
  /** Bytes per call tolerated: well below one boxed vector (a header plus its lane array). */
  private static final double LIMIT = 16;

  /** The element-type orders, each the argument list of one probe JVM. */
  private static final String FLOAT_FIRST = "FLOAT DOUBLE";

  private static final String DOUBLE_FIRST = "DOUBLE FLOAT";

  /** A probe JVM and the file its output goes to. */
  private record Probe(Process process, Path log) {}

  private static final Map<String, Probe> PROBES = new TreeMap<>();

  @BeforeAll
  static void startBothProbes() throws IOException {
    for (String order : List.of(FLOAT_FIRST, DOUBLE_FIRST)) {
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
      Path log = Files.createTempFile("allocation-probe", ".txt");
      Process p =
          new ProcessBuilder(cmd)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .redirectOutput(log.toFile())
              .start();
      PROBES.put(order, new Probe(p, log));
    }
  }

  @AfterAll
  static void stopProbes() throws IOException {
    for (Probe probe : PROBES.values()) {
      probe.process().destroyForcibly();
      Files.deleteIfExists(probe.log());
    }
  }

  /**
   * A hang guard, not a speed limit: the probe prints a line per entry as it finishes it (about 60
   * s for all of them on an idle 2-core machine, the two probes side by side), so a probe that
   * prints nothing for this long is stuck, however loaded the machine.
   */
  private static final long SILENCE_SECONDS = 600;

  /** Waits for the probe to exit while its output grows; false if it fell silent and was killed. */
  private static boolean awaitWhileItPrints(Process p, Path log)
      throws IOException, InterruptedException {
    long size = -1;
    long lastGrowth = System.nanoTime();
    while (!p.waitFor(1, TimeUnit.SECONDS)) {
      long now = Files.size(log);
      if (now != size) {
        size = now;
        lastGrowth = System.nanoTime();
      } else if (System.nanoTime() - lastGrowth > TimeUnit.SECONDS.toNanos(SILENCE_SECONDS)) {
        p.destroyForcibly();
        return false;
      }
    }
    return true;
  }

  @ParameterizedTest
  @ValueSource(strings = {FLOAT_FIRST, DOUBLE_FIRST})
  void everyVectorEntryIsAllocationFreeAfterWarmUp(String order) throws Exception {
    Probe probe = PROBES.get(order);
    Process p = probe.process();
    boolean finished = awaitWhileItPrints(p, probe.log());
    String out = Files.readString(probe.log(), StandardCharsets.UTF_8);
    assertTrue(
        finished,
        "probe printed nothing for "
            + SILENCE_SECONDS
            + " s and was stopped; output so far:\n"
            + out);
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
