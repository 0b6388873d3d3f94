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

/**
 * The {@code quick} workload profile through JMH in this JVM (no forks), then the report: every
 * contender posts a time on every workload (each pass checked by the benchmark itself), nothing
 * failed, and the page, its fit table and its charts are written. So the benchmark and its report
 * cannot rot. Takes seconds.
 */
@Tag("long")
class WorkloadReportSmokeTest {
  /**
   * Runs {@code p} into {@code out} and returns the run's properties, after checking that nothing
   * failed.
   */
  static Properties run(WorkloadProfile p, Path out) throws Exception {
    System.setProperty("java.awt.headless", "true");
    // JMH's machine-wide lock keeps two benchmark runs from timing each other; this run's times do
    // not matter, and it must not fail because someone is benchmarking on the same machine.
    System.setProperty("jmh.ignoreLock", "true");
    WorkloadReport.run(p, out);
    Properties props = new Properties();
    try (var r = Files.newBufferedReader(out.resolve("workload-run.properties"))) {
      props.load(r);
    }
    assertEquals(
        "", props.getProperty("failed"), "failed benchmarks (see " + out.resolve("tmp") + ")");
    return props;
  }

  /** The results {@link #run} stored in {@code out}. */
  static List<WorkloadResult> results(Path out) throws Exception {
    return WorkloadResult.read(out);
  }

  /**
   * The most thread CPU time a pass may post against the slowest wall pass: double, for the two
   * clocks' disagreement (see the check).
   */
  private static final double ONE_PASS = 2;

  @Test
  void quickProfileRunsEveryContenderAndWritesTheReport(@TempDir Path out) throws Exception {
    WorkloadProfile p = WorkloadProfile.named("quick", Workload.dataFolder());
    Properties props = run(p, out);
    List<String> csv = Files.readAllLines(out.resolve("workload-results.csv"));
    // Per workload: hand and the trainer (both policies) x 2 rules x 2 types, per-call, rounds and
    // rounds-buffers x 2 rules in float, Tribuo; MOA on files; no C loop in this profile.
    long files = p.workloads().stream().filter(w -> w.startsWith("file:")).count();
    assertEquals(
        p.workloads().size() * (12 + 6 + 1) + files, csv.size() - 1, String.join("\n", csv));
    assertEquals("not in profile quick", props.getProperty("c.status"));
    for (String l : csv.subList(1, csv.size())) {
      WorkloadResult r = WorkloadResult.parse(l);
      assertTrue(r.msMedian() > 0 && Double.isFinite(r.examplesPerSecond()), l);
      // Thread CPU time of the same passes: measured, and per pass, not per iteration: a clock
      // window that spanned several passes (the per-invocation set-up and tear-down wired at
      // another level) would post several passes' time. What the clock counts (the pass, on this
      // thread only) is WorkloadCpuClockTest's: the thread CPU clock and the wall clock disagree
      // too much on a loaded virtual machine to be compared closely (the CPU clock ran well ahead
      // of the wall clock over single passes), so the bound here is a pass and its double.
      assertTrue(r.cpuMs() > 0 && r.cpuMs() <= r.msMax() * ONE_PASS, "cpu_ms: " + l);
    }
    WorkloadReportWriter.write(out);
    String md = Files.readString(out.resolve("workload.md"));
    for (String s :
        new String[] {
          "## Headline",
          "## Fit time per row",
          "## Every figure",
          "zipf, d = 2^14 | hand scinol2 float"
        }) {
      assertTrue(md.contains(s), "workload.md lacks " + s);
    }
    assertTrue(Files.size(out.resolve("workload-zipf-14.png")) > 1000);
    // The same results on the CPU clock: the page says so and shows the CPU figures.
    Path run = out.resolve("workload-run.properties");
    Files.writeString(run, Files.readString(run) + "clock=cpu\n");
    WorkloadReportWriter.write(out);
    String cpu = Files.readString(out.resolve("workload.md"));
    assertTrue(cpu.contains("**thread CPU time**"), "the CPU-clock page does not say so");
    assertTrue(!cpu.equals(md), "the CPU-clock page shows the wall-clock figures");
    // A rule the C generator could not port is listed with why, not failed.
    Files.writeString(run, Files.readString(run) + "c.unported=Odd\\: no hooks file\n");
    WorkloadReportWriter.write(out);
    assertTrue(
        Files.readString(out.resolve("workload.md"))
            .contains("| Rules the C generator could not port | Odd: no hooks file |"),
        "the page does not list the rule the C generator could not port");
  }
}
