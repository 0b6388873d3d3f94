package org.onlinekernels.bench.report;

import static org.onlinekernels.bench.report.KernelSection.kernelSection;
import static org.onlinekernels.bench.report.Md.f1;
import static org.onlinekernels.bench.report.Md.pct;
import static org.onlinekernels.bench.report.ReportFigures.dense;
import static org.onlinekernels.bench.report.ReportFigures.find;
import static org.onlinekernels.bench.report.ReportFigures.gbs;
import static org.onlinekernels.bench.report.ReportFigures.mmm;
import static org.onlinekernels.bench.report.ReportFigures.nsErr;
import static org.onlinekernels.bench.report.ReportFigures.ratio;
import static org.onlinekernels.bench.report.SparseAndPeerSections.peerSection;
import static org.onlinekernels.bench.report.SparseAndPeerSections.sparseSection;
import static org.onlinekernels.bench.report.TargetsSection.targets;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * Renders {@code kernels.md} and the PNG charts of a report directory from its {@code results.csv}
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
              "RuleBench.round:scinol1",
              12,
              8,
              "predict: read G, S2, M, beta, x, write M, beta; update: read G, S2, x, write G, S2"),
          new Kernel(
              "dfeg",
              "DFEG round",
              "RuleBench.round:dfeg",
              5,
              4,
              "predict: read theta, x (<theta,x>, ||x||^2); update: read theta, x, write theta"),
          new Kernel(
              "ftrl",
              "FTRL-Proximal round",
              "RuleBench.round:ftrl",
              8,
              6,
              "predict: read z, N, x; update: read z, N, x, write z, N"),
          new Kernel(
              "kt",
              "KT coin betting round",
              "RuleBench.round:kt",
              11,
              8,
              "predict: read theta, W, k, x; update: read theta, W, k, x, write theta, W, k"),
          new Kernel(
              "freegrad",
              "FreeGrad round",
              "RuleBench.round:freegrad",
              14,
              10,
              "predict: read G, Vsum, h1, ht, x; update: read G, Vsum, h1, ht, x, write G, Vsum, h1,"
                  + " ht"),
          new Kernel(
              "globaladagrad",
              "Global AdaGrad step",
              "RuleBench.step:adagrad-global",
              4,
              3,
              "read g (||g||^2 first); read w, g, write w"),
          new Kernel(
              "aogdball",
              "Adaptive OGD step, ball",
              "RuleBench.step:aogd-ball",
              5,
              4,
              "read w, g (||g||, <w,g>, ||w||); read w, g, write w"),
          new Kernel(
              "aogdcoord",
              "Adaptive OGD step, per coordinate",
              "RuleBench.step:aogd-coord",
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
    // The analysis written by hand after a run, kept beside the report it explains.
    Path notes = dir.resolve("kernels-notes.md");
    if (Files.exists(notes)) {
      md.append("\n").append(Files.readString(notes));
    }
    Files.writeString(dir.resolve("kernels.md"), md.toString());
  }

  static void header(StringBuilder md) {
    md.append("# online-kernels: benchmark report\n\n");
    md.append("Generated by `mvn -q -pl bench -am compile exec:exec@bench-report -Dbench.profile=")
        .append(props.getProperty("profile"))
        .append("` (see `bench/README.md`). Every number below was measured in one run, ")
        .append(
            "on this machine, by the JMH suite in `bench/src/main/java`; ratios compare figures of the same run.\n\n");
    int bits = Integer.parseInt(props.getProperty("vector.bits"));
    MachineInfo.table(md, props, " (" + bits / 32 + " floats / " + bits / 64 + " doubles)");
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
      Md.row(md, k.title(), k.elements(), k.reads(), k.why());
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
      Md.row(md, name, r.size(), nsErr(r), f1(gbs(r, el)), mmm(r));
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
        Md.row(
            md,
            k.title(),
            t,
            c.map(ReportFigures::nsErr).orElse("–"),
            m.map(ReportFigures::nsErr).orElse("–"),
            m.map(r -> f1(gbs(r, k.elements()))).orElse("–"),
            m.map(r -> pct(gbs(r, k.elements()) / roofGbs)).orElse("–"),
            ratio(dense(k.bench(), t, "scalar", CACHE_D), c)
                + " / "
                + ratio(dense(k.bench(), t, "scalar", DRAM_D), m),
            handRatio(k, t, CACHE_D, c) + " / " + handRatio(k, t, DRAM_D, m));
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
}
