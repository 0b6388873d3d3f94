package org.onlinekernels.bench.workload;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.onlinekernels.bench.workload.hand.HandLoop;

/**
 * Issue #21's study of the synthetic streams against the C loop, run on the workload benchmark's
 * harness: {@code MetalStreams [PROFILE|render] [OUTDIR] [SPEC,SPEC...]} (default {@code
 * metal-streams} into {@code bench-report/metal-streams}; {@code render} only re-renders, also a
 * run of the product's profiles such as {@code bench-report/metal}; the list runs only those
 * workloads). It writes the workload page ({@link WorkloadReportWriter}) with the study's verdicts
 * on the targets after the fit section ({@link WorkloadStreamTargets}), wherever the C loop ran on
 * a synthetic stream. The profiles:
 *
 * <ul>
 *   <li>{@code metal-streams}: the twelve synthetic streams of the {@code full} profile at its
 *       2,000,000 nonzeros per pass, float only, the two rules with a hand loop: the C loop (11
 *       passes, as one takes only 10-80 ms), the hand loop and every library path side by side, so
 *       that the trainer / C ratios and the fits {@code a + b nnz} of C and of the library come
 *       from one run; no files, no peers.
 *   <li>{@code metal-streams-quick}: the same plan on {@code zipf:14:8}, {@code :40} and {@code
 *       :200} (100,000 nonzeros per pass), C check included, in the report's own JVM: what
 *       MetalStreamsSmokeTest runs.
 * </ul>
 */
public final class MetalStreams {
  private MetalStreams() {}

  /** Entry point; see the class comment. */
  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    String profile = args.length > 0 ? args[0] : "metal-streams";
    Path out = Path.of(args.length > 1 ? args[1] : "bench-report/metal-streams");
    if (!profile.equals("render")) {
      WorkloadProfile p = named(profile);
      if (args.length > 2 && !args[2].isBlank()) p = p.only(List.of(args[2].split(",")));
      WorkloadReport.run(p, out);
    }
    write(out);
    System.out.println("wrote " + out.resolve("workload.md"));
  }

  /** The study's profile {@code metal-streams} or {@code metal-streams-quick}. */
  static WorkloadProfile named(String name) {
    List<String> rules = HandLoop.RULES;
    List<String> types = List.of("float");
    return switch (name) {
      case "metal-streams" ->
          new WorkloadProfile(
              name,
              WorkloadProfile.full(),
              WorkloadProfile.streams(),
              List.of(),
              rules,
              types,
              WorkloadProfile.FORKED,
              11,
              false);
      case "metal-streams-quick" -> {
        List<String> w = List.of("zipf:14:8", "zipf:14:40", "zipf:14:200");
        yield new WorkloadProfile(
            name, 100_000, w, List.of(), rules, types, WorkloadProfile.IN_PROCESS, 3, false);
      }
      default ->
          throw new IllegalArgumentException(
              "profile must be metal-streams, metal-streams-quick or render, got " + name);
    };
  }

  /** Renders {@code dir/workload.md} and its charts with the study's verdicts. */
  static void write(Path dir) throws IOException {
    WorkloadReportWriter.write(dir, MetalStreams::command, WorkloadStreamTargets::write);
  }

  /** The command that makes a run of {@code profile} (the product's own for its profiles). */
  static String command(String profile) {
    if (!profile.startsWith("metal-streams")) return WorkloadReportWriter.command(profile);
    return "mvn -B -q -Plab -pl lab -am compile exec:exec@metal-streams"
        + (profile.equals("metal-streams") ? "" : " -Dlab.args=" + profile);
  }
}
