package org.onlinekernels.bench.report;

import java.util.Locale;

/**
 * One JMH result, as stored in {@code bench-report/results.csv}: time per call in ns with JMH's
 * 99.9 % error and the min/median/max over measurement iterations.
 *
 * @param group profile group that produced it
 * @param bench {@code Class.method}, e.g. {@code AdaGradBench.dense}, and for {@code RuleBench} the
 *     rule: {@code RuleBench.round:dfeg}
 * @param size {@code d} (dense) or {@code n} (roof); 0 where absent
 * @param nnz nonzeros (sparse), else 0
 * @param type {@code float}, {@code double}, or empty (reference and Tribuo are double)
 * @param impl {@code vector}, {@code scalar}, or empty
 */
public record Row(
    String group,
    String bench,
    long size,
    int nnz,
    String type,
    String impl,
    double score,
    double error,
    double min,
    double median,
    double max,
    int iterations) {

  static final String HEADER =
      "group,bench,size,nnz,type,impl,ns_per_call,error_ns,min_ns,median_ns,max_ns,iterations";

  String csv() {
    return String.join(
        ",",
        group,
        bench,
        Long.toString(size),
        Integer.toString(nnz),
        type,
        impl,
        fmt(score),
        fmt(error),
        fmt(min),
        fmt(median),
        fmt(max),
        Integer.toString(iterations));
  }

  static Row parse(String line) {
    String[] f = line.split(",", -1);
    return new Row(
        f[0],
        f[1],
        Long.parseLong(f[2]),
        Integer.parseInt(f[3]),
        f[4],
        f[5],
        Double.parseDouble(f[6]),
        Double.parseDouble(f[7]),
        Double.parseDouble(f[8]),
        Double.parseDouble(f[9]),
        Double.parseDouble(f[10]),
        Integer.parseInt(f[11]));
  }

  private static String fmt(double v) {
    return Double.isNaN(v) ? "NaN" : String.format(Locale.ROOT, "%.6g", v);
  }

  /** Element type, with the double-only variants (reference, Tribuo) mapped to double. */
  String elementType() {
    return type.isEmpty() ? (bench.startsWith("RoofBench") ? "float" : "double") : type;
  }

  /** Work units per call: coordinates (dense), nonzeros (sparse) or elements (roof). */
  double units() {
    return nnz > 0 ? nnz : size;
  }

  /**
   * ns per coordinate / nonzero / element, from the <b>median</b> iteration: the box is shared with
   * other jobs, and one disturbed iteration moves the mean of 5 by far more than the kernel's own
   * variation. The mean and JMH's error are reported next to it.
   */
  double nsPerUnit() {
    return median / units();
  }

  /** JMH's mean per unit. */
  double meanPerUnit() {
    return score / units();
  }
}
