package org.onlinekernels.bench.report;

import static org.onlinekernels.bench.report.Md.f2;
import static org.onlinekernels.bench.report.ReportFigures.dense;
import static org.onlinekernels.bench.report.ReportFigures.mmm;
import static org.onlinekernels.bench.report.ReportFigures.nsErr;
import static org.onlinekernels.bench.report.ReportFigures.ratio;
import static org.onlinekernels.bench.report.ReportWriter.rows;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/** The report's sparse-row section and its comparison with the peer libraries. */
final class SparseAndPeerSections {
  private SparseAndPeerSections() {}

  static void sparseSection(StringBuilder md, Path dir) throws IOException {
    List<Row> sp = rows.stream().filter(r -> r.nnz() > 0).toList();
    if (sp.isEmpty()) return;
    md.append("## Sparse rounds, d = 2^22\n\n");
    md.append(
            "Random strictly increasing index sets from a pre-generated pool of about 2^20 nonzeros in all, cycled ")
        .append(
            "(index generation is not timed). Time per nonzero; random access into 16-32 MiB state arrays is bound by ")
        .append("cache misses, not by bandwidth, so no GB/s is given.\n\n");
    CategoryChart c =
        new CategoryChartBuilder()
            .width(900)
            .height(520)
            .title("Sparse, d = 2^22: ns per nonzero (lower is better)")
            .xAxisTitle("kernel, float, vector")
            .yAxisTitle("ns per nonzero")
            .build();
    c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    c.getStyler().setChartBackgroundColor(Color.WHITE);
    Map<Integer, Map<String, Double>> byNnz = new LinkedHashMap<>();
    md.append(
        "| kernel | type | impl | nnz | ns/nnz median (mean ± err) | min / median / max ns per call |\n|---|---|---|---:|---:|---|\n");
    for (Row r : sp) {
      // RuleBench's rows by their rule's name, the suites' by theirs.
      String b = r.bench();
      String name =
          b.contains(":") ? b.substring(b.indexOf(':') + 1) : b.replace("Bench.sparse", "");
      if (r.bench().startsWith("TribuoBench")) name = "Tribuo AdaGrad";
      Md.row(
          md,
          name,
          r.elementType(),
          r.impl().isEmpty() ? "–" : r.impl(),
          r.nnz(),
          f2(r.nsPerUnit()) + " (" + f2(r.meanPerUnit()) + " ± " + f2(r.error() / r.nnz()) + ")",
          mmm(r));
      boolean chartIt =
          (r.impl().equals("vector") && r.type().equals("float"))
              || r.bench().startsWith("TribuoBench");
      if (chartIt)
        byNnz.computeIfAbsent(r.nnz(), x -> new LinkedHashMap<>()).put(name, r.nsPerUnit());
    }
    List<String> names = new ArrayList<>();
    byNnz
        .values()
        .forEach(
            m ->
                m.keySet()
                    .forEach(
                        n -> {
                          if (!names.contains(n)) names.add(n);
                        }));
    for (var e : byNnz.entrySet()) {
      List<Double> ys = new ArrayList<>();
      for (String n : names) ys.add(e.getValue().getOrDefault(n, 0.0));
      c.addSeries("nnz = " + e.getKey(), names, ys);
    }
    BitmapEncoder.saveBitmap(
        c, dir.resolve("sparse.png").toString(), BitmapEncoder.BitmapFormat.PNG);
    md.append("\n![sparse](sparse.png)\n\n");
  }

  static void peerSection(StringBuilder md) {
    List<Row> tr = rows.stream().filter(r -> r.bench().equals("TribuoBench.dense")).toList();
    if (tr.isEmpty()) return;
    md.append("## The peer: Tribuo AdaGrad (tribuo-math 4.3.2)\n\n");
    md.append(
            "Same rule (eta 0.1, epsilon 1e-6, no box), same gradients, doubles (Tribuo has no float vectors). ")
        .append(
            "What differs in the work: Tribuo's `AdaGrad.step` makes two passes (`Q += g^2`, then `g *= eta/(eps+sqrt(Q))` ")
        .append(
            "through `DoubleUnaryOperator` lambdas) and `Parameters.update` a third (`w += g`); it overwrites the gradient, ")
        .append(
            "so the benchmark refills it in place before each step (`setElements`: 2 more element moves per coordinate, no ")
        .append(
            "allocation; a Tribuo trainer instead allocates a fresh gradient per example). Its sparse step allocates one ")
        .append(
            "`SparseVector` per call. Minimal traffic is counted as for ours (5 doubles), so its GB/s is what it achieves ")
        .append("for the same useful work.\n\n");
    md.append(
        "| d | Tribuo ns/coord | ours, vector double | ours, scalar double | ours vector vs Tribuo |\n|---:|---:|---:|---:|---:|\n");
    for (Row r : tr) {
      Optional<Row> v = dense("AdaGradBench.dense", "double", "vector", r.size());
      Optional<Row> s = dense("AdaGradBench.dense", "double", "scalar", r.size());
      Md.row(
          md,
          r.size(),
          nsErr(r),
          v.map(ReportFigures::nsErr).orElse("–"),
          s.map(ReportFigures::nsErr).orElse("–"),
          ratio(Optional.of(r), v));
    }
    md.append(
        "\nIssue's figures for Tribuo on this machine kind: about 1.5 ns/coord in cache, 2.5 at d = 16M, 34-45 ns per nonzero sparse.\n\n");
  }
}
