package org.onlinekernels.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.bench.report.MachineInfo;
import org.onlinekernels.rules.Rules;

/**
 * The {@code metal-rules-quick} profile (issue #38's campaign) end to end in this JVM, with the
 * campaign's {@code workload.contenders=trainer-trusted}: every rule of the registry runs on both
 * streams as the trusted trainer and, with gcc, as the C loop (checked bit for bit first), and
 * nothing else runs (no hand loop, no other library path); the comparison page of the run against
 * itself then finds every cell complete and none slower. A lab test: only the lab's build runs it.
 */
@Tag("long")
class MetalRulesSmokeTest {
  @Test
  void everyRuleRunsAsTheTrustedTrainerAndTheCLoopOnly(@TempDir Path out) throws Exception {
    WorkloadProfile p = MetalStreams.named("metal-rules-quick");
    System.setProperty("java.awt.headless", "true");
    System.setProperty("jmh.ignoreLock", "true");
    System.setProperty("workload.contenders", DesignCells.CONTENDER);
    try {
      WorkloadReport.run(p, out);
    } finally {
      System.clearProperty("workload.contenders");
    }
    Properties props = new Properties();
    try (var r = Files.newBufferedReader(out.resolve("workload-run.properties"))) {
      props.load(r);
    }
    assertEquals("", props.getProperty("failed"), "failed benchmarks (see " + out + "/tmp)");
    assertEquals(DesignCells.CONTENDER, props.getProperty("contenders"));
    List<WorkloadResult> rows = WorkloadResult.read(out);
    boolean gcc = MachineInfo.program(System.getProperty("workload.cc", "gcc")).isPresent();
    int rules = Rules.names().size();
    Set<String> contenders =
        rows.stream().map(WorkloadResult::contender).collect(Collectors.toSet());
    assertEquals(
        gcc ? Set.of("c", DesignCells.CONTENDER) : Set.of(DesignCells.CONTENDER), contenders);
    assertEquals(p.workloads().size() * rules * (gcc ? 2 : 1), rows.size(), rows.toString());
    if (gcc) {
      int cases = p.workloads().size() * rules;
      assertEquals("", props.getProperty("c.differ"), "cases whose C bits differ");
      assertTrue(
          props.getProperty("c.check").startsWith(cases + " of " + cases + " "),
          "C check: " + props.get("c.check"));
    }
    Path page = out.resolve("compare.md");
    DesignComparison.write(out, out, page);
    DesignCells d = DesignCells.of(rows, rows);
    assertEquals(Rules.names().size(), d.rules().size());
    assertTrue(d.incomplete().isEmpty(), "cells without both figures: " + d.incomplete());
    assertTrue(d.slower().isEmpty());
    String md = Files.readString(page);
    assertTrue(md.contains("## Every rule x stream"), md);
    for (String rule : Rules.names()) {
      assertTrue(md.contains("| " + rule + " | zipf:14:40 | "), "no cell of " + rule);
    }
  }
}
