package org.onlinekernels.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.bench.report.MachineInfo;
import org.onlinekernels.rules.Rules;

/**
 * The {@code metal-quick} profile (issues #21 and #19) end to end in this JVM: the C contender is
 * built and checked bit for bit against the library (in a JVM with fdlibm's {@code exp}), then
 * every rule runs through the trainer (both policies), the block rounds, the caller's-buffers round
 * and the per-call path on both workloads, and the report's C section is written. The C program is
 * generated from the rules' sources; a rule the generator cannot port (no hooks file, or a lane
 * function the C translation does not follow) is left out and reported, not failed: the report
 * names it among the rules the C program lacks, with the generator's reason, and it has no C time.
 * With gcc every other rule must have a checked (bit-identical) C time in both types on both
 * workloads, none differing. Without gcc the report must say {@value CContender#NO_GCC}. A minute
 * or two on 2 cores.
 */
@Tag("long")
class MetalReportSmokeTest {
  @Test
  void metalQuickRunsTheCLoopAndEveryRulesRoundPaths(@TempDir Path out) throws Exception {
    WorkloadProfile p = WorkloadProfile.named("metal-quick", Workload.dataFolder());
    Properties props = WorkloadReportSmokeTest.run(p, out);
    List<WorkloadResult> rows = WorkloadReportSmokeTest.results(out);
    boolean gcc = MachineInfo.program(System.getProperty("workload.cc", "gcc")).isPresent();
    String differ = props.getProperty("c.differ", "");
    String missing = props.getProperty("c.missing", "");
    String unported = props.getProperty("c.unported", "");
    List<String> lacks = missing.isEmpty() ? List.of() : List.of(missing.split(","));
    // Each rule the C program lacks is one the generator reported, with its reason, and no other.
    assertEquals(
        lacks.size(),
        unported.isEmpty() ? 0 : unported.split("; ").length,
        "rules the C program lacks (" + missing + ") vs reported unported (" + unported + ")");
    for (String w : p.workloads()) {
      for (String rule : Rules.names()) {
        for (String type : WorkloadGrid.TYPES) {
          for (String path : WorkloadMetalSection.PATHS) {
            assertTrue(
                WorkloadFigures.find(rows, w, path, rule, type)
                    .filter(r -> r.msMedian() > 0)
                    .isPresent(),
                "no time for " + path + " " + rule + " " + type + " on " + w);
          }
          String key = w + " " + rule + " " + type;
          boolean timed =
              WorkloadFigures.find(rows, w, "c", rule, type)
                  .filter(r -> r.msMedian() > 0)
                  .isPresent();
          if (!gcc || lacks.contains(rule)) {
            assertTrue(!timed, "a C time without gcc or C port: " + key);
          } else {
            assertTrue(timed, "no checked C time for " + key + "; differing: " + differ);
          }
        }
      }
    }
    assertEquals(
        gcc,
        props.getProperty("c.status").startsWith("built with "),
        props.getProperty("c.status"));
    if (!gcc) {
      assertEquals(CContender.NO_GCC, props.getProperty("c.status"));
    }
    WorkloadReportWriter.write(out);
    String md = Files.readString(out.resolve("workload.md"));
    if (!lacks.isEmpty()) {
      assertTrue(
          md.contains("| Rules the C program lacks (no C time) | " + missing + " |")
              && md.contains("| Rules the C generator could not port | " + unported + " |"),
          "workload.md does not report the rules without a C port: " + missing);
    }
    for (String s :
        new String[] {
          "## Against the C loop, every rule",
          "| checked x C | trusted x C | buffers x rounds",
          "### zipf:14:40: 2500 rows",
          "| aogd-ball | double |",
          "load average at start"
        }) {
      assertTrue(md.contains(s), "workload.md lacks " + s);
    }
  }
}
