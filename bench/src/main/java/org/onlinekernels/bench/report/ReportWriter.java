package org.onlinekernels.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Predicate;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Renders {@code README.md} and the PNG charts of a report directory from its {@code results.csv}
 * and {@code run.properties}. Everything shown is derived from those two files plus the constants
 * below (minimal traffic per kernel, the reference figures), so a report can be re-rendered
 * without re-measuring.
 */
final class ReportWriter {
  private ReportWriter() {}

  /**
   * A dense kernel as the report names it, with its minimal elements moved per coordinate and how
   * many of them are reads (the rest are writes).
   */
  record Kernel(String id, String title, String bench, int elements, int reads, String why) {}

  static final List<Kernel> KERNELS =
      List.of(
          new Kernel(
              "adagrad",
              "AdaGrad, dense update",
              "AdaGradBench.dense",
              5,
              3,
              "read w, Q, g; write w, Q"),
          new Kernel(
              "scinol2",
              "ScInOL2 round (w recomputed)",
              "ScInOL2Bench.round",
              14,
              10,
              "predict: read G, S2, M, eta, x, write M; update: read G, S2, M, eta, x, write G, S2, eta"),
          new Kernel(
              "scinol2s",
              "ScInOL2 round (w stored)",
              "ScInOL2Bench.roundStored",
              15,
              10,
              "predict: read G, S2, M, eta, x, write M, w; update: read G, S2, eta, w, x, write G, S2, eta"),
          new Kernel(
              "scinol1",
              "ScInOL1 round",
              "ScInOL1Bench.round",
              12,
              8,
              "predict: read G, S2, M, beta, x, write M, beta; update: read G, S2, x, write G, S2"),
          new Kernel(
              "dfeg",
              "DFEG round",
              "DfegBench.round",
              5,
              4,
              "predict: read theta, x (<theta,x>, ||x||^2); update: read theta, x, write theta"),
          new Kernel(
              "globaladagrad",
              "Global AdaGrad step",
              "GradientStepBench.globalAdaGrad",
              4,
              3,
              "read g (||g||^2 first); read w, g, write w"),
          new Kernel(
              "aogdball",
              "Adaptive OGD step, ball",
              "GradientStepBench.aogdBall",
              5,
              4,
              "read w, g (||g||, <w,g>, ||w||); read w, g, write w"),
          new Kernel(
              "aogdcoord",
              "Adaptive OGD step, per coordinate",
              "GradientStepBench.aogdCoordinate",
              5,
              3,
              "read w, Lsum, g; write w, Lsum"));

  static final long CACHE_D = 16384;
  static final long DRAM_D = 16777216;
  static final long ROOF_N = 67108864;

  static List<Row> rows;
  static Properties props;
  static double roofGbs = Double.NaN;
  static double readGbs = Double.NaN;

  static void write(Path dir) throws IOException {
    rows = new ArrayList<>();
    List<String> lines = Files.readAllLines(dir.resolve("results.csv"));
    for (String l : lines.subList(1, lines.size())) if (!l.isBlank()) rows.add(Row.parse(l));
    props = new Properties();
    try (var r = Files.newBufferedReader(dir.resolve("run.properties"))) {
      props.load(r);
    }
    Optional<Row> roof =
        find(
            r ->
                r.group().equals("roof")
                    && r.bench().equals("RoofBench.inPlace")
                    && r.size() == ROOF_N);
    roof.ifPresent(r -> roofGbs = gbs(r, 3));
    find(r -> r.group().equals("roof") && r.bench().equals("RoofBench.read") && r.size() == ROOF_N)
        .ifPresent(r -> readGbs = gbs(r, 2));

    StringBuilder md = new StringBuilder();
    header(md);
    roofSection(md);
    headline(md);
    targets(md, dir);
    for (Kernel k : KERNELS) kernelSection(md, k, dir);
    sparseSection(md, dir);
    peerSection(md);
    Path notes = dir.toAbsolutePath().getParent().resolve("bench").resolve("report-notes.md");
    if (Files.exists(notes)) {
      md.append("\n").append(Files.readString(notes));
    }
    Files.writeString(dir.resolve("README.md"), md.toString());
  }

  // ---------------------------------------------------------------- header

  static void header(StringBuilder md) {
    md.append("# online-kernels: benchmark report\n\n");
    md.append("Generated by `mvn -q -pl bench -am compile exec:exec@bench-report -Dbench.profile=")
        .append(props.getProperty("profile"))
        .append("` (see `bench/README.md`). Every number below was measured in one run, ")
        .append(
            "on this machine, by the JMH suite in `bench/src/main/java`; ratios compare figures of the same run.\n\n");
    md.append("| | |\n|---|---|\n");
    md.append("| date | ").append(props.getProperty("date")).append(" |\n");
    md.append("| CPU | ")
        .append(props.getProperty("cpu.model"))
        .append(", ")
        .append(props.getProperty("cpu.cores"))
        .append(" cores visible to the JVM, AVX-512F: ")
        .append(props.getProperty("cpu.flags.avx512f"))
        .append(" |\n");
    md.append("| caches (per cpu0) | ").append(props.getProperty("cpu.caches")).append(" |\n");
    md.append("| memory | ").append(props.getProperty("memory")).append(" |\n");
    md.append("| vector width | ")
        .append(props.getProperty("vector.bits"))
        .append(" bits preferred by the Vector API (")
        .append(Integer.parseInt(props.getProperty("vector.bits")) / 32)
        .append(" floats / ")
        .append(Integer.parseInt(props.getProperty("vector.bits")) / 64)
        .append(" doubles) |\n");
    md.append("| JDK | ").append(props.getProperty("jdk")).append(" |\n");
    md.append("| OS | ").append(props.getProperty("os")).append(" |\n");
    md.append("| JMH | ")
        .append(props.getProperty("jmh.version"))
        .append("; ")
        .append(props.getProperty("jmh.settings"))
        .append(" |\n");
    md.append("| run | profile `")
        .append(props.getProperty("profile"))
        .append("`, ")
        .append(props.getProperty("wall.seconds"))
        .append(" s wall, load average at start: ")
        .append(props.getProperty("loadavg"))
        .append(" |\n");
    String failed = props.getProperty("failed", "");
    if (!failed.isEmpty()) md.append("| **failed groups** | ").append(failed).append(" |\n");
    md.append(
            "\nThe machine is shared with other jobs, so noise is shown everywhere. Figures are the **median** iteration ")
        .append(
            "(one disturbed iteration moves a mean of five a lot); in brackets JMH's mean ± its 99.9 % confidence half-width; ")
        .append(
            "the per-kernel tables also give min / median / max per call. Ratios (speedups, % of roof) use medians.\n\n");
    md.append("## Minimal traffic per coordinate\n\n");
    md.append(
            "What each kernel must move at the least (derived from its rule in `ALGORITHMS.md`; STREAM convention: ")
        .append(
            "reads plus writes, no write-allocate). A linear-model round is two passes by nature: the update needs ")
        .append(
            "`g`, which needs the whole prediction. Effective GB/s = elements x element size / (ns per coordinate).\n\n");
    md.append(
        "| kernel | elements per coordinate | of which read | which |\n|---|---:|---:|---|\n");
    for (Kernel k : KERNELS) {
      md.append("| ")
          .append(k.title())
          .append(" | ")
          .append(k.elements())
          .append(" | ")
          .append(k.reads())
          .append(" | ")
          .append(k.why())
          .append(" |\n");
    }
    md.append("| roof: in-place `a += s*b` | 3 | 2 | read a, b; write a |\n");
    md.append("| roof: read `sum a + sum b` | 2 | 2 | read a, b |\n\n");
  }

  static void roofSection(StringBuilder md) {
    md.append("## Memory-bandwidth roof (one core, measured in this run)\n\n");
    md.append(
        "| pass | n (floats per array) | ns per element, median (mean ± err) | GB/s (median) | min / median / max per call |\n|---|---:|---:|---:|---|\n");
    for (Row r : rows) {
      if (!r.bench().startsWith("RoofBench")) continue;
      int el = r.bench().endsWith("copy") || r.bench().endsWith("read") ? 2 : 3;
      String name =
          r.bench().substring("RoofBench.".length())
              + (r.group().equals("roof-again") ? " (again, end of run)" : "");
      md.append("| ")
          .append(name)
          .append(" | ")
          .append(r.size())
          .append(" | ")
          .append(nsErr(r))
          .append(" | ")
          .append(f1(gbs(r, el)))
          .append(" | ")
          .append(mmm(r))
          .append(" |\n");
    }
    md.append(
            "\nThe DRAM roof used for **% of roof** below is the in-place pass at n = 64M (256 MiB per array, 8x the L3): **")
        .append(f1(roofGbs))
        .append(" GB/s**. ");
    if (Double.isFinite(readGbs)) {
      md.append("Reads alone (`read`, two streams summed) run at **")
          .append(f1(readGbs))
          .append(" GB/s**, ")
          .append(pct(readGbs / roofGbs))
          .append(" of it: one core's reads are the limit, and a write beside them costs ")
          .append(
              "little. A kernel that reads `r` and writes `w` elements per coordinate can therefore stream at most at ")
          .append(
              "about `(r + w) / r` x the read rate, its **read-stream ceiling** in the targets table.");
    }
    md.append("\n\n");
  }

  // ---------------------------------------------------------------- headline

  static void headline(StringBuilder md) {
    md.append("## Headline\n\n");
    md.append(
            "Vector kernels; ns per coordinate in cache (d = 16,384) and from DRAM (d = 16,777,216); % of the in-place roof ")
        .append(
            "counting minimal bytes; speedups over the scalar fallback and the hand-written Java loop of the same run.\n\n");
    md.append(
        "| kernel | type | ns/coord in cache | ns/coord DRAM | GB/s DRAM | % roof | x scalar (cache / DRAM) | x hand-written (cache / DRAM) |\n");
    md.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (Kernel k : KERNELS) {
      for (String t : new String[] {"float", "double"}) {
        Optional<Row> c = dense(k.bench(), t, "vector", CACHE_D);
        Optional<Row> m = dense(k.bench(), t, "vector", DRAM_D);
        if (c.isEmpty() && m.isEmpty()) continue;
        md.append("| ")
            .append(k.title())
            .append(" | ")
            .append(t)
            .append(" | ")
            .append(c.map(ReportWriter::nsErr).orElse("–"))
            .append(" | ")
            .append(m.map(ReportWriter::nsErr).orElse("–"))
            .append(" | ")
            .append(m.map(r -> f1(gbs(r, k.elements()))).orElse("–"))
            .append(" | ")
            .append(m.map(r -> pct(gbs(r, k.elements()) / roofGbs)).orElse("–"))
            .append(" | ")
            .append(ratio(dense(k.bench(), t, "scalar", CACHE_D), c))
            .append(" / ")
            .append(ratio(dense(k.bench(), t, "scalar", DRAM_D), m))
            .append(" | ")
            .append(handRatio(k, t, CACHE_D, c))
            .append(" / ")
            .append(handRatio(k, t, DRAM_D, m))
            .append(" |\n");
      }
    }
    md.append("\n");
  }

  static String handRatio(Kernel k, String t, long d, Optional<Row> ours) {
    String hb =
        switch (k.id()) {
          case "adagrad" -> "AdaGradBench.handwritten";
          case "scinol2", "scinol2s" -> "ScInOL2Bench.handwritten";
          default -> null;
        };
    if (hb == null) return "–";
    return ratio(find(r -> r.bench().equals(hb) && r.size() == d && r.type().equals(t)), ours);
  }

  // ---------------------------------------------------------------- targets

  record Target(String what, String reference, Optional<Row> row, double limitNs, String rule) {}

  static void targets(StringBuilder md, Path dir) {
    md.append("## Targets of issue #4\n\n");
    md.append(
            "Reference figures: gcc 12 `-O3 -march=native`, float unless noted, ns per coordinate, measured on this machine kind ")
        .append(
            "(from the issue). In cache a kernel must reach 0.9x their throughput (time <= figure / 0.9); ScInOL1 within ")
        .append(
            "1.2x of the vectorized-expf figure; at d = 16M at least 90 % of this run's in-place roof counting minimal bytes; ")
        .append("sparse no slower per nonzero than the figures' upper end.\n\n");
    md.append("| target | reference | limit | measured | verdict |\n|---|---:|---:|---:|---|\n");
    cacheTarget(md, "AdaGrad float, in cache", "AdaGradBench.dense", "float", 0.33, 0.9);
    cacheTarget(md, "AdaGrad double, in cache", "AdaGradBench.dense", "double", 1.04, 0.9);
    cacheTarget(
        md, "ScInOL2 round (recomputed w), in cache", "ScInOL2Bench.round", "float", 1.03, 0.9);
    cacheTarget(
        md, "ScInOL2 round (stored w), in cache", "ScInOL2Bench.roundStored", "float", 0.74, 0.9);
    cacheTarget(
        md,
        "ScInOL1 round, in cache (vectorized expf)",
        "ScInOL1Bench.round",
        "float",
        1.57,
        1 / 1.2);
    cacheTarget(md, "DFEG round, in cache", "DfegBench.round", "float", 0.32, 0.9);
    // ScInOL2 at least 2x the hand-written loop, in cache.
    Optional<Row> hw =
        find(
            r ->
                r.bench().equals("ScInOL2Bench.handwritten")
                    && r.size() == CACHE_D
                    && r.type().equals("float"));
    Optional<Row> best =
        bestOf(
            dense("ScInOL2Bench.round", "float", "vector", CACHE_D),
            dense("ScInOL2Bench.roundStored", "float", "vector", CACHE_D));
    if (hw.isPresent() && best.isPresent()) {
      double sp = hw.get().median() / best.get().median();
      md.append("| ScInOL2 >= 2x the hand-written loop, in cache | hand loop ")
          .append(f3(hw.get().nsPerUnit()))
          .append(" ns/coord (issue: ~2.3) | 2.00x | ")
          .append(f2(sp))
          .append("x | ")
          .append(verdict(sp >= 2))
          .append(" |\n");
    }
    String[][] dram = {
      {"AdaGrad float", "AdaGradBench.dense", "float", "0.56", "adagrad"},
      {"AdaGrad double", "AdaGradBench.dense", "double", "1.23", "adagrad"},
      {"ScInOL2 round (recomputed w)", "ScInOL2Bench.round", "float", "1.9", "scinol2"},
      {"ScInOL2 round (stored w)", "ScInOL2Bench.roundStored", "float", "1.9", "scinol2s"},
      {"ScInOL1 round", "ScInOL1Bench.round", "float", "2.33", "scinol1"},
      {"DFEG round", "DfegBench.round", "float", "0.83", "dfeg"}
    };
    for (String[] t : dram) {
      Kernel k = KERNELS.stream().filter(x -> x.id().equals(t[4])).findFirst().orElseThrow();
      Optional<Row> r = dense(t[1], t[2], "vector", DRAM_D);
      if (r.isEmpty()) continue;
      double p = gbs(r.get(), k.elements()) / roofGbs;
      String ceiling =
          Double.isFinite(readGbs)
              ? "; read-stream ceiling " + pct(readGbs * k.elements() / k.reads() / roofGbs)
              : "";
      md.append("| ")
          .append(t[0])
          .append(", d = 16M, >= 90 % of roof | ")
          .append(t[3])
          .append(" ns/coord | 90 % (")
          .append(f1(0.9 * roofGbs))
          .append(" GB/s) | ")
          .append(pct(p))
          .append(" (")
          .append(f3(r.get().nsPerUnit()))
          .append(" ns/coord")
          .append(ceiling)
          .append(") | ")
          .append(verdict(p >= 0.9))
          .append(" |\n");
    }
    sparseTarget(md, "AdaGrad sparse", "AdaGradBench.sparse", 11, 19);
    sparseTarget(md, "ScInOL2 sparse round", "ScInOL2Bench.sparse", 58, 86);
    md.append("\n");
  }

  static void cacheTarget(
      StringBuilder md, String what, String bench, String t, double ref, double factor) {
    Optional<Row> r = dense(bench, t, "vector", CACHE_D);
    if (r.isEmpty()) return;
    double limit = ref / factor;
    double ns = r.get().nsPerUnit();
    md.append("| ")
        .append(what)
        .append(" | ")
        .append(f2(ref))
        .append(" ns/coord | <= ")
        .append(f3(limit))
        .append(" | ")
        .append(nsErr(r.get()))
        .append(" (")
        .append(f2(ref / ns))
        .append("x the reference throughput) | ")
        .append(verdict(ns <= limit))
        .append(" |\n");
  }

  static void sparseTarget(StringBuilder md, String what, String bench, double lo, double hi) {
    for (Row r : rows) {
      if (!r.bench().equals(bench) || !r.impl().equals("vector") || !r.type().equals("float"))
        continue;
      md.append("| ")
          .append(what)
          .append(", float, nnz = ")
          .append(r.nnz())
          .append(" | ")
          .append(f1(lo))
          .append("-")
          .append(f1(hi))
          .append(" ns/nnz | <= ")
          .append(f1(hi))
          .append(" | ")
          .append(f2(r.nsPerUnit()))
          .append(" ns/nnz (")
          .append(f2(r.meanPerUnit()))
          .append(" ± ")
          .append(f2(r.error() / r.nnz()))
          .append(") | ")
          .append(verdict(r.nsPerUnit() <= hi))
          .append(" |\n");
    }
  }

  static String verdict(boolean met) {
    return met ? "met" : "**missed**";
  }

  // ---------------------------------------------------------------- per kernel

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
      md.append("| ")
          .append(label(r))
          .append(" | ")
          .append(r.size())
          .append(" | ")
          .append(nsErr(r))
          .append(" | ")
          .append(mmm(r))
          .append(" | ")
          .append(f1(bytes / r.nsPerUnit()))
          .append(" | ")
          .append(pct(bytes / r.nsPerUnit() / roofGbs))
          .append(" | ")
          .append(sc.isPresent() ? ratio(sc, Optional.of(r)) : "")
          .append(" |\n");
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
      case "scinol1" -> b.equals("ScInOL1Bench.round") || b.equals("ScInOL1Bench.reference");
      case "dfeg" -> b.equals("DfegBench.round") || b.equals("DfegBench.reference");
      default -> b.equals(k.bench());
    };
  }

  static String label(Row r) {
    String b = r.bench();
    if (b.endsWith(".handwritten")) return "hand-written loop, " + r.type() + "[]";
    if (b.endsWith(".reference")) return "reference (double[])";
    if (b.startsWith("TribuoBench")) return "Tribuo AdaGrad (double)";
    return r.impl() + " " + r.type();
  }

  static void charts(Kernel k, List<Row> own, Path nsPng, Path gbPng) throws IOException {
    Map<String, List<Row>> series = new LinkedHashMap<>();
    for (Row r : own) series.computeIfAbsent(label(r), x -> new ArrayList<>()).add(r);
    XYChart ns =
        chart(
            k.title() + ": ns per coordinate (lower is better)",
            "d (coordinates, log)",
            "ns per coordinate (log)");
    ns.getStyler().setYAxisLogarithmic(true);
    XYChart gb =
        chart(
            k.title() + ": effective GB/s at " + k.elements() + " elements/coord",
            "d (coordinates, log)",
            "GB/s");
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

  static XYChart chart(String title, String x, String y) {
    XYChart c =
        new XYChartBuilder()
            .width(900)
            .height(520)
            .title(title)
            .xAxisTitle(x)
            .yAxisTitle(y)
            .build();
    c.getStyler().setXAxisLogarithmic(true);
    c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    c.getStyler().setMarkerSize(7);
    c.getStyler().setErrorBarsColorSeriesColor(true);
    c.getStyler().setChartBackgroundColor(Color.WHITE);
    return c;
  }

  // ---------------------------------------------------------------- sparse and peer

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
      String name =
          r.bench()
              .replace("Bench.sparse", "")
              .replace("GradientStepBench.", "")
              .replace("Sparse", "");
      if (r.bench().startsWith("TribuoBench")) name = "Tribuo AdaGrad";
      md.append("| ")
          .append(name)
          .append(" | ")
          .append(r.elementType())
          .append(" | ")
          .append(r.impl().isEmpty() ? "–" : r.impl())
          .append(" | ")
          .append(r.nnz())
          .append(" | ")
          .append(f2(r.nsPerUnit()))
          .append(" (")
          .append(f2(r.meanPerUnit()))
          .append(" ± ")
          .append(f2(r.error() / r.nnz()))
          .append(") | ")
          .append(mmm(r))
          .append(" |\n");
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
      md.append("| ")
          .append(r.size())
          .append(" | ")
          .append(nsErr(r))
          .append(" | ")
          .append(v.map(ReportWriter::nsErr).orElse("–"))
          .append(" | ")
          .append(s.map(ReportWriter::nsErr).orElse("–"))
          .append(" | ")
          .append(ratio(Optional.of(r), v))
          .append(" |\n");
    }
    md.append(
        "\nIssue's figures for Tribuo on this machine kind: about 1.5 ns/coord in cache, 2.5 at d = 16M, 34-45 ns per nonzero sparse.\n\n");
  }

  // ---------------------------------------------------------------- helpers

  static Optional<Row> find(Predicate<Row> p) {
    return rows.stream().filter(p).findFirst();
  }

  static Optional<Row> dense(String bench, String type, String impl, long d) {
    return find(
        r ->
            r.bench().equals(bench)
                && r.type().equals(type)
                && r.impl().equals(impl)
                && r.size() == d
                && r.nnz() == 0);
  }

  static Optional<Row> bestOf(Optional<Row> a, Optional<Row> b) {
    if (a.isEmpty()) return b;
    if (b.isEmpty()) return a;
    return a.get().median() <= b.get().median() ? a : b;
  }

  static double gbs(Row r, int elements) {
    int el = r.elementType().equals("float") ? 4 : 8;
    return elements * el / r.nsPerUnit();
  }

  /** How many times faster {@code fast} is than {@code slow}. */
  static String ratio(Optional<Row> slow, Optional<Row> fast) {
    if (slow.isEmpty() || fast.isEmpty()) return "–";
    return f2(slow.get().median() / fast.get().median()) + "x";
  }

  /** Median per unit, then JMH's mean ± 99.9 % error in brackets. */
  static String nsErr(Row r) {
    return f3(r.nsPerUnit()) + " (" + f3(r.meanPerUnit()) + " ± " + f3(r.error() / r.units()) + ")";
  }

  static String mmm(Row r) {
    return fs(r.min()) + " / " + fs(r.median()) + " / " + fs(r.max());
  }

  static String fs(double ns) {
    if (ns >= 1e6) return String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
    if (ns >= 1e3) return String.format(Locale.ROOT, "%.2f µs", ns / 1e3);
    return String.format(Locale.ROOT, "%.1f ns", ns);
  }

  static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  static String f2(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  static String f3(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }

  static String pct(double v) {
    return String.format(Locale.ROOT, "%.0f %%", 100 * v);
  }
}
