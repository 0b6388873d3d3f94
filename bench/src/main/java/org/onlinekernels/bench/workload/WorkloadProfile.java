package org.onlinekernels.bench.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.onlinekernels.bench.workload.hand.HandLoop;
import org.onlinekernels.rules.Rules;

/**
 * What one workload report run measures and with which JMH settings ({@link WorkloadGrid} says
 * which contenders, rules and types run on each workload).
 *
 * <ul>
 *   <li>{@code quick}: the smallest data file and one Zipf stream at d = 2^14 with 8, 40 and 200
 *       nonzeros per row (100,000 nonzeros per pass), the two rules with a hand loop, no C loop,
 *       tens of milliseconds per iteration, in the report's own JVM (no forks: the contenders share
 *       one JIT, so its figures only show that everything runs); what WorkloadReportSmokeTest runs.
 *   <li>{@code full}: every training file of the data folder and the twelve synthetic streams
 *       ({@code d in {2^20, 2^24}} x {@code nnz in {8, 40, 200}} x Zipf/uniform), 2,000,000
 *       nonzeros per pass (250,000 rows at 8 nonzeros, 50,000 at 40, 10,000 at 200), every rule on
 *       {@code zipf:20:40}, the C loop everywhere, one fork per combination.
 *   <li>{@code metal} (issues #21 and #19): the C loop, the trainer (both policies), the block
 *       rounds, the caller's-buffers round and the per-call path for every rule, side by side, on
 *       {@code zipf:20:40} at 8,000,000 nonzeros per pass (200,000 rows) and on {@code
 *       austen_lines.train.svm}; no peers.
 *   <li>{@code metal-quick}: the same plan on {@code zipf:14:40} (2,500 rows) and {@code
 *       heart_scale.svm}, C check included, in the report's own JVM: what MetalReportSmokeTest
 *       runs.
 *   <li>{@code metal-streams} (issue #21's stream targets): the twelve synthetic streams of {@code
 *       full} at its 2,000,000 nonzeros per pass, float only, the two rules with a hand loop: the C
 *       loop (11 passes, as one takes only 10-80 ms), the hand loop and every library path side by
 *       side, so that the trainer / C ratios and the fits {@code a + b nnz} of C and of the library
 *       come from one run; no files, no peers.
 *   <li>{@code metal-streams-quick}: the same plan on {@code zipf:14:8}, {@code :40} and {@code
 *       :200} (100,000 nonzeros per pass), C check included, in the report's own JVM: what
 *       MetalStreamsSmokeTest runs.
 * </ul>
 *
 * @param name {@code quick}, {@code full}, {@code metal}, {@code metal-quick}, {@code
 *     metal-streams} or {@code metal-streams-quick}
 * @param nonzeros synthetic streams' nonzeros per pass
 * @param workloads workload specs, in run order
 * @param everyRule the workloads where every library contender runs both types (issue #19's
 *     comparison)
 * @param rules the rules measured (by the library contenders and the C loop; the hand loop has
 *     {@link HandLoop#RULES} only)
 * @param types the element types measured ({@code float}, {@code double}), by the C loop too
 * @param jmh the JMH settings
 * @param cRepeat passes of the C loop per workload, rule and type (the median is its figure; 0: no
 *     C loop)
 * @param peers whether Tribuo and MOA run
 */
public record WorkloadProfile(
    String name,
    long nonzeros,
    List<String> workloads,
    List<String> everyRule,
    List<String> rules,
    List<String> types,
    Jmh jmh,
    int cRepeat,
    boolean peers) {
  /**
   * The JMH settings of a profile.
   *
   * @param warmRows rows x outputs every contender trains on in its trial set-up before JMH's
   *     warm-up (fewer if it has seen 3 full-profile passes' nonzeros first; WorkloadBench.warm)
   * @param warmups warm-up iterations (library and hand-written contenders)
   * @param measurements measured iterations
   * @param iterationMillis iteration time (at least one pass is always run)
   * @param peerWarmups warm-up iterations of Tribuo and MOA (slow: a pass can take seconds)
   * @param peerMeasurements measured iterations of Tribuo and MOA
   * @param forks JMH forks per combination (0: in this JVM, for the smoke tests)
   */
  public record Jmh(
      long warmRows,
      int warmups,
      int measurements,
      int iterationMillis,
      int peerWarmups,
      int peerMeasurements,
      int forks) {}

  /**
   * The committed runs' settings: one fork per combination, 1 + 5 iterations of 200 ms, no peer
   * iterations.
   */
  static final Jmh FORKED = new Jmh(Long.parseLong(WorkloadBench.WARM_ROWS), 1, 5, 200, 0, 0, 1);

  /** The quick C profiles': in the report's own JVM, one iteration of 20 ms. */
  static final Jmh IN_PROCESS = new Jmh(2000, 0, 1, 20, 0, 0, 0);

  /** Every rule of the registry. */
  private static final List<String> ALL_RULES = Rules.names();

  /** The named profile, with the data files found under {@code dataDir}. */
  public static WorkloadProfile named(String name, Path dataDir) {
    List<String> types = WorkloadGrid.TYPES;
    List<String> handRules = HandLoop.RULES;
    List<String> floatOnly = List.of("float");
    return switch (name) {
      case "quick" -> {
        List<String> w = List.of("file:heart_scale.svm", "zipf:14:8", "zipf:14:40", "zipf:14:200");
        Jmh jmh = new Jmh(2000, 1, 2, 20, 0, 1, 0);
        yield new WorkloadProfile(name, 100_000, w, List.of(), ALL_RULES, types, jmh, 0, true);
      }
      case "metal-quick" -> {
        List<String> w = List.of("zipf:14:40", "file:heart_scale.svm");
        yield new WorkloadProfile(name, 100_000, w, w, ALL_RULES, types, IN_PROCESS, 3, false);
      }
      case "metal" -> {
        List<String> w = List.of("zipf:20:40", "file:austen_lines.train.svm");
        yield new WorkloadProfile(name, 8_000_000, w, w, ALL_RULES, types, FORKED, 7, false);
      }
      case "metal-streams" ->
          new WorkloadProfile(
              name, full(), streams(), List.of(), handRules, floatOnly, FORKED, 11, false);
      case "metal-streams-quick" -> {
        List<String> w = List.of("zipf:14:8", "zipf:14:40", "zipf:14:200");
        yield new WorkloadProfile(
            name, 100_000, w, List.of(), handRules, floatOnly, IN_PROCESS, 3, false);
      }
      case "full" -> {
        List<String> w = new ArrayList<>(Workload.trainingFiles(dataDir));
        w.addAll(streams());
        Jmh peers = new Jmh(FORKED.warmRows(), 1, 5, 200, 1, 3, 1);
        yield new WorkloadProfile(
            name, full(), w, List.of("zipf:20:40"), ALL_RULES, types, peers, 7, true);
      }
      default ->
          throw new IllegalArgumentException(
              "workload profile must be quick, full, metal, metal-quick, metal-streams,"
                  + " metal-streams-quick or render, got "
                  + name);
    };
  }

  /** The full profile's nonzeros per synthetic pass. */
  private static long full() {
    return Long.parseLong(WorkloadBench.FULL_NONZEROS);
  }

  /**
   * The synthetic streams of the full profile: Zipf then uniform indices, d = 2^20 and 2^24, 8, 40
   * and 200 nonzeros per row.
   */
  static List<String> streams() {
    List<String> w = new ArrayList<>();
    for (String dist : new String[] {"zipf", "uniform"}) {
      for (int logD : new int[] {20, 24}) {
        for (int nnz : new int[] {8, 40, 200}) w.add(dist + ":" + logD + ":" + nnz);
      }
    }
    return w;
  }

  /** The same settings on the given workloads only (e.g. to re-measure a few). */
  public WorkloadProfile only(List<String> specs) {
    return new WorkloadProfile(
        name,
        nonzeros,
        List.copyOf(specs),
        everyRule.stream().filter(specs::contains).toList(),
        rules,
        types,
        jmh,
        cRepeat,
        peers);
  }
}
