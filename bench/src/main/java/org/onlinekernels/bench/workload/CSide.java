package org.onlinekernels.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The C contender's part of a report run: built once ({@link CContender#build}; "skipped: no gcc"
 * without a compiler), checked bit for bit against the library on every planned workload, rule and
 * type in a JVM of its own ({@link CCheck}), then timed per workload just before that workload's
 * JMH forks, each timed run's loss held to the checked bits again. A case whose bits differ from
 * the library's posts no time: it is listed in the report ({@code c.differ}) instead.
 */
final class CSide {
  private final CContender c;
  private final Map<String, String> checked = new HashMap<>();
  private final long nonzeros;
  private final int repeat;
  private final Path workDir;

  private CSide(CContender c, long nonzeros, int repeat, Path workDir) {
    this.c = c;
    this.nonzeros = nonzeros;
    this.repeat = repeat;
    this.workDir = workDir;
  }

  /** The rules the C program has (empty when skipped). */
  static List<String> rules(Optional<CContender> c) {
    return c.map(CContender::rules).orElse(List.of());
  }

  /**
   * Builds the program with {@code cc} (the {@code workload.cc} system property, default {@code
   * gcc}) from {@code ROOT/bench/c/contender} and the rules generated into {@code
   * ROOT/bench/target/generated-sources/c} into {@code ROOT/bench/target/c-contender}; empty when
   * there is no compiler.
   */
  static Optional<CContender> build(Path root) throws IOException {
    return CContender.build(
        System.getProperty("workload.cc", "gcc"),
        root.resolve("bench/c/contender"),
        root.resolve("bench/target/generated-sources/c"),
        root.resolve("bench/target/c-contender"));
  }

  /**
   * Runs the check of every workload's planned rules and types ({@code grids}), recording what it
   * did in {@code props}; returns the side that times them, or empty when {@code c} is.
   *
   * @throws IllegalStateException if the check fails or leaves a case out (its log is named in the
   *     message)
   */
  static Optional<CSide> check(
      Optional<CContender> built,
      WorkloadProfile p,
      Map<String, WorkloadGrid> grids,
      Path root,
      Path out,
      Properties props)
      throws IOException {
    if (built.isEmpty()) {
      props.setProperty("c.status", CContender.NO_GCC);
      System.out.println("C contender " + CContender.NO_GCC);
      return Optional.empty();
    }
    CContender c = built.get();
    props.setProperty(
        "c.status", "built with " + c.compiler() + ", " + String.join(" ", CContender.flags()));
    CSide side =
        new CSide(c, p.nonzeros(), p.cRepeat(), root.resolve("bench/target/workload-data"));
    List<String> plan = new ArrayList<>();
    grids.forEach(
        (w, g) ->
            g.cRules().forEach(r -> g.cTypes().forEach(t -> plan.add(w + " " + r + " " + t))));
    Path planFile = out.resolve("tmp/c-plan.txt");
    Path result = out.resolve("tmp/c-check.csv");
    Path log = out.resolve("tmp/c-check.log");
    Files.write(planFile, plan);
    List<String> cmd =
        new ArrayList<>(
            List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    cmd.addAll(Arrays.asList(CCheck.FDLIBM_FLAGS.split(" ")));
    cmd.addAll(WorkloadReport.extraJvmArgs());
    cmd.addAll(
        List.of(
            "--add-modules",
            "jdk.incubator.vector",
            "-Xmx3g",
            "-Donlinekernels.data=" + Workload.dataFolder().toAbsolutePath(),
            "-cp",
            System.getProperty("java.class.path"),
            CCheck.class.getName(),
            c.binary().toString(),
            side.workDir.toString(),
            Long.toString(p.nonzeros()),
            planFile.toString(),
            result.toString()));
    System.out.printf(
        "C contender: checking %d workload x rule x type cases against the library (%s)%n",
        plan.size(), log);
    Process proc =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    int rc;
    try {
      rc = proc.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("the C contender's check was interrupted", e);
    }
    if (rc != 0) {
      List<String> l = Files.readAllLines(log);
      String tail = String.join("\n", l.subList(Math.max(0, l.size() - 5), l.size()));
      throw new IllegalStateException(
          "the C contender's check failed (exit %d, %s): %s".formatted(rc, log, tail));
    }
    List<String> lines = Files.readAllLines(result);
    List<String> differ = new ArrayList<>();
    for (String l : lines.subList(1, lines.size())) {
      String[] f = l.split(",");
      String key = f[0] + " " + f[1] + " " + f[2];
      if (f[3].equals(f[4])) {
        side.checked.put(key, f[3]);
      } else {
        differ.add(key + " (library " + f[3] + ", C " + f[4] + ")");
      }
    }
    if (lines.size() - 1 != plan.size()) {
      throw new IllegalStateException(
          "the C contender's check covered %d of %d cases (%s)"
              .formatted(lines.size() - 1, plan.size(), log));
    }
    props.setProperty(
        "c.check",
        "%d of %d workload x rule x type cases bit-identical (library JVM: %s)"
            .formatted(side.checked.size(), plan.size(), CCheck.FDLIBM_FLAGS));
    props.setProperty("c.differ", String.join("; ", differ));
    props.setProperty("c.repeat", Integer.toString(p.cRepeat()));
    return Optional.of(side);
  }

  /**
   * The C loop on workload {@code w} of shape {@code s}: every planned rule and type whose check
   * found the library's bits, {@code --repeat R}, as results (ms per pass: the median, fastest and
   * slowest repetition).
   *
   * @throws IllegalStateException if a run's loss is not the checked one or its shape differs
   */
  List<WorkloadResult> time(String w, WorkloadReport.Shape s, WorkloadGrid g) throws IOException {
    Path file = Workload.libsvmFile(w, nonzeros, Workload.dataFolder(), workDir);
    List<WorkloadResult> out = new ArrayList<>();
    for (String rule : g.cRules()) {
      for (String type : g.cTypes()) {
        String key = w + " " + rule + " " + type;
        if (!checked.containsKey(key)) {
          continue;
        }
        CContender.Result r = c.run(file, rule, type, s.d(), repeat);
        if (!r.passLossBits().equals(checked.get(key))
            || r.n() != s.rows()
            || r.outputs() != s.outputs()) {
          throw new IllegalStateException(
              "C contender on %s: loss bits %s, %d rows, %d outputs; checked %s, %d rows, %d outputs"
                  .formatted(
                      key,
                      r.passLossBits(),
                      r.n(),
                      r.outputs(),
                      checked.get(key),
                      s.rows(),
                      s.outputs()));
        }
        double[] ms = Arrays.stream(r.secondsAll()).map(x -> x * 1e3).sorted().toArray();
        out.add(
            new WorkloadResult(
                w,
                "c",
                rule,
                type,
                s.rows(),
                s.nonzeros(),
                s.outputs(),
                Arrays.stream(ms).average().orElseThrow(),
                Double.NaN,
                ms[0],
                r.seconds() * 1e3,
                ms[ms.length - 1],
                r.repeat(),
                Arrays.stream(r.cpuSecondsAll()).average().orElse(Double.NaN) * 1e3));
      }
    }
    return out;
  }
}
