package org.onlinekernels.bench.workload;

import com.google.gson.FieldNamingPolicy;
import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.onlinekernels.bench.report.MachineInfo;

/**
 * The C contender of the workload benchmark ({@code bench/c/contender}: a fused C loop per rule,
 * generated from the rule's source as the library's Java forms are, see its README), built here
 * with the machine's C compiler and run as a process per workload, rule and type; its one-line JSON
 * result is read with Gson.
 *
 * @param binary the built program
 * @param compiler the compiler's first {@code --version} line
 * @param rules the rules the program has ({@code contender --rules})
 * @param unported the library's rules it has not, each with why ({@code contender --unported}:
 *     "Rule: why")
 */
public record CContender(Path binary, String compiler, List<String> rules, List<String> unported) {
  /**
   * The flags of issue #21: {@code -ffp-contract=off} because a contracted multiply-add changes
   * bits.
   */
  public static final List<String> CFLAGS =
      List.of("-O3", "-march=native", "-fno-math-errno", "-fno-trapping-math", "-ffp-contract=off");

  /**
   * The system property {@code workload.cflags} split at white space: flags after {@link #CFLAGS},
   * e.g. {@code -mno-avx512f} for the 256-bit side of issue #38.
   */
  public static List<String> extraFlags() {
    String x = System.getProperty("workload.cflags", "").strip();
    return x.isEmpty() ? List.of() : List.of(x.split("\\s+"));
  }

  /** {@link #CFLAGS} then {@link #extraFlags}: what the program is built with. */
  public static List<String> flags() {
    List<String> f = new ArrayList<>(CFLAGS);
    f.addAll(extraFlags());
    return f;
  }

  /** What the report says when there is no compiler. */
  public static final String NO_GCC = "skipped: no gcc";

  private static final Gson GSON =
      new GsonBuilder()
          .setFieldNamingPolicy(FieldNamingPolicy.LOWER_CASE_WITH_UNDERSCORES)
          .create();

  /**
   * One run's result, as the program prints it (README: {@code pass_loss_bits} is {@code
   * OnlineTrainer.fit(...)[0].meanLoss()}'s bits; times are medians over the repetitions, {@code
   * secondsAll} and {@code cpuSecondsAll} each repetition's pass in wall and thread CPU time).
   */
  public record Result(
      String algorithm,
      String type,
      int n,
      int d,
      int outputs,
      long nonzeros,
      double passLoss,
      String passLossBits,
      double seconds,
      double nsPerRow,
      double steadyNsPerRow,
      int repeat,
      double[] secondsAll,
      double[] cpuSecondsAll) {
    /** The bits as {@link #passLossBits} writes them ({@code 0x%016x}). */
    public static String bits(double loss) {
      return String.format("0x%016x", Double.doubleToRawLongBits(loss));
    }
  }

  /**
   * Builds the program from {@code sources} and the generated rules in {@code generated} (the
   * benchmark module's build writes them) into {@code buildDir} with {@code cc} (only when a source
   * is newer than the program or {@link #flags} differ from the last build's, kept in {@code
   * buildDir/flags.txt}), or returns empty when {@code cc} is not on the {@code PATH} (or, given as
   * a path, not executable).
   *
   * @throws IOException if the compiler is there but the build fails (its output in the message)
   */
  public static Optional<CContender> build(String cc, Path sources, Path generated, Path buildDir)
      throws IOException {
    Optional<Path> compiler = MachineInfo.program(cc);
    if (compiler.isEmpty()) {
      return Optional.empty();
    }
    if (!Files.exists(generated.resolve("rules.h"))) {
      throw new IOException(
          generated.resolve("rules.h")
              + " is missing: build the benchmark module (mvn -pl bench -am compile) first");
    }
    Path bin = buildDir.resolve("contender");
    Path stamp = buildDir.resolve("flags.txt");
    Files.createDirectories(buildDir);
    String flags = String.join(" ", flags());
    boolean sameFlags = Files.exists(stamp) && Files.readString(stamp).equals(flags);
    if (!sameFlags || stale(bin, List.of(sources, sources.resolve("hooks"), generated))) {
      Files.deleteIfExists(stamp);
      List<String> cmd = new ArrayList<>(List.of(compiler.get().toString()));
      cmd.addAll(flags());
      cmd.addAll(
          List.of(
              "-I",
              generated.toString(),
              "-I",
              sources.toString(),
              "-o",
              bin.toString(),
              sources.resolve("contender.c").toString(),
              sources.resolve("libsvm_read.c").toString(),
              "-lm"));
      run(cmd, "building the C contender");
      Files.writeString(stamp, flags);
    }
    String version =
        run(List.of(compiler.get().toString(), "--version"), "asking the compiler's version")
            .lines()
            .findFirst()
            .orElse(cc);
    return Optional.of(
        new CContender(
            bin, version, lines(bin, "--rules", "rules"), lines(bin, "--unported", "unported")));
  }

  private static List<String> lines(Path bin, String option, String what) throws IOException {
    return run(List.of(bin.toString(), option), "asking the C contender's " + what)
        .lines()
        .map(String::strip)
        .filter(l -> !l.isEmpty())
        .toList();
  }

  /**
   * One training pass per repetition over {@code data} ({@code --repeat}, from fresh state each
   * time; at least dimension {@code d}).
   *
   * @throws IOException if the program fails (its output in the message)
   */
  public Result run(Path data, String rule, String type, int d, int repeat) throws IOException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                binary.toString(),
                "--data",
                data.toString(),
                "--algorithm",
                rule,
                "--type",
                type,
                "--dimension",
                Integer.toString(d),
                "--repeat",
                Integer.toString(repeat)));
    cmd.addAll(PagePolicy.contenderOptions());
    String out = run(cmd, "the C contender on " + data + ", " + rule + " " + type);
    String json =
        out.lines()
            .filter(l -> l.startsWith("{"))
            .reduce((a, b) -> b)
            .orElseThrow(
                () -> new IOException("the C contender printed no result on " + data + ": " + out));
    return GSON.fromJson(json, Result.class);
  }

  /**
   * The program's own check of its {@code exp} and {@code log1p} ({@code fdlibm.h}) against a file
   * of records {@code (x, StrictMath.exp(x), y, StrictMath.log1p(y))} of little-endian doubles: its
   * one-line JSON result, {@code {"check": "libm", "n": ..., "exp_mismatches": ...,
   * "log1p_mismatches": ...}} (the program exits non-zero, and this throws, on any mismatch).
   *
   * @throws IOException if the program fails or finds a mismatch (its output in the message)
   */
  public String checkLibm(Path records) throws IOException {
    return run(List.of(binary.toString(), "--check-libm", records.toString()), "the libm check")
        .strip();
  }

  private static boolean stale(Path bin, List<Path> sources) throws IOException {
    if (!Files.isExecutable(bin)) {
      return true;
    }
    long built = Files.getLastModifiedTime(bin).toMillis();
    for (Path dir : sources) {
      try (Stream<Path> s = Files.list(dir)) {
        for (Path f :
            s.filter(f -> f.toString().endsWith(".c") || f.toString().endsWith(".h")).toList()) {
          if (Files.getLastModifiedTime(f).toMillis() > built) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /**
   * Runs {@code cmd}, returns its output (stdout and stderr); throws with the output if it exits
   * non-zero.
   */
  private static String run(List<String> cmd, String what) throws IOException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      int rc = p.waitFor();
      if (rc != 0) {
        throw new IOException(
            what + " failed (exit " + rc + "): " + String.join(" ", cmd) + "\n" + out.strip());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(what + " was interrupted", e);
    }
    return out;
  }
}
