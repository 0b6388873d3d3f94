package org.onlinekernels.bench.report;

import static org.onlinekernels.bench.report.Md.f1;
import static org.onlinekernels.bench.report.Md.pct;
import static org.onlinekernels.bench.report.ReportFigures.dense;
import static org.onlinekernels.bench.report.ReportFigures.gbs;
import static org.onlinekernels.bench.report.ReportFigures.mmm;
import static org.onlinekernels.bench.report.ReportFigures.nsErr;
import static org.onlinekernels.bench.report.ReportFigures.ratio;
import static org.onlinekernels.bench.report.ReportWriter.DRAM_D;
import static org.onlinekernels.bench.report.ReportWriter.roofGbs;
import static org.onlinekernels.bench.report.ReportWriter.rows;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.onlinekernels.bench.report.ReportWriter.Kernel;

/**
 * The report's section of one dense kernel: its table of sizes, element types and implementations,
 * and its two charts (ns per element, GB/s).
 */
final class KernelSection {
  private KernelSection() {}

  static void kernelSection(StringBuilder md, Kernel k, Path dir) throws IOException {
    List<Row> own = new ArrayList<>();
    for (Row r : rows) if (belongs(r, k)) own.add(r);
    if (own.isEmpty()) return;
    md.append("## ").append(k.title()).append("\n\n");
    md.append("Minimal traffic: ")
        .append(k.elements())
        .append(" elements per coordinate (")
        .append(k.why())
        .append(").\n\n");
    String nsPng = k.id() + "-ns.png";
    String gbPng = k.id() + "-gbs.png";
    charts(k, own, dir.resolve(nsPng), dir.resolve(gbPng));
    md.append("![ns per coordinate](")
        .append(nsPng)
        .append(")\n![GB/s](")
        .append(gbPng)
        .append(")\n\n");
    md.append(
        "| variant | d | ns/coord median (mean ± err) | min / median / max ns per call | GB/s | % roof | x scalar |\n|---|---:|---:|---|---:|---:|---:|\n");
    for (Row r : own) {
      int bytes = k.elements() * (r.elementType().equals("float") ? 4 : 8);
      Optional<Row> sc =
          r.impl().equals("vector")
              ? dense(r.bench(), r.type(), "scalar", r.size())
              : Optional.empty();
      Md.row(
          md,
          label(r),
          r.size(),
          nsErr(r),
          mmm(r),
          f1(bytes / r.nsPerUnit()),
          pct(bytes / r.nsPerUnit() / roofGbs),
          sc.isPresent() ? ratio(sc, Optional.of(r)) : "");
    }
    md.append("\n");
  }

  static boolean belongs(Row r, Kernel k) {
    String b = r.bench();
    return switch (k.id()) {
      case "adagrad" ->
          b.equals("AdaGradBench.dense")
              || b.equals("AdaGradBench.handwritten")
              || b.equals("AdaGradBench.reference")
              || b.equals("TribuoBench.dense");
      case "scinol2" ->
          b.equals("ScInOL2Bench.round")
              || b.equals("ScInOL2Bench.handwritten")
              || b.equals("ScInOL2Bench.reference");
      default -> b.equals(k.bench()) || b.equals(k.bench().replace(".round:", ".reference:"));
    };
  }

  static String label(Row r) {
    String b = r.bench().replaceAll(":.*", ""); // RuleBench's rows without their rule
    if (b.endsWith(".handwritten")) return "hand-written loop, " + r.type() + "[]";
    if (b.endsWith(".reference")) return "reference (double[])";
    if (b.startsWith("TribuoBench")) return "Tribuo AdaGrad (double)";
    return r.impl() + " " + r.type();
  }

  static void charts(Kernel k, List<Row> own, Path nsPng, Path gbPng) throws IOException {
    Map<String, List<Row>> series = new LinkedHashMap<>();
    for (Row r : own) series.computeIfAbsent(label(r), x -> new ArrayList<>()).add(r);
    XYChart ns =
        Md.chart(
            k.title() + ": ns per coordinate (lower is better)",
            "d (coordinates, log)",
            "ns per coordinate (log)",
            520,
            Styler.LegendPosition.OutsideS);
    ns.getStyler().setYAxisLogarithmic(true);
    XYChart gb =
        Md.chart(
            k.title() + ": effective GB/s at " + k.elements() + " elements/coord",
            "d (coordinates, log)",
            "GB/s",
            520,
            Styler.LegendPosition.OutsideS);
    for (var e : series.entrySet()) {
      List<Row> rs = e.getValue();
      double[] x = rs.stream().mapToDouble(Row::size).toArray();
      double[] y = rs.stream().mapToDouble(Row::nsPerUnit).toArray();
      double[] err =
          rs.stream()
              .mapToDouble(r -> Math.min(r.error() / r.size(), 0.99 * r.nsPerUnit()))
              .toArray();
      ns.addSeries(e.getKey(), x, y, err);
      double[] g =
          rs.stream()
              .mapToDouble(
                  r -> k.elements() * (r.elementType().equals("float") ? 4 : 8) / r.nsPerUnit())
              .toArray();
      double[] ge = new double[rs.size()];
      for (int i = 0; i < ge.length; i++)
        ge[i] = Math.min(g[i] * rs.get(i).error() / rs.get(i).score(), 0.99 * g[i]);
      gb.addSeries(e.getKey(), x, g, ge);
    }
    List<Row> roof =
        rows.stream()
            .filter(
                r ->
                    r.group().equals("roof")
                        && r.bench().equals("RoofBench.inPlace")
                        && r.size() <= DRAM_D * 4)
            .toList();
    if (!roof.isEmpty()) {
      XYSeries s =
          gb.addSeries(
              "roof: in-place a += s*b (float)",
              roof.stream().mapToDouble(Row::size).toArray(),
              roof.stream().mapToDouble(r -> gbs(r, 3)).toArray());
      s.setMarker(SeriesMarkers.NONE);
      s.setLineColor(Color.BLACK);
      s.setLineStyle(
          new BasicStroke(
              2.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 6f}, 0f));
    }
    BitmapEncoder.saveBitmap(ns, nsPng.toString(), BitmapEncoder.BitmapFormat.PNG);
    BitmapEncoder.saveBitmap(gb, gbPng.toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
