package org.onlinekernels.bench.report;

import static org.onlinekernels.bench.report.MachineInfo.elapsed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

/**
 * The report command: {@code BenchReport quick|full|render OUTDIR}. Runs the profile's benchmark
 * groups through JMH's Java API, stores every result in {@code OUTDIR/results.csv} and the run's
 * circumstances in {@code OUTDIR/run.properties}, then renders {@code OUTDIR/kernels.md} and the
 * charts ({@link ReportWriter}). {@code render} only re-renders from those two files. JMH's own log
 * goes to {@code OUTDIR/tmp/} (not committed).
 */
public final class BenchReport {
  private BenchReport() {}

  /** Entry point; see the class comment. */
  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    String profile = args.length > 0 ? args[0] : "quick";
    Path out = Path.of(args.length > 1 ? args[1] : "bench-report");
    Files.createDirectories(out.resolve("tmp"));
    if (!profile.equals("render")) {
      run(Profile.named(profile), out);
    }
    ReportWriter.write(out);
    System.out.println("wrote " + out.resolve("kernels.md"));
  }

  static void run(Profile p, Path out) throws IOException {
    long start = System.nanoTime();
    Properties props = MachineInfo.runProperties(p.name());
    props.setProperty(
        "jmh.settings",
        String.format(
            "%d fork(s) per configuration, %d warm-up iterations of %d ms, %d measurement iterations of %d ms, "
                + "Mode.AverageTime, fork JVM args: --add-modules jdk.incubator.vector -Xmx3g",
            p.forks(), p.warmups(), p.warmupMillis(), p.measurements(), p.iterationMillis()));
    List<Row> rows = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    int gi = 0;
    for (Profile.Group g : p.groups()) {
      gi++;
      Path log = out.resolve("tmp").resolve("jmh-" + gi + "-" + g.label() + ".log");
      ChainedOptionsBuilder o =
          new OptionsBuilder()
              .include("org\\.onlinekernels\\.bench\\.(" + g.regex() + ")$")
              .forks(p.forks())
              .warmupIterations(p.warmups())
              .measurementIterations(p.measurements())
              .warmupTime(TimeValue.milliseconds(p.warmupMillis()))
              .measurementTime(TimeValue.milliseconds(p.iterationMillis()))
              .timeUnit(TimeUnit.NANOSECONDS)
              .shouldFailOnError(false)
              .output(log.toString());
      for (Map.Entry<String, String[]> e : g.params().entrySet()) {
        o.param(e.getKey(), e.getValue());
      }
      System.out.printf(
          "[%s] group %d/%d %s: %s%n", elapsed(start), gi, p.groups().size(), g.label(), g.regex());
      try {
        Collection<RunResult> results = new Runner(o.build()).run();
        for (RunResult r : results) rows.add(row(g.label(), r));
        failed.addAll(failures(log));
      } catch (RunnerException | RuntimeException e) {
        // One broken benchmark must not hide the rest; the report lists the group as failed.
        failed.add(g.label() + " (" + g.regex() + "): " + e.getMessage());
        System.out.println("  FAILED: " + e.getMessage());
      }
    }
    props.setProperty("failed", String.join(" | ", failed));
    props.setProperty("wall.seconds", Long.toString((System.nanoTime() - start) / 1_000_000_000L));
    List<String> lines = new ArrayList<>();
    lines.add(Row.HEADER);
    rows.forEach(r -> lines.add(r.csv()));
    Files.write(out.resolve("results.csv"), lines);
    try (var w = Files.newBufferedWriter(out.resolve("run.properties"))) {
      props.store(w, "circumstances of the run that produced results.csv");
    }
    System.out.printf("[%s] %d results%n", elapsed(start), rows.size());
  }

  /**
   * Benchmarks whose check threw: JMH goes on with the rest of the group (so one broken kernel does
   * not hide the others) and posts no score for them; its log says which.
   */
  public static List<String> failures(Path log) throws IOException {
    List<String> out = new ArrayList<>();
    String bench = "";
    String params = "";
    for (String line : Files.readAllLines(log)) {
      if (line.startsWith("# Benchmark: "))
        bench = line.substring(13).replace("org.onlinekernels.bench.", "");
      if (line.startsWith("# Parameters: ")) params = line.substring(14);
      if (line.contains("<failure>")) {
        String f = bench + " " + params;
        if (!out.contains(f)) out.add(f);
      }
    }
    return out;
  }

  private static Row row(String group, RunResult r) {
    var params = r.getParams();
    // RuleBench's rows carry their rule: RuleBench.round:dfeg, RuleBench.step:aogd-ball.
    String rule =
        params.getParam("rule") != null ? params.getParam("rule") : params.getParam("stepRule");
    String bench =
        params.getBenchmark().replace("org.onlinekernels.bench.", "")
            + (rule == null ? "" : ":" + rule);
    long size = parseLong(params.getParam("d"), parseLong(params.getParam("n"), 0));
    int nnz = (int) parseLong(params.getParam("nnz"), 0);
    String type = orEmpty(params.getParam("type"));
    String impl = orEmpty(params.getParam("impl"));
    Result<?> pr = r.getPrimaryResult();
    Statistics st = pr.getStatistics();
    return new Row(
        group,
        bench,
        size,
        nnz,
        type,
        impl,
        pr.getScore(),
        pr.getScoreError(),
        st.getMin(),
        st.getPercentile(50),
        st.getMax(),
        (int) st.getN());
  }

  private static long parseLong(String s, long dflt) {
    return s == null ? dflt : Long.parseLong(s);
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
