package org.onlinekernels.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.rules.Rules;

/**
 * The {@code metal-quick} profile (issues #21 and #19) end to end in this JVM: the C contender is
 * built and checked bit for bit against the library (in a JVM with fdlibm's {@code exp}), then
 * every rule runs through the trainer (both policies), the block rounds, the caller's-buffers round
 * and the per-call path on both workloads, and the report's C section is written. ScInOL2 and
 * AdaGrad, the rules of issue #21's table, must have a checked C time in both types on both
 * workloads; every other rule the C program has, in either type, either has one or is listed as
 * differing; a rule it lacks (c.missing) has neither. Without gcc the report must say {@value
 * CContender#NO_GCC}. A minute or two on 2 cores.
 */
class MetalReportSmokeTest {
  @Test
  void metalQuickRunsTheCLoopAndEveryRulesRoundPaths(@TempDir Path out) throws Exception {
    WorkloadProfile p = WorkloadProfile.named("metal-quick", Workload.dataFolder());
    Properties props = WorkloadReportSmokeTest.run(p, out);
    List<WorkloadResult> rows =
        Files.readAllLines(out.resolve("workload-results.csv")).stream()
            .skip(1)
            .map(WorkloadResult::parse)
            .toList();
    boolean gcc = CContender.onPath(System.getProperty("workload.cc", "gcc")).isPresent();
    String differ = props.getProperty("c.differ", "");
    List<String> missing = List.of(props.getProperty("c.missing", "").split(","));
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
          if (!gcc) {
            assertTrue(!timed, "a C time without gcc: " + key);
          } else if (missing.contains(rule)) {
            // A rule the C program does not have (the rules added after it): no C time, and
            // named as missing rather than as differing.
            assertTrue(!timed && !differ.contains(key + " ("), "a C result for " + key);
          } else if (rule.equals("scinol2") || rule.equals("adagrad")) {
            assertTrue(timed, "no checked C time for " + key + "; differing: " + differ);
          } else {
            assertTrue(
                timed != differ.contains(key + " ("),
                key + " must be timed or listed as differing, not both");
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
