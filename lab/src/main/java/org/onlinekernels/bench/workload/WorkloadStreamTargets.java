package org.onlinekernels.bench.workload;

import static org.onlinekernels.bench.report.Md.f1;
import static org.onlinekernels.bench.report.Md.f2;
import static org.onlinekernels.bench.report.Md.signed;
import static org.onlinekernels.bench.workload.WorkloadFigures.find;
import static org.onlinekernels.bench.workload.WorkloadFitSection.fit;
import static org.onlinekernels.bench.workload.WorkloadMetalSection.ns;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Issue #21's targets on the synthetic streams, judged from the run's own figures: the trainer
 * (both input policies) at least {@value #MIN_X_C}x the C loop's speed on every stream with {@value
 * #MIN_NNZ} or more nonzeros per row at d = 2^20 and 2^24, and its fixed cost per row (the {@code
 * a} of {@code a + b nnz}, {@link WorkloadFitSection}) at most {@value #MAX_A_ABOVE_C} ns above the
 * C loop's. Written only when the C loop ran on a synthetic stream: a table of both ratios per
 * stream, rule and type, then one verdict line per target (met, missed, or not fully measured, with
 * the numbers that decide it).
 */
final class WorkloadStreamTargets {
  private WorkloadStreamTargets() {}

  /** The speed the trainer must reach, as a multiple of the C loop's. */
  static final double MIN_X_C = 0.8;

  /** Nonzeros per row from which the speed target applies. */
  static final int MIN_NNZ = 40;

  /** The most the trainer's fixed cost per row may exceed the C loop's (ns). */
  static final double MAX_A_ABOVE_C = 30;

  /** The dimensions ({@code log2 d}) the issue sets the speed target at. */
  static final List<Integer> LOG_DS = List.of(20, 24);

  /** The trainer's two input policies. */
  static final List<String> TRAINER = List.of("trainer-checked", "trainer-trusted");

  /** One judged figure: what it is and its value. */
  private record Figure(String what, double value) {}

  static void write(StringBuilder md, List<WorkloadResult> rows) {
    List<WorkloadResult> c =
        rows.stream().filter(r -> r.synthetic() && r.contender().equals("c")).toList();
    if (c.isEmpty()) return;
    md.append("## Issue #21's targets on the synthetic streams\n\n");
    md.append("`x C`: the C loop's median time over the trainer's (speed as a multiple of C). ")
        .append("Target: the trainer at least ")
        .append(f2(MIN_X_C))
        .append("x with either input policy on every stream with ")
        .append(MIN_NNZ)
        .append(
            " or more nonzeros per row at d = 2^20 and 2^24; its fixed cost per row `a` at most ")
        .append(f1(MAX_A_ABOVE_C))
        .append(" ns above the C loop's (fit time per row above).\n\n");
    md.append(
            "| stream | nnz/row | rule | type | C ns/row | trainer checked ns/row | trainer trusted ns/row ")
        .append("| checked x C | trusted x C | target |\n")
        .append("|---|---:|---|---|---:|---:|---:|---:|---:|---|\n");
    List<Figure> speeds = new ArrayList<>();
    List<String> noC = new ArrayList<>();
    for (String w : WorkloadFigures.workloads(rows)) {
      List<WorkloadResult> trainer =
          rows.stream()
              .filter(
                  r -> r.workload().equals(w) && r.synthetic() && TRAINER.contains(r.contender()))
              .toList();
      Set<String> cases = new LinkedHashSet<>();
      trainer.forEach(r -> cases.add(r.algo() + " " + r.type()));
      for (String rt : cases) {
        String[] f = rt.split(" ");
        Optional<WorkloadResult> cr = find(rows, w, "c", f[0], f[1]);
        WorkloadResult any = trainer.get(0);
        boolean judged = any.specNnz() >= MIN_NNZ;
        md.append("| ").append(w).append(" | ").append(f1(any.nnzPerRow()));
        md.append(" | ").append(f[0]).append(" | ").append(f[1]).append(" | ").append(ns(cr));
        List<Optional<Double>> x = new ArrayList<>();
        for (String t : TRAINER) md.append(" | ").append(ns(find(rows, w, t, f[0], f[1])));
        for (String t : TRAINER) {
          Optional<WorkloadResult> tr = find(rows, w, t, f[0], f[1]);
          Optional<Double> r =
              cr.isPresent() && tr.isPresent()
                  ? Optional.of(cr.get().msMedian() / tr.get().msMedian())
                  : Optional.empty();
          x.add(r);
          md.append(" | ").append(r.map(v -> f2(v) + "x").orElse("–"));
          if (judged && r.isPresent()) speeds.add(new Figure(t + " " + rt + " on " + w, r.get()));
          if (judged && r.isEmpty()) noC.add(t + " " + rt + " on " + w);
        }
        md.append(" | ").append(judged ? verdictOf(x) : "none under " + MIN_NNZ + " nnz/row");
        md.append(" |\n");
      }
    }
    md.append("\n");
    md.append("- **Trainer at least ")
        .append(f2(MIN_X_C))
        .append("x the C loop** (both policies, streams with ")
        .append(MIN_NNZ)
        .append("+ nonzeros per row): ")
        .append(speedVerdict(speeds, noC, rows))
        .append("\n");
    md.append("- **Fixed cost per row at most ")
        .append(f1(MAX_A_ABOVE_C))
        .append(
            " ns above the C loop's** (trainer, both policies, `a` of `a + b nnz` per distribution and d): ")
        .append(costVerdict(rows))
        .append("\n\n");
  }

  private static String verdictOf(List<Optional<Double>> x) {
    if (x.stream().anyMatch(Optional::isEmpty)) return "not measured";
    return x.stream().allMatch(v -> v.get() >= MIN_X_C) ? "met" : "missed";
  }

  private static String speedVerdict(
      List<Figure> speeds, List<String> noC, List<WorkloadResult> rows) {
    Set<Integer> ds = new TreeSet<>();
    rows.stream()
        .filter(r -> r.synthetic() && r.specNnz() >= MIN_NNZ)
        .forEach(r -> ds.add(Integer.parseInt(r.workload().split(":")[1])));
    List<Integer> absent = LOG_DS.stream().filter(d -> !ds.contains(d)).toList();
    if (speeds.isEmpty()) {
      return "**not measured** (no trainer / C ratio on a stream with "
          + MIN_NNZ
          + "+ nonzeros per row in this run)";
    }
    long ok = speeds.stream().filter(f -> f.value() >= MIN_X_C).count();
    Figure low = speeds.stream().min(Comparator.comparingDouble(Figure::value)).orElseThrow();
    Figure high = speeds.stream().max(Comparator.comparingDouble(Figure::value)).orElseThrow();
    String word =
        ok < speeds.size()
            ? "missed"
            : noC.isEmpty() && absent.isEmpty() ? "met" : "met where measured, not fully measured";
    StringBuilder s = new StringBuilder("**").append(word).append("**: ");
    s.append(ok)
        .append(" of ")
        .append(speeds.size())
        .append(" ratios at ")
        .append(f2(MIN_X_C))
        .append("x or more; lowest ")
        .append(f2(low.value()))
        .append("x (")
        .append(low.what())
        .append("), highest ")
        .append(f2(high.value()))
        .append("x (")
        .append(high.what())
        .append(")");
    if (!noC.isEmpty()) s.append("; no C time for ").append(String.join(", ", noC));
    if (!absent.isEmpty()) {
      s.append("; not in this run: d = ")
          .append(String.join(", ", absent.stream().map(d -> "2^" + d).toList()));
    }
    return s.append(".").toString();
  }

  private static String costVerdict(List<WorkloadResult> rows) {
    List<Figure> above = new ArrayList<>();
    Set<String> families = new LinkedHashSet<>();
    rows.stream().filter(WorkloadResult::synthetic).forEach(r -> families.add(r.family()));
    for (String fam : families) {
      Set<String> cSeries = new LinkedHashSet<>();
      rows.stream()
          .filter(r -> r.synthetic() && r.family().equals(fam) && r.contender().equals("c"))
          .forEach(r -> cSeries.add(r.algo() + " " + r.type()));
      for (String rt : cSeries) {
        Optional<FitLine> cf = fit(rows, fam, "c " + rt);
        for (String t : TRAINER) {
          Optional<FitLine> tf = fit(rows, fam, t + " " + rt);
          if (cf.isPresent() && tf.isPresent()) {
            above.add(new Figure(t + " " + rt + ", " + fam, tf.get().a() - cf.get().a()));
          }
        }
      }
    }
    if (above.isEmpty()) {
      return "**not measured** (no distribution and d with both C and trainer figures at two or more"
          + " nonzeros per row)";
    }
    long ok = above.stream().filter(f -> f.value() <= MAX_A_ABOVE_C).count();
    Figure worst = above.stream().max(Comparator.comparingDouble(Figure::value)).orElseThrow();
    Figure best = above.stream().min(Comparator.comparingDouble(Figure::value)).orElseThrow();
    return "**"
        + (ok == above.size() ? "met" : "missed")
        + "**: "
        + ok
        + " of "
        + above.size()
        + " fits within "
        + f1(MAX_A_ABOVE_C)
        + " ns; largest a - C "
        + signed(worst.value())
        + " ns ("
        + worst.what()
        + "), smallest "
        + signed(best.value())
        + " ns ("
        + best.what()
        + ").";
  }
}
