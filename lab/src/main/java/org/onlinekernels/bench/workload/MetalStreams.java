package org.onlinekernels.bench.workload;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.onlinekernels.bench.workload.hand.HandLoop;
import org.onlinekernels.rules.Rules;

/**
 * Issue #21's study of the synthetic streams against the C loop, run on the workload benchmark's
 * harness: {@code MetalStreams [PROFILE|render] [OUTDIR] [SPEC,SPEC...]} or {@code MetalStreams
 * compare TODAY_DIR FIRST_DIR OUT.md} (issue #38's page, {@link DesignComparison}) (default {@code
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
 *   <li>{@code metal-rules} (issue #38): every rule of the registry in float on {@link
 *       #RULES_STREAMS} (the in-cache {@code zipf:14:40}, which separates compute from memory, then
 *       d = 2^20 and 2^24 at 40 and 200 nonzeros) at the full profile's nonzeros per pass, every
 *       library contender on each (issue #38's campaign keeps {@code trainer-trusted} only with
 *       {@code -Dworkload.contenders=trainer-trusted}; the C loop is not a JMH contender and
 *       stays), the C loop 11 passes; a rule that costs O(d) per row runs on {@code zipf:14:40}
 *       only ({@link RowCost}). {@link DesignComparison} sets its run beside the first design's.
 *   <li>{@code metal-rules-quick}: the same plan on {@code zipf:14:40} and {@code zipf:14:200} at
 *       20,000 nonzeros per pass, C check included, in the report's own JVM: what
 *       MetalRulesSmokeTest runs.
 * </ul>
 */
public final class MetalStreams {
  private MetalStreams() {}

  /** Entry point; see the class comment. */
  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    String profile = args.length > 0 ? args[0] : "metal-streams";
    if (profile.equals("compare")) {
      DesignComparison.write(Path.of(args[1]), Path.of(args[2]), Path.of(args[3]));
      System.out.println("wrote " + args[3]);
      return;
    }
    Path out = Path.of(args.length > 1 ? args[1] : "bench-report/metal-streams");
    if (!profile.equals("render")) {
      WorkloadProfile p = named(profile);
      if (args.length > 2 && !args[2].isBlank()) p = p.only(List.of(args[2].split(",")));
      WorkloadReport.run(p, out);
    }
    write(out);
    System.out.println("wrote " + out.resolve("workload.md"));
  }

  /** Issue #38's streams: in cache, then d = 2^20 and 2^24 at 40 and 200 nonzeros per row. */
  static final List<String> RULES_STREAMS =
      List.of("zipf:14:40", "zipf:20:40", "zipf:20:200", "zipf:24:40", "zipf:24:200");

  /**
   * Where {@code metal-rules} runs every rule: its own streams and the other synthetic streams of
   * the workload report, so that a run restricted to those ({@code metal-rules OUT
   * uniform:20:8,...}) times every rule there too (#38's "no rule slower than the first design on
   * any stream").
   */
  static List<String> everyRuleStreams() {
    List<String> w = new ArrayList<>(RULES_STREAMS);
    for (String s : WorkloadProfile.streams()) if (!w.contains(s)) w.add(s);
    return w;
  }

  /** The study's profile {@code metal-streams}, {@code metal-rules} or their quick forms. */
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
      case "metal-rules" ->
          new WorkloadProfile(
              name,
              WorkloadProfile.full(),
              RULES_STREAMS,
              everyRuleStreams(),
              Rules.names(),
              types,
              WorkloadProfile.FORKED,
              11,
              false);
      case "metal-rules-quick" -> {
        List<String> w = List.of("zipf:14:40", "zipf:14:200");
        yield new WorkloadProfile(
            name, 20_000, w, w, Rules.names(), types, WorkloadProfile.IN_PROCESS, 3, false);
      }
      default ->
          throw new IllegalArgumentException(
              "profile must be metal-streams, metal-streams-quick, metal-rules, metal-rules-quick"
                  + " or render, got "
                  + name);
    };
  }

  /** Renders {@code dir/workload.md} and its charts with the study's verdicts. */
  static void write(Path dir) throws IOException {
    WorkloadReportWriter.write(dir, MetalStreams::command, WorkloadStreamTargets::write);
  }

  /** The command that makes a run of {@code profile} (the product's own for its profiles). */
  static String command(String profile) {
    if (!profile.startsWith("metal-streams") && !profile.startsWith("metal-rules")) {
      return WorkloadReportWriter.command(profile);
    }
    return "mvn -B -q -Plab -pl lab -am compile exec:exec@metal-streams"
        + (profile.equals("metal-streams") ? "" : " -Dlab.args=" + profile);
  }
}
