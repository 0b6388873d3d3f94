package org.onlinekernels.experiments;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.trainer.AlgorithmSpec;

/**
 * Experiment 2, Orabona (2013) section 5: the synthetic sequence of the proof of Theorem 2 —
 * identical unit-norm inputs ({@code d = 1}, {@code x = 1}), labels {@code +1} for even {@code t}
 * and {@code -1} for odd {@code t}, absolute loss — for which the best predictor is {@code u = 0}
 * and the regret {@code sum |yhat_t - y_t| - T} is exact. DFEG ({@code a = 0.882}, {@code L = 1},
 * {@code delta = 1}) against OGD with {@code eta/sqrt(t)} for several {@code eta}.
 */
public final class DfegSynthetic {
  static final double[] ETAS = {0.01, 0.1, 1, 10};

  private DfegSynthetic() {}

  /** Runs and writes the report. */
  public static void run(Path out, boolean quick, String command, PrintStream log)
      throws Exception {
    int tMax = quick ? 10_000 : 100_000;
    List<AlgorithmSpec> algs = new ArrayList<>();
    algs.add(AlgorithmSpec.of("dfeg"));
    for (double e : ETAS) {
      algs.add(AlgorithmSpec.of("ogd").with("eta", e));
    }
    List<Integer> horizons = new ArrayList<>();
    for (int dec = 10; dec <= tMax; dec *= 10) {
      for (int m : new int[] {1, 2, 5}) {
        if (m * dec <= tMax) {
          horizons.add(m * dec);
        }
      }
    }
    double[][] regret = new double[algs.size()][horizons.size()];
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment idx = arena.allocate(4);
      MemorySegment val = arena.allocate(8);
      idx.set(ValueLayout.JAVA_INT_UNALIGNED, 0, 0);
      val.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, 1.0);
      for (int a = 0; a < algs.size(); a++) {
        try (LinearModelOptimizer o = algs.get(a).create(1, ElementType.DOUBLE, null)) {
          double cum = 0;
          int h = 0;
          for (int t = 1; t <= tMax; t++) {
            double y = t % 2 == 0 ? 1 : -1;
            double yhat = o.predictSparse(idx, val, 1);
            cum += Loss.ABSOLUTE.value(y, yhat);
            o.update(Loss.ABSOLUTE.derivative(y, yhat));
            if (h < horizons.size() && t == horizons.get(h)) {
              regret[a][h++] = cum - t; // u = 0 loses exactly 1 per round
            }
          }
        }
      }
    }
    String[] head = new String[algs.size() + 1];
    head[0] = "T";
    for (int a = 0; a < algs.size(); a++) {
      head[a + 1] = algs.get(a).label();
    }
    Table t = new Table(0, head);
    double[] xs = new double[horizons.size()];
    for (int h = 0; h < horizons.size(); h++) {
      String[] row = new String[head.length];
      row[0] = Integer.toString(horizons.get(h));
      xs[h] = horizons.get(h);
      for (int a = 0; a < algs.size(); a++) {
        row[a + 1] = Report.g(regret[a][h]);
      }
      t.add(row);
    }
    Report rep = new Report(out, "DFEG sec. 5: regret on the synthetic sequence", command);
    rep.text(
        "Setup: d = 1, x_t = 1 for all t, y_t = +1 for even t and -1 for odd t, absolute loss, double elements."
            + " Regret against u = 0 (the best fixed predictor, loss T): sum_t |yhat_t - y_t| - T, one run of "
            + tMax
            + " rounds read off at each horizon T. DFEG with a = 0.882, L = 1, delta = 1 (the paper's settings);"
            + " OGD: w_{t+1} = w_t - eta/sqrt(t) * g_t x_t, no projection.");
    rep.table("regret", t);
    LineChart p =
        new LineChart(
            "Regret vs T on the synthetic sequence", "T", "regret against u = 0", true, true);
    for (int a = 0; a < algs.size(); a++) {
      p.line(algs.get(a).label(), xs, regret[a]);
    }
    rep.plot("regret_vs_T", p);
    rep.text("Non-positive regrets are not drawn on the log axis; the table has every value.");
    rep.finish();
    log.print(t.text());
  }
}
