package org.onlinekernels.bench.report;

import static org.onlinekernels.bench.report.Md.f2;
import static org.onlinekernels.bench.report.Md.f3;
import static org.onlinekernels.bench.report.Md.fs;
import static org.onlinekernels.bench.report.ReportWriter.rows;

import java.util.Optional;
import java.util.function.Predicate;

/** Looking up the report's rows and spelling their figures: ratios, GB/s, ns with their error. */
final class ReportFigures {
  private ReportFigures() {}

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
}
