package org.onlinekernels.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * One measured contender on one workload, as stored in {@code bench-report/workload-results.csv}:
 * milliseconds per pass (JMH's mean with its 99.9 % error, and min/median/max over the timed
 * passes; {@code iterations} is the number of passes timed), the mean thread CPU time per pass, and
 * the workload's shape, from which rates are derived.
 *
 * @param workload workload spec
 * @param contender {@code hand}, one of {@code WorkloadBench.LIBRARY}, {@code c}, {@code tribuo} or
 *     {@code moa}
 * @param algo {@code scinol2}, {@code adagrad} (Tribuo's is AdaGrad) or {@code sgd} (MOA)
 * @param type {@code float} or {@code double}
 * @param rows rows per pass
 * @param nonzeros nonzeros per pass
 * @param outputs model outputs (1, or K one-vs-rest)
 * @param cpuMs mean thread CPU milliseconds per timed pass ({@code WorkloadBench.Cpu}; NaN in a
 *     table written before it was measured)
 */
public record WorkloadResult(
    String workload,
    String contender,
    String algo,
    String type,
    long rows,
    long nonzeros,
    int outputs,
    double msMean,
    double msError,
    double msMin,
    double msMedian,
    double msMax,
    int iterations,
    double cpuMs) {

  static final String HEADER =
      "workload,contender,algo,type,rows,nonzeros,outputs,ms_mean,ms_error,ms_min,ms_median,ms_max,"
          + "iterations,cpu_ms";

  String csv() {
    return String.join(
        ",",
        workload,
        contender,
        algo,
        type,
        Long.toString(rows),
        Long.toString(nonzeros),
        Integer.toString(outputs),
        fmt(msMean),
        fmt(msError),
        fmt(msMin),
        fmt(msMedian),
        fmt(msMax),
        Integer.toString(iterations),
        fmt(cpuMs));
  }

  /**
   * The results a run stored in {@code dir/workload-results.csv}, in its order (the header and
   * blank lines skipped).
   */
  public static List<WorkloadResult> read(Path dir) throws IOException {
    List<String> lines = Files.readAllLines(dir.resolve("workload-results.csv"));
    return lines.stream().skip(1).filter(l -> !l.isBlank()).map(WorkloadResult::parse).toList();
  }

  static WorkloadResult parse(String line) {
    String[] f = line.split(",", -1);
    return new WorkloadResult(
        f[0],
        f[1],
        f[2],
        f[3],
        Long.parseLong(f[4]),
        Long.parseLong(f[5]),
        Integer.parseInt(f[6]),
        Double.parseDouble(f[7]),
        Double.parseDouble(f[8]),
        Double.parseDouble(f[9]),
        Double.parseDouble(f[10]),
        Double.parseDouble(f[11]),
        Integer.parseInt(f[12]),
        f.length > 13 ? Double.parseDouble(f[13]) : Double.NaN);
  }

  /**
   * This result with its thread CPU time as its figure (the median's place; the wall clock's spread
   * cleared), for a report in CPU time.
   */
  WorkloadResult onCpuClock() {
    return new WorkloadResult(
        workload,
        contender,
        algo,
        type,
        rows,
        nonzeros,
        outputs,
        cpuMs,
        Double.NaN,
        Double.NaN,
        cpuMs,
        Double.NaN,
        iterations,
        cpuMs);
  }

  private static String fmt(double v) {
    return Double.isNaN(v) ? "NaN" : String.format(Locale.ROOT, "%.6g", v);
  }

  /** Examples per second, from the median pass. */
  double examplesPerSecond() {
    return rows / (msMedian / 1e3);
  }

  /** Nonzeros per second, from the median pass. */
  double nonzerosPerSecond() {
    return nonzeros / (msMedian / 1e3);
  }

  /** Nanoseconds per row (median pass). */
  double nsPerRow() {
    return msMedian * 1e6 / rows;
  }

  /** Mean nonzeros per row. */
  double nnzPerRow() {
    return (double) nonzeros / rows;
  }

  /** Whether this is a synthetic stream. */
  boolean synthetic() {
    return !workload.startsWith("file:");
  }

  /** A synthetic stream's family, e.g. {@code zipf, d = 2^20}; a file's name. */
  String family() {
    if (!synthetic()) return workload.substring(5);
    String[] p = workload.split(":");
    return p[0] + ", d = 2^" + p[1];
  }

  /** A synthetic stream's nonzeros per row (its spec), else the mean. */
  int specNnz() {
    return synthetic() ? Integer.parseInt(workload.split(":")[2]) : (int) Math.round(nnzPerRow());
  }

  /**
   * The series this result belongs to in tables and charts, e.g. {@code trainer-trusted scinol2
   * float}.
   */
  String series() {
    return contender + " " + algo + " " + type;
  }
}
