package org.onlinekernels.bench.workload;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What one workload report run measures and with which JMH settings.
 *
 * <ul>
 *   <li>{@code quick}: the smallest data file and one Zipf stream at d = 2^14 with 8, 40 and 200
 *       nonzeros per row (100,000 nonzeros per pass), every contender, tens of milliseconds per
 *       iteration; what the smoke test runs in-process, in seconds.
 *   <li>{@code full}: every training file of the data folder and the twelve synthetic streams
 *       ({@code d in {2^20, 2^24}} x {@code nnz in {8, 40, 200}} x Zipf/uniform), 2,000,000
 *       nonzeros per pass (250,000 rows at 8 nonzeros, 50,000 at 40, 10,000 at 200), one fork per
 *       combination; about 20-25 minutes on the 2-core box (see bench/README.md for the estimate).
 * </ul>
 *
 * @param name            {@code quick} or {@code full}
 * @param nonzeros        synthetic streams' nonzeros per pass
 * @param workloads       workload specs, in run order
 * @param warmRows        rows x outputs every contender trains on in its trial set-up before JMH's warm-up
 *                        (fewer if it has seen 3 full-profile passes' nonzeros first; WorkloadBench.warm)
 * @param warmups         warm-up iterations (library and hand-written contenders)
 * @param measurements    measured iterations
 * @param iterationMillis iteration time (at least one pass is always run)
 * @param peerWarmups     warm-up iterations of Tribuo and MOA (slow: a pass can take seconds)
 * @param peerMeasurements measured iterations of Tribuo and MOA
 * @param forks           JMH forks per combination (0: in this JVM, for the smoke test)
 */
public record WorkloadProfile(String name, long nonzeros, List<String> workloads, long warmRows, int warmups,
    int measurements, int iterationMillis, int peerWarmups, int peerMeasurements, int forks) {

  /** The named profile, with the data files found in {@code dataDir}. */
  public static WorkloadProfile named(String name, Path dataDir) {
    return switch (name) {
      case "quick" -> new WorkloadProfile("quick", 100_000,
          List.of("file:heart_scale.svm", "zipf:14:8", "zipf:14:40", "zipf:14:200"), 2000, 1, 2, 20, 0, 1, 0);
      case "full" -> {
        List<String> w = new ArrayList<>(Workload.trainingFiles(dataDir));
        for (String dist : new String[] {"zipf", "uniform"}) {
          for (int logD : new int[] {20, 24}) {
            for (int nnz : new int[] {8, 40, 200}) w.add(dist + ":" + logD + ":" + nnz);
          }
        }
        yield new WorkloadProfile("full", 2_000_000, w, Long.parseLong(WorkloadBench.WARM_ROWS), 1, 5, 200, 1, 3, 1);
      }
      default -> throw new IllegalArgumentException("workload profile must be quick, full or render, got " + name);
    };
  }

  /** The same settings on the given workloads only (e.g. to re-measure a few). */
  public WorkloadProfile only(List<String> specs) {
    return new WorkloadProfile(name, nonzeros, List.copyOf(specs), warmRows, warmups, measurements, iterationMillis,
        peerWarmups, peerMeasurements, forks);
  }
}
