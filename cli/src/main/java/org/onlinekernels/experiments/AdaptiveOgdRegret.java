package org.onlinekernels.experiments;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.params.AdaptiveOgdParams;
import org.onlinekernels.rules.aogd.AdaptiveOgdBallOptimizer;

/**
 * Experiment 4, Bartlett, Hazan and Rakhlin (2007): regret of Adaptive OGD (Algorithm 2, ball of
 * radius {@code R = 1}, gradient form on the kernels) against plain OGD with {@code eta/sqrt(t)}
 * (projected onto the same ball), as {@code T} grows, on two sequences in {@code d = 10}, both with
 * exactly computable comparators:
 *
 * <ul>
 *   <li>strongly convex: {@code f_t(w) = (H/2) ||w - z_t||^2} with {@code H = 1}: an L2-regularised
 *       (squared-distance) loss, curvature {@code H_t = H} passed to AOGD; the best fixed point is
 *       the projection of the mean of {@code z_1..z_T};
 *   <li>linear: {@code f_t(w) = <z_t, w>}, {@code H_t = 0}; the best fixed point is {@code -R * sum
 *       z / ||sum z||}.
 * </ul>
 *
 * {@code z_t} has independent coordinates uniform in {@code [-1, 1] / sqrt(d)} plus a fixed offset
 * {@code 0.2/sqrt(d)} per coordinate (so the comparator sits inside the ball in the quadratic
 * case), from {@code new Random(seed)}; regrets are averaged over seeds.
 */
public final class AdaptiveOgdRegret {
  static final int D = 10;
  static final double RADIUS = 1;
  static final double[] ETAS = {0.1, 1, 10};

  private AdaptiveOgdRegret() {}

  /** Runs and writes the report. */
  public static void run(Path out, boolean quick, String command, PrintStream log)
      throws Exception {
    int tMax = quick ? 10_000 : 100_000;
    int seeds = quick ? 2 : 5;
    List<Integer> horizons = new ArrayList<>();
    for (int dec = 10; dec <= tMax; dec *= 10) {
      for (int m : new int[] {1, 2, 5}) {
        if (m * dec <= tMax) {
          horizons.add(m * dec);
        }
      }
    }
    String[] names = new String[ETAS.length + 1];
    names[0] = "AOGD";
    for (int e = 0; e < ETAS.length; e++) {
      names[e + 1] = "OGD eta=" + Report.g(ETAS[e]).replaceAll("\\.?0+$", "") + "/sqrt(t)";
    }
    Report rep =
        new Report(out, "Bartlett, Hazan & Rakhlin: regret of Adaptive OGD vs OGD", command);
    rep.text(
        "Setup: d = "
            + D
            + ", ball radius R = "
            + (int) RADIUS
            + ", "
            + seeds
            + " seeds, T up to "
            + tMax
            + ", double elements. Strongly convex: f_t(w) = (1/2)||w - z_t||^2 (H_t = 1); linear: f_t(w) = <z_t, w>"
            + " (H_t = 0). z_t ~ U[-1,1]^d/sqrt(d) + 0.2/sqrt(d). Regret at T = sum_{t<=T} f_t(w_t) - min_{||u||<=R}"
            + " sum_{t<=T} f_t(u), computed exactly from running sums; one run of T_max rounds read at each horizon"
            + " (the algorithms do not know T). AOGD: library kernels, gradient form, step(g, H_t); OGD: projected,"
            + " w <- P(w - eta/sqrt(t) g).");
    for (boolean strong : new boolean[] {true, false}) {
      double[][] reg = new double[names.length][horizons.size()];
      for (int seed = 1; seed <= seeds; seed++) {
        for (int a = 0; a < names.length; a++) {
          double[] r = run(strong, a == 0 ? Double.NaN : ETAS[a - 1], tMax, seed, horizons);
          for (int h = 0; h < r.length; h++) {
            reg[a][h] += r[h] / seeds;
          }
        }
      }
      String[] head = new String[names.length * 1 + 3];
      head[0] = "T";
      for (int a = 0; a < names.length; a++) {
        head[a + 1] = names[a];
      }
      head[names.length + 1] = "AOGD / log T";
      head[names.length + 2] = "AOGD / sqrt T";
      Table t = new Table(0, head);
      double[] xs = new double[horizons.size()];
      for (int h = 0; h < horizons.size(); h++) {
        double tt = horizons.get(h);
        xs[h] = tt;
        String[] row = new String[head.length];
        row[0] = Integer.toString(horizons.get(h));
        for (int a = 0; a < names.length; a++) {
          row[a + 1] = Report.g(reg[a][h]);
        }
        row[names.length + 1] = Report.g(reg[0][h] / Math.log(tt));
        row[names.length + 2] = Report.g(reg[0][h] / Math.sqrt(tt));
        t.add(row);
      }
      String kind = strong ? "strongly_convex" : "linear";
      rep.text("## " + (strong ? "Strongly convex (H_t = 1)" : "Linear (H_t = 0)"));
      rep.table("regret_" + kind, t);
      LineChart p =
          new LineChart(
              "Regret vs T, " + (strong ? "strongly convex" : "linear") + " losses",
              "T",
              "regret",
              true,
              true);
      for (int a = 0; a < names.length; a++) {
        p.line(names[a], xs, reg[a]);
      }
      double[] logT = new double[xs.length];
      double[] sqrtT = new double[xs.length];
      for (int h = 0; h < xs.length; h++) {
        logT[h] = Math.log(xs[h]);
        sqrtT[h] = Math.sqrt(xs[h]);
      }
      p.dashed("log T", xs, logT).dashed("sqrt T", xs, sqrtT);
      rep.plot("regret_" + kind, p);
      log.println(kind);
      log.print(t.text());
    }
    rep.finish();
  }

  /** Regret at each horizon of one run; {@code eta} NaN means AOGD. */
  static double[] run(boolean strong, double eta, int tMax, long seed, List<Integer> horizons) {
    Random rnd = new Random(seed);
    double[] z = new double[D];
    double[] sumZ = new double[D];
    double sumZ2 = 0; // sum ||z_t||^2, for the quadratic comparator
    double[] w = new double[D];
    double algLoss = 0;
    double[] out = new double[horizons.size()];
    int h = 0;
    try (Arena arena = Arena.ofConfined();
        AdaptiveOgdBallOptimizer aogd =
            Double.isNaN(eta)
                ? new AdaptiveOgdBallOptimizer(
                    D, ElementType.DOUBLE, AdaptiveOgdParams.radius(RADIUS))
                : null) {
      MemorySegment g = arena.allocate(D * 8L);
      MemorySegment ws = arena.allocate(D * 8L);
      double hCurv = strong ? 1 : 0;
      for (int t = 1; t <= tMax; t++) {
        for (int i = 0; i < D; i++) {
          z[i] = ((2 * rnd.nextDouble() - 1) + 0.2) / Math.sqrt(D);
        }
        if (aogd != null) {
          aogd.readWeights(ws);
          for (int i = 0; i < D; i++) {
            w[i] = ws.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
          }
        }
        // loss and gradient at w_t
        double loss = 0;
        for (int i = 0; i < D; i++) {
          double gi = strong ? hCurv * (w[i] - z[i]) : z[i];
          loss += strong ? 0.5 * hCurv * (w[i] - z[i]) * (w[i] - z[i]) : z[i] * w[i];
          g.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, gi);
        }
        algLoss += loss;
        if (aogd != null) {
          aogd.step(g, hCurv);
        } else {
          double step = eta / Math.sqrt(t);
          double n2 = 0;
          for (int i = 0; i < D; i++) {
            w[i] -= step * g.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
            n2 += w[i] * w[i];
          }
          double n = Math.sqrt(n2);
          if (n > RADIUS) {
            for (int i = 0; i < D; i++) {
              w[i] *= RADIUS / n;
            }
          }
        }
        double z2 = 0;
        for (int i = 0; i < D; i++) {
          sumZ[i] += z[i];
          z2 += z[i] * z[i];
        }
        sumZ2 += z2;
        if (h < horizons.size() && t == horizons.get(h)) {
          double best;
          double ns2 = 0;
          for (int i = 0; i < D; i++) {
            ns2 += sumZ[i] * sumZ[i];
          }
          double ns = Math.sqrt(ns2);
          if (strong) {
            // sum (H/2)||u - z_s||^2 = (H/2)(t||u||^2 - 2<u, S> + sum||z||^2), minimised at P(S/t).
            double scale = Math.min(1, RADIUS / (ns / t));
            double u2 = (ns / t) * (ns / t) * scale * scale;
            double uS = scale * ns2 / t;
            best = 0.5 * hCurv * (t * u2 - 2 * uS + sumZ2);
          } else {
            best = -RADIUS * ns;
          }
          out[h++] = algLoss - best;
        }
      }
    }
    return out;
  }
}
