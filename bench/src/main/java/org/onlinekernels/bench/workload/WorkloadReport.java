package org.onlinekernels.bench.workload;

import static org.onlinekernels.bench.report.MachineInfo.elapsed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.onlinekernels.bench.job.JobVsVw;
import org.onlinekernels.bench.job.VwSynthetic;
import org.onlinekernels.bench.report.BenchReport;
import org.onlinekernels.bench.report.MachineInfo;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

/**
 * The workload report command: {@code WorkloadReport PROFILE|render OUTDIR [SPEC,SPEC...]} (a
 * {@link WorkloadProfile}: quick, full, metal, metal-quick) (the optional list runs only those
 * workloads, with the profile's settings). Builds and checks the C contender first ({@link CSide});
 * then for each workload of the profile, in turn, times the C loop and runs its library and
 * hand-written contenders ({@link WorkloadGrid}) and then the peers through JMH's Java API (so the
 * contenders of one workload run back to back and share the machine's state of that moment), stores
 * the results in {@code OUTDIR/workload-results.csv} and the circumstances in {@code
 * OUTDIR/workload-run.properties}, then writes {@code OUTDIR/workload.md} and its charts ({@link
 * WorkloadReportWriter}). {@code render} only re-renders. JMH's logs go to {@code OUTDIR/tmp/}.
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
      beside(p, out);
    }
    WorkloadReportWriter.write(out);
    System.out.println("wrote " + out.resolve("workload.md"));
  }

  /**
   * The whole job beside Vowpal Wabbit ({@link JobVsVw}): VW from the system property {@code
   * onlinekernels.vw}, {@code $VW} or the PATH, on the synthetic file ({@link VwSynthetic},
   * written once into {@code out/tmp/}), against the launcher {@code bin/online-kernels}; 3 runs
   * per pair in the full profiles, 1 in the others. Without VW the report says it was skipped.
   */
  static void beside(WorkloadProfile p, Path out) throws IOException, InterruptedException {
    Optional<Path> vw = JobVsVw.findVw(System.getProperty("onlinekernels.vw"));
    Path data = out.resolve("tmp").resolve("synthetic.vw");
    if (vw.isPresent() && !Files.exists(data)) {
      VwSynthetic.write(data, 1_000_000, 35);
    }
    int runs = p.name().contains("quick") ? 1 : 3;
    JobVsVw.measure(vw, data, root().resolve("bin/online-kernels"), runs, null, out);
  }

  /**
   * The repository's top directory: the system property {@code onlinekernels.root} (set by the
   * report command), else the data folder's parent (the data sets live in the repository's {@code
   * data/}; surefire sets that folder).
   */
  public static Path root() {
    String root = System.getProperty("onlinekernels.root");
    Path p = root != null ? Path.of(root) : Workload.dataFolder().toAbsolutePath().getParent();
    return p.toAbsolutePath().normalize();
  }

  /**
   * Runs {@code p} and stores its results and circumstances in {@code out}: first which of its
   * rules cost O(d) per row ({@link RowCost}), the C contender's build and check ({@link CSide}),
   * then per workload the C loop's timings and the JMH batches of its {@link WorkloadGrid}, then
   * the peers.
   *
   * @throws IllegalStateException if the C contender's loss differs from the library's
   */
  public static void run(WorkloadProfile p, Path out) throws IOException {
    Files.createDirectories(out.resolve("tmp"));
    long start = System.nanoTime();
    Path data = Workload.dataFolder().toAbsolutePath();
    Properties props = MachineInfo.runProperties(p.name());
    props.setProperty("nonzeros", Long.toString(p.nonzeros()));
    props.setProperty("pages", PagePolicy.describe());
    props.setProperty("clock", clock());
    props.setProperty("contenders", System.getProperty("workload.contenders", ""));
    props.setProperty("jvm.args.extra", String.join(" ", extraJvmArgs()));
    props.setProperty("c.flags.extra", String.join(" ", CContender.extraFlags()));
    props.setProperty("warm.seconds", System.getProperty(WorkloadBench.WARM_SECONDS, ""));
    props.setProperty("every.rule", String.join(",", p.everyRule()));
    props.setProperty(
        "jmh.settings",
        String.format(
            "Mode.SampleTime (every pass timed; figures are the median pass), one operation = one full pass from a fresh "
                + "model (reset untimed, Level.Invocation); "
                + "trial set-up trains each contender on %d rows x outputs first (or 3 passes of nonzeros; peers 1); "
                + "%d fork(s) per combination; library and hand-written contenders %d warm-up + %d measured iterations of "
                + "%d ms (at least one pass each); Tribuo and MOA %d + %d iterations of one pass or more; "
                + "fork JVM args: %s",
            p.jmh().warmRows(),
            forks(p.jmh().forks()),
            p.jmh().warmups(),
            p.jmh().measurements(),
            p.jmh().iterationMillis(),
            p.jmh().peerWarmups(),
            p.jmh().peerMeasurements(),
            String.join(" ", jvmArgs())));
    Set<String> dense = new TreeSet<>();
    List<String> costs = new ArrayList<>();
    for (String rule : p.rules()) {
      double x = RowCost.slowdown(rule);
      costs.add(rule + String.format(Locale.ROOT, " %.1fx", x));
      if (RowCost.dense(x)) dense.add(rule);
    }
    props.setProperty("rules.slowdown", String.join(", ", costs));
    props.setProperty("rules.dense", String.join(",", dense));
    System.out.printf("[%s] rules that cost O(d) per row: %s%n", elapsed(start), dense);
    Map<String, Shape> shapes = new LinkedHashMap<>();
    for (String w : p.workloads()) shapes.put(w, Shape.of(w, p.nonzeros(), data));
    Optional<CContender> built = p.cRepeat() > 0 ? CSide.build(root()) : Optional.empty();
    Map<String, WorkloadGrid> grids = new LinkedHashMap<>();
    shapes.forEach((w, s) -> grids.put(w, WorkloadGrid.of(p, w, s, dense, CSide.rules(built))));
    Optional<CSide> c =
        p.cRepeat() > 0 ? CSide.check(built, p, grids, root(), out, props) : Optional.empty();
    if (p.cRepeat() == 0) {
      props.setProperty("c.status", "not in profile " + p.name());
    } else {
      System.out.printf("[%s] C contender: %s%n", elapsed(start), props.get("c.status"));
    }
    List<String> noC =
        p.rules().stream()
            .filter(r -> built.isPresent() && !built.get().rules().contains(r))
            .toList();
    props.setProperty("c.missing", String.join(",", noC));
    props.setProperty(
        "c.unported", String.join("; ", built.map(CContender::unported).orElse(List.of())));
    List<WorkloadResult> results = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    int wi = 0;
    for (String w : p.workloads()) {
      wi++;
      Shape shape = shapes.get(w);
      WorkloadGrid g = grids.get(w);
      System.out.printf(
          "[%s] workload %d/%d %s: %s%d JMH forks%s%n",
          elapsed(start),
          wi,
          p.workloads().size(),
          w,
          c.isPresent() ? "C, " : "",
          keptForks(g) * Math.max(1, forks(p.jmh().forks())),
          p.peers() ? ", peers" : "");
      if (c.isPresent()) results.addAll(c.get().time(w, shape, g));
      int bi = 0;
      for (WorkloadGrid.Batch b : g.batches()) {
        List<String> contenders = only(b.contenders());
        if (contenders.isEmpty()) {
          continue;
        }
        ChainedOptionsBuilder o =
            options(p, w, "pass", false)
                .param("contender", contenders.toArray(String[]::new))
                .param("algo", b.rules().toArray(String[]::new))
                .param("type", b.types().toArray(String[]::new));
        runJmh(
            o,
            out.resolve("tmp").resolve("workload-" + wi + "-" + (++bi) + ".log"),
            shape,
            w,
            results,
            failed);
      }
      if (!p.peers()) {
        continue;
      }
      String[] peers =
          w.startsWith("file:") ? new String[] {"tribuo", "moa"} : new String[] {"tribuo"};
      runJmh(
          options(p, w, "peer", true).param("peer", peers),
          out.resolve("tmp").resolve("workload-" + wi + "-peers.log"),
          shape,
          w,
          results,
          failed);
    }
    props.setProperty("failed", String.join(" | ", failed));
    props.setProperty("wall.seconds", Long.toString((System.nanoTime() - start) / 1_000_000_000L));
    props.setProperty("loadavg.end", MachineInfo.collect().getOrDefault("loadavg", "?").toString());
    List<String> lines = new ArrayList<>();
    lines.add(WorkloadResult.HEADER);
    results.forEach(r -> lines.add(r.csv()));
    Files.write(out.resolve("workload-results.csv"), lines);
    try (var wr = Files.newBufferedWriter(out.resolve("workload-run.properties"))) {
      props.store(wr, "circumstances of the run that produced workload-results.csv");
    }
    System.out.printf("[%s] %d results%n", elapsed(start), results.size());
  }

  /**
   * The report's clock, the system property {@code workload.clock}: {@code wall} (JMH's median
   * pass, the default) or {@code cpu} (the mean thread CPU time per pass, {@link
   * WorkloadBench.Cpu}, for a loaded machine). Both are measured and stored either way.
   */
  static String clock() {
    String c = System.getProperty("workload.clock", "wall");
    if (!c.equals("wall") && !c.equals("cpu")) {
      throw new IllegalArgumentException("workload.clock must be wall or cpu, got " + c);
    }
    return c;
  }

  /**
   * JMH options of one batch on workload {@code w} (the benchmark method {@code pass} or {@code
   * peer}).
   */
  private static ChainedOptionsBuilder options(
      WorkloadProfile p, String w, String method, boolean peer) {
    WorkloadProfile.Jmh j = p.jmh();
    return new OptionsBuilder()
        .include("org\\.onlinekernels\\.bench\\.workload\\.WorkloadBench\\." + method + "$")
        .param("workload", w)
        .param("nonzeros", Long.toString(p.nonzeros()))
        .param("warmRows", Long.toString(j.warmRows()))
        .mode(Mode.SampleTime)
        .timeUnit(TimeUnit.MILLISECONDS)
        .forks(forks(j.forks()))
        .warmupIterations(peer ? j.peerWarmups() : j.warmups())
        .measurementIterations(peer ? j.peerMeasurements() : j.measurements())
        .warmupTime(TimeValue.milliseconds(j.iterationMillis()))
        .measurementTime(TimeValue.milliseconds(j.iterationMillis()))
        .jvmArgsAppend(jvmArgs())
        .shouldFailOnError(false);
  }

  /**
   * The contenders of {@code batch} that {@code workload.contenders} (a comma-separated list, for
   * studies that time a few of them) keeps; all of them when it is empty.
   */
  static List<String> only(List<String> batch) {
    String keep = System.getProperty("workload.contenders", "").trim();
    if (keep.isEmpty()) {
      return batch;
    }
    List<String> k = List.of(keep.split(","));
    return batch.stream().filter(k::contains).toList();
  }

  /** The grid's JMH combinations that {@link #only} keeps (the progress line's fork count). */
  static int keptForks(WorkloadGrid g) {
    return g.batches().stream()
        .mapToInt(b -> only(b.contenders()).size() * b.rules().size() * b.types().size())
        .sum();
  }

  /**
   * JMH forks per combination: {@code workload.forks} when it names a number of at least 1 (more
   * forks for a study whose single forks moved more than the difference it measures), else the
   * profile's {@code forks} (0, the smoke tests' in-process run, stays 0).
   */
  static int forks(int profileForks) {
    String f = System.getProperty("workload.forks", "").trim();
    if (f.isEmpty() || profileForks == 0) {
      return profileForks;
    }
    int n = Integer.parseInt(f);
    if (n < 1) {
      throw new IllegalArgumentException("workload.forks must be at least 1, got " + f);
    }
    return n;
  }

  /**
   * The forks' JVM options: the vector module, the heap, the data, the page policy, the rounds'
   * record loads if {@code workload.gather} names them, the trainer's kernel handover if {@code
   * workload.handover} names it, the trainer contenders' set-up seconds if {@code
   * workload.warmSeconds} names them ({@link WorkloadBench#WARM_SECONDS}), then {@link
   * #extraJvmArgs}.
   */
  static String[] jvmArgs() {
    List<String> a =
        new ArrayList<>(
            List.of(
                "--add-modules",
                "jdk.incubator.vector",
                "-Xmx3g",
                "-Donlinekernels.data=" + Workload.dataFolder().toAbsolutePath()));
    a.addAll(PagePolicy.jvmOptions());
    // How the library's gathered rounds load records (RoundTuning), for A/B runs of issue #38.
    String gather = System.getProperty("workload.gather", "");
    if (!gather.isBlank()) {
      a.add("-Donlinekernels.rounds.gather=" + gather);
    }
    // The trainer's scalar-to-vector handover (KernelHandover): its default keeps a fresh trainer's
    // short passes on the scalar kernels; "off" times the kernels a long run ends on (issue #38).
    String handover = System.getProperty("workload.handover", "");
    if (!handover.isBlank()) {
      a.add("-Donlinekernels.handover=" + handover);
    }
    // The trainer contenders' longer set-up: a JVM that has trained before (issue #38).
    String warm = System.getProperty(WorkloadBench.WARM_SECONDS, "");
    if (!warm.isBlank()) {
      a.add("-D" + WorkloadBench.WARM_SECONDS + "=" + warm.trim());
    }
    a.addAll(extraJvmArgs());
    return a.toArray(String[]::new);
  }

  /**
   * The system property {@code workload.jvmArgs} split at white space: JVM options for the forks
   * and the C check's JVM, e.g. {@code -XX:UseAVX=2} for the 256-bit side of issue #38 (the lab's
   * exec@metal-streams gives them to the report's own JVM too, so that its vector width row says
   * what the forks ran at).
   */
  static List<String> extraJvmArgs() {
    String x = System.getProperty("workload.jvmArgs", "").strip();
    return x.isEmpty() ? List.of() : List.of(x.split("\\s+"));
  }

  private static void runJmh(
      ChainedOptionsBuilder o,
      Path log,
      Shape shape,
      String w,
      List<WorkloadResult> results,
      List<String> failed) {
    try {
      Collection<RunResult> rr = new Runner(o.output(log.toString()).build()).run();
      for (RunResult r : rr) results.add(result(r, shape));
      failed.addAll(BenchReport.failures(log));
    } catch (RunnerException | IOException | RuntimeException e) {
      failed.add(w + " (" + log.getFileName() + "): " + e.getMessage());
      System.out.println("  FAILED: " + e.getMessage());
    }
  }

  /**
   * Rows, nonzeros, dimension and outputs of one pass over a workload, without generating a stream.
   */
  record Shape(long rows, long nonzeros, int d, int outputs) {
    static Shape of(String spec, long nonzeros, Path dataDir) throws IOException {
      String[] p = spec.split(":");
      if (p[0].equals("file")) {
        SparseDataset d = LibSvmReader.read(dataDir.resolve(p[1]));
        return new Shape(
            d.size(),
            d.totalNonZeros(),
            Math.max(1, d.dimension()),
            d.isBinary() ? 1 : d.numClasses());
      }
      int nnz = Integer.parseInt(p[2]);
      long rows = Math.max(1, nonzeros / nnz);
      return new Shape(rows, rows * nnz, 1 << Integer.parseInt(p[1]), 1);
    }
  }

  private static WorkloadResult result(RunResult r, Shape s) {
    BenchmarkParams bp = r.getParams();
    String peer = bp.getParam("peer");
    String contender = peer != null ? peer : bp.getParam("contender");
    String algo = peer != null ? (peer.equals("moa") ? "sgd" : "adagrad") : bp.getParam("algo");
    String type = peer != null ? "double" : bp.getParam("type");
    Statistics st = r.getPrimaryResult().getStatistics();
    Result<?> cpuMs = r.getSecondaryResults().get("cpuMs");
    Result<?> passes = r.getSecondaryResults().get("cpuPasses");
    double cpu =
        cpuMs == null || passes == null
            ? Double.NaN
            : cpuMs.getStatistics().getSum() / passes.getStatistics().getSum();
    return new WorkloadResult(
        bp.getParam("workload"),
        contender,
        algo,
        type,
        s.rows(),
        s.nonzeros(),
        s.outputs(),
        r.getPrimaryResult().getScore(),
        r.getPrimaryResult().getScoreError(),
        st.getMin(),
        st.getPercentile(50),
        st.getMax(),
        (int) st.getN(),
        cpu);
  }
}
