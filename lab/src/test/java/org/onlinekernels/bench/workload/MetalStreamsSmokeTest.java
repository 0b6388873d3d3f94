package org.onlinekernels.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.bench.report.MachineInfo;
import org.onlinekernels.bench.workload.hand.HandLoop;

/**
 * The {@code metal-streams-quick} profile (issue #21's stream targets) end to end in this JVM: the
 * C loop is built and checked bit for bit against the library for the two rules with a hand loop in
 * float, then every contender of the profile runs on the three Zipf streams, and the report must
 * carry what the full {@code metal-streams} run is for: the C loop's and the trainer's fits {@code
 * a + b nnz} with their {@code a - C} and {@code b - C}, the trainer / C ratio of both policies per
 * stream, and a verdict line per target. With gcc every case must have a checked C time (none
 * differing); without it the report must say {@value CContender#NO_GCC}. A lab test: only the lab's
 * build runs it (lab/README.md).
 */
@Tag("long")
class MetalStreamsSmokeTest {
  /** A signed figure of the fit table, e.g. {@code +12.3}. */
  private static final String SIGNED = "[+-]\\d+\\.\\d";

  @Test
  void metalStreamsQuickFitsAndJudgesTheTrainerAgainstC(@TempDir Path out) throws Exception {
    WorkloadProfile p = MetalStreams.named("metal-streams-quick");
    System.setProperty("java.awt.headless", "true");
    // JMH's machine-wide lock keeps two benchmark runs from timing each other; this run's times do
    // not matter, and it must not fail because someone is benchmarking on the same machine.
    System.setProperty("jmh.ignoreLock", "true");
    WorkloadReport.run(p, out);
    Properties props = new Properties();
    try (var r = Files.newBufferedReader(out.resolve("workload-run.properties"))) {
      props.load(r);
    }
    assertEquals("", props.getProperty("failed"), "failed benchmarks (see " + out + "/tmp)");
    List<WorkloadResult> rows = WorkloadResult.read(out);
    boolean gcc = MachineInfo.program(System.getProperty("workload.cc", "gcc")).isPresent();
    // hand, trainer x 2, per-call, rounds, rounds-buffers (+ C) per rule, float only.
    assertEquals(
        p.workloads().size() * HandLoop.RULES.size() * (6 + (gcc ? 1 : 0)),
        rows.size(),
        rows.toString());
    assertTrue(rows.stream().allMatch(r -> r.type().equals("float") && r.msMedian() > 0));
    MetalStreams.write(out);
    String md = Files.readString(out.resolve("workload.md"));
    if (!gcc) {
      assertEquals(CContender.NO_GCC, props.getProperty("c.status"));
      assertFalse(md.contains("## Issue #21's targets"), "targets judged without a C loop");
      return;
    }
    assertEquals("", props.getProperty("c.differ"), "cases whose C bits differ");
    assertTrue(
        props.getProperty("c.check").startsWith("6 of 6 "), "C check: " + props.get("c.check"));
    assertTrue(md.contains("## Fit time per row"), "workload.md lacks the fit section");
    for (String rule : HandLoop.RULES) {
      for (String contender :
          List.of("c", "trainer-checked", "trainer-trusted", "rounds", "rounds-buffers")) {
        // streams | contender | a | b | fit | a - hand | b - hand | a - C | b - C
        String line =
            "\\| zipf, d = 2\\^14 \\| "
                + contender
                + " "
                + rule
                + " float \\| -?\\d+\\.\\d \\| -?\\d+\\.\\d\\d \\| \\d+ % \\| "
                + SIGNED
                + " \\| "
                + SIGNED
                + " \\| "
                + SIGNED
                + " \\| "
                + SIGNED
                + " \\|";
        assertTrue(Pattern.compile(line).matcher(md).find(), "no fit line " + line);
      }
      for (String w : p.workloads()) {
        // stream | nnz/row | rule | type | C | checked | trusted | checked x C | trusted x C
        String line =
            "\\| "
                + w
                + " \\| \\d+\\.0 \\| "
                + rule
                + " \\| float \\| \\d+ \\| \\d+ \\| \\d+ \\| \\d+\\.\\d\\dx \\| \\d+\\.\\d\\dx \\| ";
        assertTrue(Pattern.compile(line).matcher(md).find(), "no trainer / C ratios " + line);
      }
    }
    for (String verdict :
        new String[] {
          "- \\*\\*Trainer at least 0\\.80x the C loop\\*\\* .*: \\*\\*(met|missed)[^*]*\\*\\*: \\d+ of 8 ratios",
          "- \\*\\*Fixed cost per row at most 30\\.0 ns above the C loop's\\*\\* .*: \\*\\*(met|missed)\\*\\*: "
              + "\\d+ of 4 fits"
        }) {
      assertTrue(Pattern.compile(verdict).matcher(md).find(), "no verdict " + verdict);
    }
  }
}
