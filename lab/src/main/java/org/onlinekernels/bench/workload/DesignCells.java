package org.onlinekernels.bench.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Issue #38's figures and verdicts, from two runs of the {@code metal-rules} profile: today's
 * design (this branch's run, which holds the C loop) and the first design (commit 09c30d6's run). A
 * cell is one rule on one stream: the C loop's, the first design's and today's {@code
 * trainer-trusted} ns per row (each a median pass), today x C and first x C (C's time over the
 * trainer's: 1 means C speed) and today / first (above 1: today is slower).
 *
 * <p>The verdicts: each rule's ratio to C against its target ({@link #target}) on every stream of d
 * = 2^20 or more; the median of today x C over all those cells against {@link #MEDIAN_TARGET}; and
 * per cell, on every stream, whether today is slower than the first design. Slower means today's
 * median pass above the first design's by more than {@link #TOLERANCE}: each figure is one JMH
 * fork, whose median moves between forks of the same code by more than a few percent (the kernel
 * handover's race, page placement), and one fork per side cannot measure that spread; a cell slower
 * by less is listed as within the tolerance, not passed silently.
 *
 * @param cells every rule x stream with a figure on either side, in the runs' order
 */
public record DesignCells(List<Cell> cells) {
  /** The contender both designs are judged by. */
  public static final String CONTENDER = "trainer-trusted";

  /** The median of today x C over the d >= 2^20 cells must reach this. */
  public static final double MEDIAN_TARGET = 0.6;

  /** Today's median more than this fraction above the first design's is slower. */
  public static final double TOLERANCE = 0.10;

  /** Smallest log2 d the targets are judged on. */
  public static final int TARGET_LOG_D = 20;

  /**
   * One rule on one stream; a figure a run lacks is NaN.
   *
   * @param stream workload spec, e.g. {@code zipf:20:40}
   * @param rule rule name
   * @param c the C loop's ns per row (today's run)
   * @param first the first design's ns per row
   * @param today today's ns per row
   */
  public record Cell(String stream, String rule, double c, double first, double today) {
    /** C's time over today's (NaN without both). */
    public double todayXc() {
      return c / today;
    }

    /** C's time over the first design's. */
    public double firstXc() {
      return c / first;
    }

    /** Today's time over the first design's. */
    public double todayOverFirst() {
      return today / first;
    }

    /** Whether the stream is one the targets are judged on. */
    public boolean judged() {
      return Integer.parseInt(stream.split(":")[1]) >= TARGET_LOG_D;
    }

    /** Today slower than the first design beyond {@link #TOLERANCE}. */
    public boolean slower() {
      return todayOverFirst() > 1 + TOLERANCE;
    }

    /** Today slower, but within {@link #TOLERANCE}. */
    public boolean slowerWithin() {
      return todayOverFirst() > 1 && !slower();
    }
  }

  /** A rule's target ratio to C: ScInOL2 0.6, AdaGrad 0.8, every other rule 0.5. */
  public static double target(String rule) {
    return switch (rule) {
      case "scinol2" -> 0.6;
      case "adagrad" -> 0.8;
      default -> 0.5;
    };
  }

  /** The cells of the two runs' float results (other contenders and types ignored). */
  public static DesignCells of(List<WorkloadResult> today, List<WorkloadResult> first) {
    Map<String, double[]> m = new LinkedHashMap<>();
    put(m, today, "c", 0);
    put(m, first, CONTENDER, 1);
    put(m, today, CONTENDER, 2);
    List<Cell> cells = new ArrayList<>();
    m.forEach(
        (k, v) -> {
          String[] sr = k.split(" ");
          cells.add(new Cell(sr[0], sr[1], v[0], v[1], v[2]));
        });
    return new DesignCells(cells);
  }

  private static void put(
      Map<String, double[]> m, List<WorkloadResult> rows, String contender, int slot) {
    for (WorkloadResult r : rows) {
      if (!r.contender().equals(contender) || !r.type().equals("float")) continue;
      double[] v =
          m.computeIfAbsent(
              r.workload() + " " + r.algo(),
              k -> new double[] {Double.NaN, Double.NaN, Double.NaN});
      v[slot] = r.msMedian() * 1e6 / r.rows();
    }
  }

  /** The rules, in the cells' order. */
  public List<String> rules() {
    return cells.stream().map(Cell::rule).distinct().toList();
  }

  /** The streams, in the cells' order. */
  public List<String> streams() {
    return cells.stream().map(Cell::stream).distinct().toList();
  }

  /** The cell of a rule on a stream. */
  public Optional<Cell> cell(String rule, String stream) {
    return cells.stream()
        .filter(c -> c.rule().equals(rule) && c.stream().equals(stream))
        .findFirst();
  }

  /** The judged cells of a rule that have today's and C's figures. */
  public List<Cell> judged(String rule) {
    return cells.stream()
        .filter(c -> c.rule().equals(rule) && c.judged() && !Double.isNaN(c.todayXc()))
        .toList();
  }

  /** Whether every judged cell of the rule reaches its target (false without any). */
  public boolean meets(String rule) {
    List<Cell> j = judged(rule);
    return !j.isEmpty() && j.stream().allMatch(c -> c.todayXc() >= target(rule));
  }

  /** The median of today x C over every rule's judged cells (NaN without any). */
  public double median() {
    double[] x =
        cells.stream()
            .filter(c -> c.judged() && !Double.isNaN(c.todayXc()))
            .mapToDouble(Cell::todayXc)
            .sorted()
            .toArray();
    if (x.length == 0) return Double.NaN;
    int h = x.length / 2;
    return x.length % 2 == 1 ? x[h] : (x[h - 1] + x[h]) / 2;
  }

  /** The cells, on every stream, where today is slower than the first design. */
  public List<Cell> slower() {
    return cells.stream().filter(Cell::slower).toList();
  }

  /** The cells where today is slower within the tolerance. */
  public List<Cell> slowerWithin() {
    return cells.stream().filter(Cell::slowerWithin).toList();
  }

  /** The cells that lack a figure of either design (a failed or missing fork). */
  public List<Cell> incomplete() {
    return cells.stream().filter(c -> Double.isNaN(c.first()) || Double.isNaN(c.today())).toList();
  }
}
