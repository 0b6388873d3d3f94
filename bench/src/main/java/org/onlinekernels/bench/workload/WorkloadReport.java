package org.onlinekernels.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.onlinekernels.bench.report.BenchReport;
import org.onlinekernels.bench.report.MachineInfo;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

/**
 * The workload report command: {@code WorkloadReport quick|full|render OUTDIR [SPEC,SPEC...]}
 * (the optional list runs only those workloads, with the profile's settings). For each workload
 * of the profile, in turn, runs every library and hand-written contender and then the peers
 * through JMH's Java API (so the contenders of one workload run back to back and share the
 * machine's state of that moment), stores the results in {@code OUTDIR/workload-results.csv} and
 * the circumstances in {@code OUTDIR/workload-run.properties}, then writes
 * {@code OUTDIR/workload.md} and its charts ({@link WorkloadReportWriter}). {@code render} only
 * re-renders. JMH's logs go to {@code OUTDIR/tmp/}.
 */
public final class WorkloadReport {
  private WorkloadReport() {}

  /** Entry point; see the class comment. */
  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    String profile = args.length > 0 ? args[0] : "quick";
    Path out = Path.of(args.length > 1 ? args[1] : "bench-report");
    Files.createDirectories(out.resolve("tmp"));
    if (!profile.equals("render")) {
      WorkloadProfile p = WorkloadProfile.named(profile, Workload.dataFolder());
      if (args.length > 2 && !args[2].isBlank()) p = p.only(List.of(args[2].split(",")));
      run(p, out);
    }
    WorkloadReportWriter.write(out);
    System.out.println("wrote " + out.resolve("workload.md"));
  }

  /** Runs {@code p} and stores its results and circumstances in {@code out}. */
  public static void run(WorkloadProfile p, Path out) throws IOException {
    Files.createDirectories(out.resolve("tmp"));
    long start = System.nanoTime();
    Path dataDir = Workload.dataFolder().toAbsolutePath();
    Properties props = new Properties();
    props.putAll(MachineInfo.collect());
    props.setProperty("profile", p.name());
    props.setProperty("date", ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
    props.setProperty("nonzeros", Long.toString(p.nonzeros()));
    props.setProperty("jmh.settings", String.format(
        "Mode.SampleTime (every pass timed; figures are the median pass), one operation = one full pass from a fresh "
            + "model (reset untimed, Level.Invocation); "
            + "trial set-up trains each contender on %d rows x outputs first (or 3 passes of nonzeros; peers 1); "
            + "%d fork(s) per combination; library and hand-written contenders %d warm-up + %d measured iterations of "
            + "%d ms (at least one pass each); Tribuo and MOA %d + %d iterations of one pass or more; "
            + "fork JVM args: --add-modules jdk.incubator.vector -Xmx3g",
        p.warmRows(), p.forks(), p.warmups(), p.measurements(), p.iterationMillis(), p.peerWarmups(), p.peerMeasurements()));
    List<WorkloadResult> results = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    int wi = 0;
    for (String w : p.workloads()) {
      wi++;
      Shape shape = Shape.of(w, p.nonzeros(), dataDir);
      String[] peers = w.startsWith("file:") ? new String[] {"tribuo", "moa"} : new String[] {"tribuo"};
      for (boolean peer : new boolean[] {false, true}) {
        Path log = out.resolve("tmp").resolve("workload-" + wi + (peer ? "-peers" : "") + ".log");
        ChainedOptionsBuilder o = new OptionsBuilder()
            .include("org\\.onlinekernels\\.bench\\.workload\\.WorkloadBench\\." + (peer ? "peer" : "pass") + "$")
            .param("workload", w)
            .param("nonzeros", Long.toString(p.nonzeros()))
            .param("warmRows", Long.toString(p.warmRows()))
            .mode(Mode.SampleTime)
            .timeUnit(TimeUnit.MILLISECONDS)
            .forks(p.forks())
            .warmupIterations(peer ? p.peerWarmups() : p.warmups())
            .measurementIterations(peer ? p.peerMeasurements() : p.measurements())
            .warmupTime(TimeValue.milliseconds(p.iterationMillis()))
            .measurementTime(TimeValue.milliseconds(p.iterationMillis()))
            .jvmArgsAppend("--add-modules", "jdk.incubator.vector", "-Xmx3g", "-Donlinekernels.data=" + dataDir)
            .shouldFailOnError(false)
            .output(log.toString());
        if (peer) o.param("peer", peers);
        System.out.printf("[%s] workload %d/%d %s%s%n", elapsed(start), wi, p.workloads().size(), w, peer ? " (peers)" : "");
        try {
          Collection<RunResult> rr = new Runner(o.build()).run();
          for (RunResult r : rr) results.add(result(r, shape));
          failed.addAll(BenchReport.failures(log));
        } catch (RunnerException | RuntimeException e) {
          failed.add(w + (peer ? " peers" : "") + ": " + e.getMessage());
          System.out.println("  FAILED: " + e.getMessage());
        }
      }
    }
    props.setProperty("failed", String.join(" | ", failed));
    props.setProperty("wall.seconds", Long.toString((System.nanoTime() - start) / 1_000_000_000L));
    List<String> lines = new ArrayList<>();
    lines.add(WorkloadResult.HEADER);
    results.forEach(r -> lines.add(r.csv()));
    Files.write(out.resolve("workload-results.csv"), lines);
    try (var wr = Files.newBufferedWriter(out.resolve("workload-run.properties"))) {
      props.store(wr, "circumstances of the run that produced workload-results.csv");
    }
    System.out.printf("[%s] %d results%n", elapsed(start), results.size());
  }

  /** Rows, nonzeros and outputs of one pass over a workload, without generating a stream. */
  record Shape(long rows, long nonzeros, int outputs) {
    static Shape of(String spec, long nonzeros, Path dataDir) throws IOException {
      String[] p = spec.split(":");
      if (p[0].equals("file")) {
        SparseDataset d = LibSvmReader.read(dataDir.resolve(p[1]));
        return new Shape(d.size(), d.totalNonZeros(), d.isBinary() ? 1 : d.numClasses());
      }
      int nnz = Integer.parseInt(p[2]);
      long rows = Math.max(1, nonzeros / nnz);
      return new Shape(rows, rows * nnz, 1);
    }
  }

  private static WorkloadResult result(RunResult r, Shape s) {
    BenchmarkParams bp = r.getParams();
    String peer = bp.getParam("peer");
    String contender = peer != null ? peer : bp.getParam("contender");
    String algo = peer != null ? (peer.equals("moa") ? "sgd" : "adagrad") : bp.getParam("algo");
    String type = peer != null ? "double" : bp.getParam("type");
    Statistics st = r.getPrimaryResult().getStatistics();
    return new WorkloadResult(bp.getParam("workload"), contender, algo, type, s.rows(), s.nonzeros(), s.outputs(),
        r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError(), st.getMin(), st.getPercentile(50),
        st.getMax(), (int) st.getN());
  }

  private static String elapsed(long start) {
    long s = (System.nanoTime() - start) / 1_000_000_000L;
    return String.format("%d:%02d", s / 60, s % 60);
  }
}
