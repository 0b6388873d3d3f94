package org.onlinekernels.bench.workload;

import static org.onlinekernels.bench.report.Md.f2;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Looking up the workload report's results and spelling their figures. */
final class WorkloadFigures {
  private WorkloadFigures() {}

  static Optional<WorkloadResult> find(
      List<WorkloadResult> rows, String w, String contender, String algo, String type) {
    return rows.stream()
        .filter(
            r ->
                r.workload().equals(w)
                    && r.contender().equals(contender)
                    && r.algo().equals(algo)
                    && r.type().equals(type))
        .findFirst();
  }

  /**
   * The hand loop a result is compared with: same algorithm and type; the peers with AdaGrad
   * double.
   */
  static Optional<WorkloadResult> handFor(List<WorkloadResult> rows, WorkloadResult r) {
    boolean peer = r.contender().equals("tribuo") || r.contender().equals("moa");
    return find(
        rows, r.workload(), "hand", peer ? "adagrad" : r.algo(), peer ? "double" : r.type());
  }

  /**
   * Speed relative to the hand loop: its median time over ours (above 1: faster than the hand
   * loop).
   */
  static String xHand(List<WorkloadResult> rows, Optional<WorkloadResult> r) {
    if (r.isEmpty()) return "–";
    Optional<WorkloadResult> h = handFor(rows, r.get());
    return h.map(x -> f2(x.msMedian() / r.get().msMedian()) + "x").orElse("–");
  }

  static Set<String> workloads(List<WorkloadResult> rows) {
    Set<String> s = new LinkedHashSet<>();
    rows.forEach(r -> s.add(r.workload()));
    return s;
  }
}
