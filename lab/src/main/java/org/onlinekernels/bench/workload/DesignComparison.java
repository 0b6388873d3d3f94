package org.onlinekernels.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * Issue #38's comparison page: {@code MetalStreams compare TODAY_DIR FIRST_DIR OUT.md} reads the
 * two {@code metal-rules} runs' {@code workload-results.csv} and {@code workload-run.properties}
 * (today's design with the C loop, the first design's from lab/scripts/first-design/run.sh) and
 * writes one markdown page: the runs' circumstances, the verdicts ({@link DesignCells}), a summary
 * per rule with the in-cache {@code zipf:14:40} ratios beside the worst d >= 2^20 one (compute
 * against memory), and every rule x stream cell.
 */
public final class DesignComparison {
  private static final String[] RUN_KEYS = {
    "profile",
    "date",
    "vector.bits",
    "contenders",
    "jvm.args.extra",
    "c.flags.extra",
    "c.status",
    "c.check",
    "loadavg",
    "loadavg.end",
    "wall.seconds",
    "failed"
  };

  private DesignComparison() {}

  /** Writes the page of runs {@code today} and {@code first} to {@code out}. */
  public static void write(Path today, Path first, Path out) throws IOException {
    DesignCells d = DesignCells.of(WorkloadResult.read(today), WorkloadResult.read(first));
    Properties pt = props(today);
    Properties pf = props(first);
    StringBuilder md = new StringBuilder("# Issue #38: today's design, the first design and C\n\n");
    md.append("| | today (").append(today).append(") | first design (").append(first);
    md.append(") |\n|---|---|---|\n");
    for (String k : RUN_KEYS) {
      md.append("| ").append(k).append(" | ").append(pt.getProperty(k, "–"));
      md.append(" | ").append(pf.getProperty(k, "–")).append(" |\n");
    }
    if (!pt.getProperty("vector.bits", "").equals(pf.getProperty("vector.bits", ""))) {
      md.append("\n**The runs' vector widths differ: the comparison is not like for like.**\n");
    }
    md.append("\nFigures: ns per row, median pass of one JMH fork (`")
        .append(DesignCells.CONTENDER)
        .append("`; C: median of its passes, today's run). x C = C's time / the trainer's.\n");
    verdicts(md, d);
    summary(md, d);
    cells(md, d);
    Files.writeString(out, md.toString());
  }

  private static void verdicts(StringBuilder md, DesignCells d) {
    md.append("\n## Verdicts\n\n");
    for (String rule : d.rules()) {
      List<DesignCells.Cell> j = d.judged(rule);
      md.append("- **").append(rule).append(" at least ");
      md.append(f2(DesignCells.target(rule))).append("x C on d >= 2^20**: ");
      if (j.isEmpty()) {
        md.append("not judged (no cell at d >= 2^20: not run, O(d) per row or no C time)\n");
        continue;
      }
      long met = j.stream().filter(c -> c.todayXc() >= DesignCells.target(rule)).count();
      md.append(d.meets(rule) ? "**met**" : "**missed**");
      md.append(": ").append(met).append(" of ").append(j.size()).append(" cells\n");
    }
    double m = d.median();
    md.append("- **Median x C over every rule on d >= 2^20 at least ")
        .append(f2(DesignCells.MEDIAN_TARGET))
        .append("x**: ")
        .append(
            Double.isNaN(m)
                ? "not judged"
                : (m >= DesignCells.MEDIAN_TARGET ? "**met**" : "**missed**"))
        .append(" (")
        .append(f2(m))
        .append("x)\n");
    List<DesignCells.Cell> slow = d.slower();
    md.append("- **No rule slower than the first design on any stream** (slower: today's median ")
        .append("more than ")
        .append(Math.round(DesignCells.TOLERANCE * 100))
        .append(" % above the first design's): ")
        .append(slow.isEmpty() ? "**met**" : "**missed**: " + list(slow))
        .append('\n');
    List<DesignCells.Cell> within = d.slowerWithin();
    if (!within.isEmpty())
      md.append("- Slower within the tolerance: ").append(list(within)).append('\n');
    List<DesignCells.Cell> inc = d.incomplete();
    if (!inc.isEmpty())
      md.append("- **Cells without both designs' figures**: ").append(list(inc)).append('\n');
  }

  private static void summary(StringBuilder md, DesignCells d) {
    md.append("\n## Per rule: in cache against d >= 2^20\n\n");
    md.append("| rule | target | today x C, zipf:14:40 | today x C, worst d >= 2^20 | ");
    md.append("today / first, zipf:14:40 | today / first, worst d >= 2^20 |\n");
    md.append("|---|---:|---:|---:|---:|---:|\n");
    for (String rule : d.rules()) {
      var in = d.cell(rule, "zipf:14:40");
      List<DesignCells.Cell> j =
          d.cells().stream().filter(c -> c.rule().equals(rule) && c.judged()).toList();
      md.append("| ").append(rule).append(" | ").append(f2(DesignCells.target(rule))).append(" | ");
      md.append(in.map(c -> f2(c.todayXc())).orElse("–")).append(" | ");
      md.append(f2(j.stream().mapToDouble(DesignCells.Cell::todayXc).min().orElse(Double.NaN)));
      md.append(" | ").append(in.map(c -> f2(c.todayOverFirst())).orElse("–")).append(" | ");
      md.append(
          f2(j.stream().mapToDouble(DesignCells.Cell::todayOverFirst).max().orElse(Double.NaN)));
      md.append(" |\n");
    }
  }

  private static void cells(StringBuilder md, DesignCells d) {
    md.append("\n## Every rule x stream\n\n");
    md.append("| rule | stream | C | first | today | today x C | first x C | today / first |\n");
    md.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (String rule : d.rules()) {
      for (String s : d.streams()) {
        var c = d.cell(rule, s);
        if (c.isEmpty()) continue;
        DesignCells.Cell x = c.get();
        md.append("| ").append(rule).append(" | ").append(s).append(" | ");
        md.append(f0(x.c())).append(" | ").append(f0(x.first())).append(" | ");
        md.append(f0(x.today())).append(" | ").append(f2(x.todayXc())).append(" | ");
        md.append(f2(x.firstXc())).append(" | ").append(f2(x.todayOverFirst()));
        md.append(x.slower() ? " **slower**" : "").append(" |\n");
      }
    }
  }

  private static String list(List<DesignCells.Cell> cells) {
    return String.join(
        ", ",
        cells.stream()
            .map(c -> c.rule() + " on " + c.stream() + " (" + f2(c.todayOverFirst()) + ")")
            .toList());
  }

  private static Properties props(Path dir) throws IOException {
    Properties p = new Properties();
    Path f = dir.resolve("workload-run.properties");
    if (Files.exists(f)) {
      try (var r = Files.newBufferedReader(f)) {
        p.load(r);
      }
    }
    return p;
  }

  private static String f2(double x) {
    return Double.isNaN(x) ? "–" : String.format(Locale.ROOT, "%.2f", x);
  }

  private static String f0(double x) {
    return Double.isNaN(x) ? "–" : String.format(Locale.ROOT, "%.0f", x);
  }
}
