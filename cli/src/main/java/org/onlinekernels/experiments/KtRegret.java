package org.onlinekernels.experiments;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntToDoubleFunction;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.rules.kt.Kt;
import org.onlinekernels.trainer.AlgorithmSpec;

/**
 * Orabona and Pál (2016), the regret bound of the KT bettor (section 7.1's corollary for Algorithm
 * 1): for rewards {@code |c_t| <= 1}, {@code Regret_T(u) = sum_t c_t u - sum_t c_t w_t <= |u|
 * sqrt(T ln(1 + 24 T^2 u^2 / eps^2)) + eps (1 - 1 / (e sqrt(pi T)))} for every {@code u}. With
 * {@code d = 1}, {@code x = 1}, {@code Lg = 1} and coins in {@code {-1, +1}} (no zero coin, no
 * clipping) the library's per-coordinate {@code kt} is the paper's algorithm on the real line while
 * the wealth is below its cap (docs/ALGORITHMS.md section 13.2): the bet is the prediction {@code
 * yhat = w}, and the update's gradient is {@code -c_t}. Checked at every decade of {@code T} and
 * every {@code u} of the grid {@code ±2^-10 .. ±2^10}; the worst ratio regret / bound over the grid
 * is reported.
 */
public final class KtRegret {
  private KtRegret() {}

  /** The coin sequences: name and coin of round {@code t} (1-based) from a seeded generator. */
  private record Coins(String name, int tMax, IntToDoubleFunction coin) {}

  /** Runs and writes the report. */
  public static void run(Path out, boolean quick, String command, PrintStream log)
      throws Exception {
    int tMax = quick ? 10_000 : 1_000_000;
    List<Coins> sequences = new ArrayList<>();
    for (double p : new double[] {0.5, 0.55, 0.75}) {
      Random r = new Random(1);
      sequences.add(new Coins("i.i.d. P(+1) = " + p, tMax, t -> r.nextDouble() < p ? 1 : -1));
    }
    sequences.add(new Coins("alternating", tMax, t -> t % 2 == 0 ? 1 : -1));
    // The double wealth reaches its cap 2^900 after about 906 one-sign coins: beyond it the rule is
    // capped, not the paper's.
    sequences.add(new Coins("constant +1", 800, t -> 1));
    Table table =
        new Table(
            1,
            "sequence",
            "T",
            "sum of coins",
            "wealth",
            "worst regret / bound over u",
            "at u",
            "regret there",
            "bound there",
            "wealth capped");
    LineChart chart =
        new LineChart(
            "KT: worst regret / bound over the u grid", "T", "regret / bound", true, false);
    for (Coins s : sequences) {
      List<double[]> points = runOne(s);
      double[] xs = new double[points.size()];
      double[] ys = new double[points.size()];
      for (int i = 0; i < points.size(); i++) {
        double[] p = points.get(i);
        xs[i] = p[0];
        ys[i] = Math.max(p[3], -1);
        table.add(
            s.name(),
            Long.toString((long) p[0]),
            Report.g(p[1]),
            Report.g(p[2]),
            Report.g(p[3]),
            Report.g(p[4]),
            Report.g(p[5]),
            Report.g(p[6]),
            p[2] > Kt.DOUBLE_WEALTH_CAP ? "yes" : "no");
      }
      chart.line(s.name(), xs, ys);
    }
    Report rep = new Report(out, "KT coin betting (Orabona & Pál 2016): the regret bound", command);
    rep.text(
        "Setup: `kt` with eps = 1, Lg = 1, d = 1, x = 1, double elements, through the optimizer's predict and"
            + " update (the bet is yhat, the gradient -c_t). Coins: i.i.d. signs from java.util.Random(1), the"
            + " alternating sequence, and the constant coin up to T = 800 (its wealth would reach the double cap"
            + " 2^900 after about 906 rounds). Bound: |u| sqrt(T ln(1 + 24 T^2 u^2 / eps^2)) + eps (1 - 1/(e sqrt(pi T)));"
            + " u over ±2^-10 .. ±2^10 (powers of two); the table gives the u with the largest regret / bound."
            + " Every ratio must stay at or below 1. \"wealth\": eps + sum_t c_t w_t, the paper's wealth of the bets"
            + " played; \"wealth capped\" = yes where it passed the double cap 2^900, after which the rule's wealth is held"
            + " at the cap and the bets are no longer the paper's (the bound then still holds, as the table shows, but it"
            + " no longer tests the paper's algorithm). The chart draws ratios below -1 at -1.");
    rep.table("regret", table);
    rep.plot("regret_over_bound", chart);
    rep.finish();
    log.print(table.text());
  }

  /**
   * Per horizon {@code T = 10, 100, ...}: T, sum of coins, wealth, worst ratio, its u, regret,
   * bound.
   */
  private static List<double[]> runOne(Coins s) {
    List<double[]> points = new ArrayList<>();
    try (Arena arena = Arena.ofConfined();
        LinearModelOptimizer o =
            AlgorithmSpec.parse("kt", List.of("eps=1,Lg=1")).create(1, ElementType.DOUBLE, null)) {
      MemorySegment idx = arena.allocate(ValueLayout.JAVA_INT);
      MemorySegment val = arena.allocate(ValueLayout.JAVA_DOUBLE);
      val.set(ValueLayout.JAVA_DOUBLE, 0, 1.0);
      double sumC = 0;
      double reward = 0;
      long next = 10;
      for (int t = 1; t <= s.tMax(); t++) {
        double c = s.coin().applyAsDouble(t);
        double w = o.predictSparse(idx, val, 1);
        reward += c * w;
        sumC += c;
        o.update(-c);
        if (t == next || t == s.tMax()) {
          points.add(worst(t, sumC, reward));
          next = t == next ? next * 10 : next;
        }
      }
    }
    return points;
  }

  private static double[] worst(int t, double sumC, double reward) {
    double[] best = null;
    for (int e = -10; e <= 10; e++) {
      for (double sign : new double[] {-1, 1}) {
        double u = sign * Math.scalb(1.0, e);
        double regret = sumC * u - reward;
        double bound =
            Math.abs(u) * Math.sqrt(t * Math.log1p(24.0 * t * t * u * u))
                + (1 - 1 / (Math.E * Math.sqrt(Math.PI * t)));
        double ratio = regret / bound;
        if (best == null || ratio > best[3]) {
          best = new double[] {t, sumC, 1 + reward, ratio, u, regret, bound};
        }
      }
    }
    return best;
  }
}
