package org.onlinekernels.lab.coldstart;

import java.io.File;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.onlinekernels.bench.workload.Workload;

/**
 * The cold-start benchmark (bench-report/coldstart.md): every measurement in a fresh JVM, the
 * contenders interleaved run by run (the machine is shared: a burst of load hits every contender
 * alike), medians reported.
 *
 * <pre>
 *   mvn -q -Plab -pl lab -am compile exec:exec@coldstart-report -Dcoldstart.args="REPS CURVE_SECONDS"
 * </pre>
 *
 * Needs the jars ({@code bin/online-kernels} builds them on first use). Prints Markdown tables: the
 * cold one-pass {@code train} per file (command line: wall time of the whole process and the pass
 * time it reports; library and hand loop: the in-JVM pass from model construction to the end of the
 * pass, {@link ColdPass}), then examples/s over the first 0.1, 1 and 10 s.
 */
public final class ColdStartReport {
  private static final Pattern SECONDS = Pattern.compile("\"seconds\": ?([0-9.eE-]+)");
  private static final Pattern KV = Pattern.compile("([a-z_0-9.]+)=([0-9.eE+-]+)");

  private final Path home;
  private final Path dataDir;
  private final Path java;
  private final String classpath;

  private ColdStartReport(Path home, Path dataDir) {
    this.home = home;
    this.dataDir = dataDir;
    this.java = Path.of(System.getProperty("java.home"), "bin", "java");
    // Only the project's own classes (lab, bench and library): the dozens of dependency jars would
    // slow every start.
    this.classpath =
        home.resolve("lab/target/classes")
            + File.pathSeparator
            + home.resolve("bench/target/classes")
            + File.pathSeparator
            + home.resolve("library/target/classes");
  }

  /** {@code ColdStartReport HOME DATA_DIR REPS CURVE_SECONDS}. */
  public static void main(String[] args) throws Exception {
    ColdStartReport r = new ColdStartReport(Path.of(args[0]), Path.of(args[1]));
    int reps = Integer.parseInt(args[2]);
    double curveSeconds = Double.parseDouble(args[3]);
    System.out.println("load average at start: " + loadAverage());
    r.passes(reps);
    System.out.println("load average after the passes: " + loadAverage());
    r.curves(reps, curveSeconds);
    System.out.println("load average at the end: " + loadAverage());
  }

  /** One contender of the pass table: its command and the environment variables it adds. */
  private record Run(String name, List<String> command, Map<String, String> env) {}

  private void passes(int reps) throws Exception {
    Path synthetic = SyntheticFile.write(home.resolve("target/coldstart"));
    List<Path> files = new ArrayList<>();
    for (String spec : Workload.trainingFiles(dataDir)) {
      files.add(dataDir.resolve(spec.substring("file:".length())));
    }
    files.add(synthetic);
    String[] names = {
      "cli vector",
      "cli vector, no handover",
      "cli vector, no AOT cache",
      "cli scalar",
      "lib vector",
      "lib scalar",
      "hand loop"
    };
    Map<String, double[][]> wall = new LinkedHashMap<>();
    Map<String, double[][]> pass = new LinkedHashMap<>();
    for (String n : names) {
      wall.put(n, new double[files.size()][reps]);
      pass.put(n, new double[files.size()][reps]);
    }
    for (int rep = 0; rep < reps; rep++) {
      for (int f = 0; f < files.size(); f++) {
        Path file = files.get(f);
        List<Run> runs = passRuns(file);
        for (int k = 0; k < runs.size(); k++) {
          // Rotate the order run by run, so no contender always goes first after another's burst.
          Run run = runs.get((k + rep) % runs.size());
          long t0 = System.nanoTime();
          String out = exec(run.command(), run.env());
          double w = (System.nanoTime() - t0) / 1e9;
          wall.get(run.name())[f][rep] = w;
          pass.get(run.name())[f][rep] =
              run.name().startsWith("cli") ? group(SECONDS, out) : kv(out, "seconds");
        }
      }
      System.err.printf(Locale.ROOT, "pass table: repetition %d of %d done%n", rep + 1, reps);
    }
    System.out.println();
    System.out.println(
        "Cold one-pass train, median of "
            + reps
            + " fresh JVMs (seconds): pass time / whole process");
    System.out.println();
    StringBuilder head = new StringBuilder("| file |");
    StringBuilder rule = new StringBuilder("|---|");
    for (String n : names) {
      head.append(' ').append(n).append(" |");
      rule.append("---:|");
    }
    head.append(" cli vector / cli scalar (pass, wall) | lib vector / hand (pass) |");
    rule.append("---:|---:|");
    System.out.println(head);
    System.out.println(rule);
    for (int f = 0; f < files.size(); f++) {
      StringBuilder row = new StringBuilder("| " + files.get(f).getFileName() + " |");
      for (String n : names) {
        row.append(
            String.format(
                Locale.ROOT, " %.3f / %.3f |", median(pass.get(n)[f]), median(wall.get(n)[f])));
      }
      row.append(
          String.format(
              Locale.ROOT,
              " %.2f, %.2f | %.2f |",
              median(pass.get("cli vector")[f]) / median(pass.get("cli scalar")[f]),
              median(wall.get("cli vector")[f]) / median(wall.get("cli scalar")[f]),
              median(pass.get("lib vector")[f]) / median(pass.get("hand loop")[f])));
      System.out.println(row);
    }
  }

  private List<Run> passRuns(Path file) {
    String launcher = home.resolve("bin/online-kernels").toString();
    List<String> cli =
        List.of(launcher, "train", "--data", file.toString(), "--no-shuffle", "--json");
    String spec = "file:" + file.getFileName();
    String dir = file.getParent().toString();
    return List.of(
        new Run("cli vector", cli, Map.of()),
        new Run(
            "cli vector, no handover",
            cli,
            Map.of("ONLINE_KERNELS_JAVA_OPTS", "-Donlinekernels.handover=off")),
        new Run("cli vector, no AOT cache", cli, Map.of("ONLINE_KERNELS_AOT", "0")),
        new Run(
            "cli scalar",
            cli,
            Map.of("ONLINE_KERNELS_JAVA_OPTS", "-Donlinekernels.vectorization=scalar")),
        new Run("lib vector", coldPass(true, "pass", "trainer", dir, spec), Map.of()),
        new Run("lib scalar", coldPass(false, "pass", "trainer", dir, spec), Map.of()),
        new Run("hand loop", coldPass(false, "pass", "hand", dir, spec), Map.of()));
  }

  private void curves(int reps, double seconds) throws Exception {
    Path synthetic = SyntheticFile.write(home.resolve("target/coldstart"));
    String dir = synthetic.getParent().toString();
    String spec = "file:" + synthetic.getFileName();
    Map<String, List<String>> runs = new LinkedHashMap<>();
    runs.put("lib vector", coldPass(true, "curve", "trainer", dir, spec, Double.toString(seconds)));
    runs.put(
        "lib vector, no handover",
        withProperty(
            coldPass(true, "curve", "trainer", dir, spec, Double.toString(seconds)),
            "-Donlinekernels.handover=off"));
    runs.put(
        "lib scalar", coldPass(false, "curve", "trainer", dir, spec, Double.toString(seconds)));
    runs.put("hand loop", coldPass(false, "curve", "hand", dir, spec, Double.toString(seconds)));
    String[] keys = {"rate_0.1", "rate_1", "rate_10"};
    Map<String, double[][]> got = new LinkedHashMap<>();
    runs.keySet().forEach(n -> got.put(n, new double[keys.length][reps]));
    List<String> names = new ArrayList<>(runs.keySet());
    for (int rep = 0; rep < reps; rep++) {
      for (int k = 0; k < names.size(); k++) {
        String n = names.get((k + rep) % names.size());
        String out = exec(runs.get(n), Map.of());
        for (int i = 0; i < keys.length; i++) {
          got.get(n)[i][rep] = kv(out, keys[i]);
        }
      }
      System.err.printf(Locale.ROOT, "curves: repetition %d of %d done%n", rep + 1, reps);
    }
    System.out.println();
    System.out.println(
        "Examples/s over the first 0.1 s, 1 s and "
            + seconds
            + " s of fresh JVMs ("
            + spec
            + ", median of "
            + reps
            + ")");
    System.out.println();
    System.out.println("| contender | first 0.1 s | first 1 s | first 10 s |");
    System.out.println("|---|---:|---:|---:|");
    for (String n : names) {
      System.out.printf(
          Locale.ROOT,
          "| %s | %.0f | %.0f | %.0f |%n",
          n,
          median(got.get(n)[0]),
          median(got.get(n)[1]),
          median(got.get(n)[2]));
    }
  }

  private List<String> coldPass(boolean vectorModule, String... args) {
    List<String> c = new ArrayList<>(List.of(java.toString()));
    if (vectorModule) {
      c.add("--add-modules");
      c.add("jdk.incubator.vector");
    } else {
      c.add("-Donlinekernels.vectorization=scalar");
    }
    c.addAll(List.of("-cp", classpath, ColdPass.class.getName()));
    c.addAll(Arrays.asList(args));
    return c;
  }

  private static List<String> withProperty(List<String> command, String property) {
    List<String> c = new ArrayList<>(command);
    c.add(1, property);
    return c;
  }

  /** Runs {@code command} with {@code env} added to the environment and returns its stdout. */
  private String exec(List<String> command, Map<String, String> env)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().remove("ONLINE_KERNELS_JAVA_OPTS");
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException(
          "exit " + p.exitValue() + ": " + String.join(" ", command) + "\n" + out);
    }
    return out;
  }

  private static double group(Pattern p, String out) {
    Matcher m = p.matcher(out);
    if (!m.find()) {
      throw new IllegalStateException("no " + p + " in: " + out);
    }
    return Double.parseDouble(m.group(1));
  }

  private static double kv(String out, String key) {
    Matcher m = KV.matcher(out);
    while (m.find()) {
      if (m.group(1).equals(key)) {
        return Double.parseDouble(m.group(2));
      }
    }
    throw new IllegalStateException("no " + key + " in: " + out);
  }

  static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
