package org.onlinekernels.bench.workload;

import static org.onlinekernels.bench.report.Md.f1;
import static org.onlinekernels.bench.report.Md.f2;
import static org.onlinekernels.bench.report.Md.pct;
import static org.onlinekernels.bench.report.Md.signed;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.Styler;
import org.onlinekernels.bench.report.Md;

/**
 * The workload report's fit of time per row against nonzeros per row ({@code a + b nnz}) and its
 * charts of examples per second against nonzeros per row.
 */
final class WorkloadFitSection {
  private WorkloadFitSection() {}

  static void fits(StringBuilder md, List<WorkloadResult> rows) {
    md.append("## Fit time per row: a + b * nnz\n\n");
    md.append(
            "Least squares over the synthetic streams with 8, 40 and 200 nonzeros per row, per index distribution and d: ")
        .append(
            "`a` is the fixed cost of a row (ns; all outputs), `b` the cost per nonzero (ns); `fit` is the largest relative ")
        .append(
            "residual of the three points. `a - hand`, `b - hand`: the same against the hand loop of the same algorithm and ")
        .append(
            "type (peers: AdaGrad double); `a - C`, `b - C`: the same against the C loop of the same rule and type ")
        .append("(issue #21: `a` at most 30 ns above C's). Issue #10's ")
        .append("targets: `a` at most 25 ns above the hand loop's, `b` no higher.\n\n");
    Set<String> families = new LinkedHashSet<>();
    rows.stream().filter(WorkloadResult::synthetic).forEach(r -> families.add(r.family()));
    Set<String> series = new LinkedHashSet<>();
    rows.stream().filter(WorkloadResult::synthetic).forEach(r -> series.add(r.series()));
    md.append(
        "| streams | contender | a (ns) | b (ns/nnz) | fit | a - hand | b - hand | a - C | b - C |\n"
            + "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (String fam : families) {
      for (String s : series) {
        Optional<FitLine> f = fit(rows, fam, s);
        if (f.isEmpty()) continue;
        WorkloadResult any =
            rows.stream()
                .filter(r -> r.family().equals(fam) && r.series().equals(s))
                .findFirst()
                .orElseThrow();
        boolean peer = any.contender().equals("tribuo") || any.contender().equals("moa");
        String hs = "hand " + (peer ? "adagrad double" : any.algo() + " " + any.type());
        Optional<FitLine> h = fit(rows, fam, hs);
        Optional<FitLine> c =
            peer ? Optional.empty() : fit(rows, fam, "c " + any.algo() + " " + any.type());
        Md.row(
            md,
            fam,
            s,
            f1(f.get().a()),
            f2(f.get().b()),
            pct(f.get().maxResidual()),
            h.map(x -> signed(f.get().a() - x.a())).orElse("–"),
            h.map(x -> signed(f.get().b() - x.b())).orElse("–"),
            c.map(x -> signed(f.get().a() - x.a())).orElse("–"),
            c.map(x -> signed(f.get().b() - x.b())).orElse("–"));
      }
    }
    md.append("\n");
  }

  static Optional<FitLine> fit(List<WorkloadResult> rows, String family, String series) {
    List<WorkloadResult> pts =
        rows.stream()
            .filter(r -> r.synthetic() && r.family().equals(family) && r.series().equals(series))
            .toList();
    if (pts.size() < 2 || pts.stream().map(WorkloadResult::specNnz).distinct().count() < 2)
      return Optional.empty();
    double[] x = new double[pts.size()];
    double[] t = new double[pts.size()];
    for (int i = 0; i < x.length; i++) {
      x[i] = pts.get(i).nnzPerRow();
      t[i] = pts.get(i).nsPerRow();
    }
    return Optional.of(FitLine.of(x, t));
  }

  static void charts(StringBuilder md, List<WorkloadResult> rows, Path dir) throws IOException {
    Set<String> families = new LinkedHashSet<>();
    rows.stream().filter(WorkloadResult::synthetic).forEach(r -> families.add(r.family()));
    if (families.isEmpty()) return;
    md.append("## Examples per second against nonzeros per row\n\n");
    md.append(
        "Synthetic streams, float contenders and Tribuo (double), log-log; one chart per index distribution and d.\n\n");
    for (String fam : families) {
      XYChart c =
          Md.chart(
              "examples/s, " + fam + " (higher is better)",
              "nonzeros per row (log)",
              "examples/s (log)",
              560,
              Styler.LegendPosition.OutsideE);
      c.getStyler().setYAxisLogarithmic(true);
      Set<String> series = new LinkedHashSet<>();
      rows.stream()
          .filter(
              r ->
                  r.family().equals(fam)
                      && (r.type().equals("float") || r.contender().equals("tribuo")))
          .forEach(r -> series.add(r.series()));
      for (String s : series) {
        List<WorkloadResult> pts =
            rows.stream()
                .filter(r -> r.family().equals(fam) && r.series().equals(s))
                .sorted((a, b) -> Double.compare(a.nnzPerRow(), b.nnzPerRow()))
                .toList();
        c.addSeries(
            s,
            pts.stream().mapToDouble(WorkloadResult::nnzPerRow).toArray(),
            pts.stream().mapToDouble(WorkloadResult::examplesPerSecond).toArray());
      }
      String png = "workload-" + fam.replace(", d = 2^", "-") + ".png";
      BitmapEncoder.saveBitmap(c, dir.resolve(png).toString(), BitmapEncoder.BitmapFormat.PNG);
      md.append("![").append(fam).append("](").append(png).append(")\n\n");
    }
  }
}
