package org.onlinekernels.bench.job;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.onlinekernels.bench.report.MachineInfo;

/**
 * The whole job beside Vowpal Wabbit (issue #35): VW and our command line on the same VW text file,
 * one pass in file order, logistic loss, 2^22 weights, the same index for every feature name (VW
 * {@code --hash all --noconstant}, ours {@code --hash unsigned}; the file carries its own bias
 * feature), for each pair of {@link #PAIRS}; runs alternate (VW, ours, VW, ...) so that load hits
 * both, each timed by GNU time ({@code /usr/bin/time -v}): CPU seconds (user + sys), wall seconds,
 * max RSS, and the progressive loss each program prints. The results go to {@code
 * OUTDIR/workload-vw.csv}; {@link #section} renders them into the workload report. Without a VW
 * binary (none given, {@code $VW} unset and no {@code vw} on the PATH) or without GNU time the runs
 * are skipped and the reason is written instead ({@code OUTDIR/workload-vw-skipped.txt}). VW is
 * never built here.
 *
 * <p>Usage: {@code JobVsVw OUTDIR DATA.vw OURS [--vw PATH] [--runs R] [--heap SIZE]}, {@code OURS}
 * the command line's launcher ({@code bin/online-kernels}).
 */
public final class JobVsVw {
  private JobVsVw() {}

  /** A rule pair: VW's flags (none: its default, ScInOL2-like adaptive SGD) and our rule. */
  public record Pair(String vwFlags, String ours) {}

  /** The pairs of the issue: FTRL, FreeGrad, and VW's default against ScInOL2. */
  public static final List<Pair> PAIRS =
      List.of(
          new Pair("--ftrl", "ftrl"), new Pair("--freegrad", "freegrad"), new Pair("", "scinol2"));

  /** One timed run: which program and rule, CPU and wall seconds, max RSS (MB), loss or "?". */
  public record Run(
      String program, String rule, double cpu, double wall, double rssMb, String loss) {
    String csv() {
      return String.format(
          Locale.ROOT, "%s,%s,%.2f,%.2f,%.0f,%s", program, rule, cpu, wall, rssMb, loss);
    }

    static Run parse(String line) {
      String[] f = line.split(",", -1);
      return new Run(
          f[0],
          f[1],
          Double.parseDouble(f[2]),
          Double.parseDouble(f[3]),
          Double.parseDouble(f[4]),
          f[5]);
    }
  }

  static final String CSV = "workload-vw.csv";
  static final String SKIPPED = "workload-vw-skipped.txt";
  static final Path GNU_TIME = Path.of("/usr/bin/time");

  /**
   * The VW binary: {@code given} if not null, else {@code $VW}, else {@code vw} on the PATH.
   *
   * @throws IllegalArgumentException if a given (or {@code $VW}) path is not an executable file
   */
  public static Optional<Path> findVw(String given) {
    String named = given != null ? given : System.getenv("VW");
    if (named != null && !named.isBlank()) {
      Path p = Path.of(named);
      if (!Files.isRegularFile(p) || !Files.isExecutable(p)) {
        throw new IllegalArgumentException("vw binary " + named + " is not an executable file");
      }
      return Optional.of(p);
    }
    return MachineInfo.program("vw");
  }

  /**
   * Runs every pair {@code runs} times on {@code data} (VW then ours, in turn) and writes {@code
   * out/workload-vw.csv}; or, without {@code vw} or GNU time, writes why to {@code
   * out/workload-vw-skipped.txt}. Progress goes to stderr.
   *
   * @param heap our JVM's {@code -Xmx} (e.g. {@code 128m}), or null for the launcher's default
   */
  public static void measure(
      Optional<Path> vw, Path data, Path ours, int runs, String heap, Path out)
      throws IOException, InterruptedException {
    Files.createDirectories(out);
    Files.deleteIfExists(out.resolve(CSV));
    Files.deleteIfExists(out.resolve(SKIPPED));
    String why =
        vw.isEmpty()
            ? "no vw binary (give --vw PATH, set VW, or put vw on the PATH)"
            : !Files.isExecutable(GNU_TIME)
                ? "no GNU time at " + GNU_TIME + " (apt-get install time)"
                : null;
    if (why != null) {
      Files.writeString(out.resolve(SKIPPED), "VW skipped: " + why + ".\n");
      System.err.println("job-vs-vw: VW skipped: " + why);
      return;
    }
    List<String> lines = new ArrayList<>(List.of("program,rule,cpu_s,wall_s,rss_mb,loss"));
    for (int r = 1; r <= runs; r++) {
      for (Pair p : PAIRS) {
        List<String> v =
            new ArrayList<>(
                List.of(
                    vw.get().toString(),
                    "-d",
                    data.toString(),
                    "--hash",
                    "all",
                    "--noconstant",
                    "-b",
                    "22",
                    "--loss_function",
                    "logistic",
                    "--no_stdin"));
        if (!p.vwFlags().isEmpty()) {
          v.add(p.vwFlags());
        }
        lines.add(time("vw", p.vwFlags().isEmpty() ? "default" : p.vwFlags(), v, null, out).csv());
        List<String> o =
            List.of(
                ours.toString(),
                "train",
                "--data",
                data.toString(),
                "--format",
                "vw",
                "--bits",
                "22",
                "--hash",
                "unsigned",
                "--no-shuffle",
                "--algorithm",
                p.ours(),
                "--loss",
                "logistic",
                "--json");
        lines.add(time("ours", p.ours(), o, heap == null ? null : "-Xmx" + heap, out).csv());
      }
    }
    Files.write(out.resolve(CSV), lines, StandardCharsets.UTF_8);
  }

  private static final Pattern VW_LOSS = Pattern.compile("(?m)^average loss = ([0-9.eE+-]+)");
  private static final Pattern OUR_LOSS =
      Pattern.compile("\"progressive\": ?\\{[^}]*\"loss\": ?([0-9.eE+-]+)");

  /** One run of {@code cmd} under GNU time. */
  static Run time(String program, String rule, List<String> cmd, String javaOpts, Path out)
      throws IOException, InterruptedException {
    Path timeFile = out.resolve("tmp-vw-time.txt");
    Path stdout = out.resolve("tmp-vw-stdout.txt");
    Path stderr = out.resolve("tmp-vw-stderr.txt");
    List<String> full =
        new ArrayList<>(List.of(GNU_TIME.toString(), "-v", "-o", timeFile.toString()));
    full.addAll(cmd);
    ProcessBuilder pb =
        new ProcessBuilder(full).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
    if (javaOpts != null) {
      pb.environment().put("ONLINE_KERNELS_JAVA_OPTS", javaOpts);
    }
    Process proc = pb.start();
    if (!proc.waitFor(30, TimeUnit.MINUTES)) {
      proc.descendants().forEach(ProcessHandle::destroyForcibly);
      proc.destroyForcibly();
      throw new IOException(program + " " + rule + " ran for more than 30 minutes");
    }
    String err = Files.readString(stderr, StandardCharsets.UTF_8);
    if (proc.exitValue() != 0) {
      throw new IOException(
          program + " " + rule + " failed (exit " + proc.exitValue() + "): " + tail(err));
    }
    Map<String, String> t = new LinkedHashMap<>();
    for (String l : Files.readAllLines(timeFile, StandardCharsets.UTF_8)) {
      int colon = l.lastIndexOf(": ");
      if (colon > 0) {
        t.put(l.substring(0, colon).strip(), l.substring(colon + 2).strip());
      }
    }
    double cpu =
        Double.parseDouble(t.get("User time (seconds)"))
            + Double.parseDouble(t.get("System time (seconds)"));
    double wall = seconds(t.get("Elapsed (wall clock) time (h:mm:ss or m:ss)"));
    double rss = Double.parseDouble(t.get("Maximum resident set size (kbytes)")) / 1024;
    Matcher m =
        program.equals("vw")
            ? VW_LOSS.matcher(err)
            : OUR_LOSS.matcher(Files.readString(stdout, StandardCharsets.UTF_8));
    String loss = "?";
    while (m.find()) {
      loss = m.group(1);
    }
    Run run = new Run(program, rule, cpu, wall, rss, loss);
    System.err.println("  " + run.csv());
    Files.deleteIfExists(timeFile);
    Files.deleteIfExists(stdout);
    Files.deleteIfExists(stderr);
    return run;
  }

  /** GNU time's elapsed time, {@code h:mm:ss} or {@code m:ss.ss}, in seconds. */
  static double seconds(String hms) {
    double s = 0;
    for (String part : hms.split(":")) {
      s = s * 60 + Double.parseDouble(part);
    }
    return s;
  }

  private static String tail(String s) {
    String[] l = s.strip().split("\n");
    return String.join(" / ", Arrays.copyOfRange(l, Math.max(0, l.length - 3), l.length));
  }

  /**
   * The report's section on the whole job beside VW, from {@code dir}'s results: per pair and
   * program the median and range of CPU seconds, wall seconds and max RSS, the progressive loss,
   * and our CPU and wall over VW's; or the reason the runs were skipped; nothing if neither file is
   * there (the runs were not asked for).
   */
  public static void section(StringBuilder md, Path dir) throws IOException {
    Path skipped = dir.resolve(SKIPPED);
    Path csv = dir.resolve(CSV);
    if (!Files.exists(csv) && !Files.exists(skipped)) {
      return;
    }
    md.append("## The whole job beside Vowpal Wabbit\n\n");
    if (!Files.exists(csv)) {
      md.append(Files.readString(skipped).strip()).append("\n\n");
      return;
    }
    md.append(
        "One pass in file order over the same VW file, logistic loss, 2^22 weights (VW `--hash all"
            + " --noconstant -b 22`, ours `--hash unsigned --no-shuffle`); runs alternate; median"
            + " [range] of the runs; `x VW`: our median over VW's.\n\n");
    md.append(
        "| VW | ours | VW CPU s | our CPU s | x VW | VW wall s | our wall s | x VW | VW max RSS MB"
            + " | our max RSS MB | VW loss | our loss |\n");
    md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
    List<Run> runs =
        Files.readAllLines(csv).stream().skip(1).filter(l -> !l.isBlank()).map(Run::parse).toList();
    for (Pair p : PAIRS) {
      String vwRule = p.vwFlags().isEmpty() ? "default" : p.vwFlags();
      List<Run> v =
          runs.stream().filter(r -> r.program().equals("vw") && r.rule().equals(vwRule)).toList();
      List<Run> o =
          runs.stream()
              .filter(r -> r.program().equals("ours") && r.rule().equals(p.ours()))
              .toList();
      if (v.isEmpty() || o.isEmpty()) {
        continue;
      }
      md.append("| `").append(vwRule).append("` | ").append(p.ours());
      cell(md, v, o, Run::cpu, true);
      cell(md, v, o, Run::wall, true);
      cell(md, v, o, Run::rssMb, false);
      md.append(" | ").append(v.getLast().loss()).append(" | ").append(o.getLast().loss());
      md.append(" |\n");
    }
    md.append("\n");
  }

  private static void cell(
      StringBuilder md,
      List<Run> v,
      List<Run> o,
      java.util.function.ToDoubleFunction<Run> f,
      boolean ratio) {
    double[] a = v.stream().mapToDouble(f).sorted().toArray();
    double[] b = o.stream().mapToDouble(f).sorted().toArray();
    md.append(" | ").append(spread(a)).append(" | ").append(spread(b));
    if (ratio) {
      md.append(" | ").append(String.format(Locale.ROOT, "%.2fx", median(b) / median(a)));
    }
  }

  private static String spread(double[] sorted) {
    String m = String.format(Locale.ROOT, "%.2f", median(sorted));
    return sorted.length == 1
        ? m
        : String.format(Locale.ROOT, "%s [%.2f-%.2f]", m, sorted[0], sorted[sorted.length - 1]);
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** Entry point; see the class comment. Prints the section on stdout. */
  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: JobVsVw OUTDIR DATA.vw OURS [--vw PATH] [--runs R] [--heap SIZE]");
      System.exit(2);
    }
    Path out = Path.of(args[0]);
    String vw = null;
    String heap = null;
    int runs = 3;
    for (int i = 3; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--vw" -> vw = args[i + 1];
        case "--runs" -> runs = Integer.parseInt(args[i + 1]);
        case "--heap" -> heap = args[i + 1].isEmpty() ? null : args[i + 1];
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    measure(findVw(vw), Path.of(args[1]), Path.of(args[2]), runs, heap, out);
    StringBuilder md = new StringBuilder();
    section(md, out);
    System.out.print(md);
  }
}
