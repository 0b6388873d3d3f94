package org.onlinekernels.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.onlinekernels.trainer.ThreadReport;

/**
 * A parallel run's {@link ThreadReport} as {@code train} prints it: the JSON object {@code
 * thread_report}, and the text lines of {@code --verbose} (docs/parallel, "Reading a run").
 */
final class ThreadLines {
  private ThreadLines() {}

  /** The report as JSON, or null without one. */
  static Json json(ThreadReport t) {
    if (t == null) {
      return null;
    }
    List<Json> workers = new ArrayList<>();
    for (ThreadReport.Worker w : t.workers()) {
      workers.add(
          new Json()
              .put("thread", w.thread())
              .put("cpu_seconds", w.cpuSeconds())
              .put("wall_seconds", w.wallSeconds())
              .put("blocks", w.blocks())
              .put("rows", w.rows())
              .put("wait_seconds", w.waitSeconds())
              .put("alone_seconds", w.aloneSeconds())
              .put("handover_seconds", w.handoverSeconds())
              .put("handed_over_at", w.handedOverAt() < 0 ? Double.NaN : w.handedOverAt())
              .put("descheduled_share", w.descheduledShare()));
    }
    return new Json()
        .put("fits", t.fits())
        .put("wall_seconds", t.wallSeconds())
        .put("process_cpu_seconds", t.processCpuSeconds())
        .put("workers_cpu_seconds", t.workersCpuSeconds())
        .put("other_cpu_seconds", t.otherCpuSeconds())
        .put("workers", workers);
  }

  /** The report as text lines, or none without one. */
  static List<String> text(ThreadReport t) {
    List<String> lines = new ArrayList<>();
    if (t == null) {
      return lines;
    }
    lines.add(
        String.format(
            Locale.ROOT,
            "threads at work: %d fit(s), %.3f s wall; CPU %.3f s in all, %.3f s the workers',"
                + " %.3f s other threads' (JIT, GC, parsers)",
            t.fits(),
            t.wallSeconds(),
            t.processCpuSeconds(),
            t.workersCpuSeconds(),
            t.otherCpuSeconds()));
    for (ThreadReport.Worker w : t.workers()) {
      lines.add(
          String.format(
              Locale.ROOT,
              "  thread %d: CPU %.3f s of %.3f s wall (%.0f %% of its working time without a"
                  + " core), %d blocks, %d rows, waited %.3f s, alone %.3f s, handover %s",
              w.thread(),
              w.cpuSeconds(),
              w.wallSeconds(),
              100 * w.descheduledShare(),
              w.blocks(),
              w.rows(),
              w.waitSeconds(),
              w.aloneSeconds(),
              w.handedOverAt() < 0
                  ? "none"
                  : String.format(
                      Locale.ROOT, "at %d (%.3f s)", w.handedOverAt(), w.handoverSeconds())));
    }
    return lines;
  }
}
