package org.onlinekernels.bench.workload;

import static org.onlinekernels.bench.report.Md.f2;
import static org.onlinekernels.bench.workload.WorkloadFigures.find;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.onlinekernels.bench.report.Md;
import org.onlinekernels.rules.Rules;

/**
 * The report's section for issues #21 and #19: per workload where the C loop or more than the two
 * hand-loop rules ran, every rule and type with the median ns per row of the C loop and of each
 * library path, and the ratios the issues set targets on, all from the same run: speed as a
 * multiple of the C loop's (C time / ours: #21 wants the trainer at 0.8x or more on the synthetic
 * streams, 0.6x on the files), the caller's-buffers round against the block rounds (0.9x), and the
 * trainer's time per row against ScInOL2's of the same type (#19: at most 1.5x).
 */
final class WorkloadMetalSection {
  private WorkloadMetalSection() {}

  /** The library paths in the table, in column order. */
  static final List<String> PATHS =
      List.of("trainer-checked", "trainer-trusted", "rounds", "rounds-buffers", "per-call");

  static void write(StringBuilder md, List<WorkloadResult> rows) {
    Set<String> workloads = new LinkedHashSet<>();
    rows.stream()
        .filter(
            r ->
                r.contender().equals("c")
                    || !List.of("scinol2", "adagrad", "sgd").contains(r.algo()))
        .forEach(r -> workloads.add(r.workload()));
    if (workloads.isEmpty()) return;
    md.append("## Against the C loop, every rule (issues #21 and #19)\n\n");
    md.append(
            "Median ns per row (all outputs) of each path, then ratios of the same run: `x C` is the C loop's time over ours ")
        .append(
            "(speed as a multiple of C; #21's targets: the trainer at least 0.8x on synthetic streams with 40 or more ")
        .append(
            "nonzeros per row, 0.6x on the files), `buffers x rounds` the block rounds' time over the caller's-buffers ")
        .append(
            "round's (target 0.9x or more), `x scinol2` the trainer's (trusted) time over ScInOL2's of the same type ")
        .append(
            "(#19: at most 1.5x). `–`: not run (no C compiler, the C loop's bits differ from the library's, or a rule ")
        .append("that costs O(d) per row on a large d).\n\n");
    for (String w : workloads) {
      WorkloadResult any =
          rows.stream().filter(r -> r.workload().equals(w)).findFirst().orElseThrow();
      md.append("### ")
          .append(w)
          .append(": ")
          .append(any.rows())
          .append(" rows, ")
          .append(String.format(Locale.ROOT, "%.1f", any.nnzPerRow()))
          .append(" nonzeros per row, ")
          .append(any.outputs())
          .append(any.outputs() == 1 ? " output" : " outputs")
          .append("\n\n");
      md.append(
              "| rule | type | C | trainer checked | trainer trusted | rounds | rounds-buffers | per-call ")
          .append("| checked x C | trusted x C | buffers x rounds | x scinol2 |\n");
      md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
      for (String rule : Rules.names()) {
        for (String type : WorkloadGrid.TYPES) {
          Optional<WorkloadResult> c = find(rows, w, "c", rule, type);
          List<Optional<WorkloadResult>> lib =
              PATHS.stream().map(x -> find(rows, w, x, rule, type)).toList();
          if (c.isEmpty() && lib.stream().allMatch(Optional::isEmpty)) continue;
          List<Object> cells = new ArrayList<>(List.of(rule, type, ns(c)));
          lib.forEach(r -> cells.add(ns(r)));
          cells.add(ratio(c, lib.get(0)));
          cells.add(ratio(c, lib.get(1)));
          cells.add(ratio(lib.get(2), lib.get(3)));
          cells.add(ratio(lib.get(1), find(rows, w, "trainer-trusted", "scinol2", type)));
          Md.row(md, cells.toArray());
        }
      }
      md.append("\n");
    }
  }

  /** The median ns per row, or {@code –}. */
  static String ns(Optional<WorkloadResult> r) {
    return r.map(x -> String.format(Locale.ROOT, "%.0f", x.nsPerRow())).orElse("–");
  }

  /** {@code num}'s median time over {@code den}'s, as {@code 0.83x}. */
  private static String ratio(Optional<WorkloadResult> num, Optional<WorkloadResult> den) {
    if (num.isEmpty() || den.isEmpty()) return "–";
    return f2(num.get().msMedian() / den.get().msMedian()) + "x";
  }
}
