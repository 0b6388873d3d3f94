package org.onlinekernels.experiments;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Random;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.GradientOptimizer;
import org.onlinekernels.params.FreeGradParams;
import org.onlinekernels.rules.freegrad.FreeGradOptimizer;

/**
 * Mhammedi and Koolen (2020), "parameter-free and scale-free": FreeGrad's iterates do not change
 * when every gradient is multiplied by a constant {@code c > 0}. With {@code c = 2^k} the scaling
 * is exact in floating point (no rounding, no under- or overflow here), so the library's rule must
 * give the same weights bit for bit in every round (docs/ALGORITHMS.md section 13.3, "Scale"; the
 * exponent's cap included, as the exponent itself is scale-free). Gradient form on the kernels,
 * {@code d} coordinates whose Gaussian gradients have scales {@code 2^-20 .. 2^20}, double state.
 */
public final class FreeGradScaleFree {
  static final int D = 10;

  private FreeGradScaleFree() {}

  /** Runs and writes the report. */
  public static void run(Path out, boolean quick, String command, PrintStream log)
      throws Exception {
    int rounds = quick ? 1_000 : 10_000;
    double[][] g = gradients(rounds);
    double[][] base = weights(g, 0);
    Table t =
        new Table(
            0,
            "k (gradients times 2^k)",
            "rounds",
            "weights compared",
            "weights differing in any bit",
            "largest |w| seen");
    long allDiffering = 0;
    for (int k = -30; k <= 30; k += quick ? 10 : 1) {
      double[][] w = k == 0 ? base : weights(g, k);
      long differing = 0;
      double largest = 0;
      for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < D; i++) {
          differing +=
              Double.doubleToRawLongBits(w[r][i]) == Double.doubleToRawLongBits(base[r][i]) ? 0 : 1;
          largest = Math.max(largest, Math.abs(w[r][i]));
        }
      }
      allDiffering += differing;
      t.add(
          Integer.toString(k),
          Integer.toString(rounds),
          Long.toString((long) rounds * D),
          Long.toString(differing),
          Report.g(largest));
    }
    Report rep =
        new Report(out, "FreeGrad (Mhammedi & Koolen 2020): scale-freeness, bit for bit", command);
    rep.text(
        "Setup: `freegrad` with eps = 1, gradient form (`FreeGradOptimizer.step`), double elements, d = "
            + D
            + ", "
            + rounds
            + " rounds; gradient of coordinate i at round t: 2^(-20 + 40 i / "
            + (D - 1)
            + ") times a standard Gaussian (java.util.Random(1)), the same stream multiplied by 2^k for each k."
            + " After every round the weights are read (`readWeights`) and compared with the k = 0 run's, bit for bit."
            + " Weights differing, over every k: "
            + allDiffering
            + ".");
    rep.table("scale_free", t);
    rep.finish();
    log.print(t.text());
  }

  private static double[][] gradients(int rounds) {
    Random r = new Random(1);
    double[][] g = new double[rounds][D];
    for (int t = 0; t < rounds; t++) {
      for (int i = 0; i < D; i++) {
        g[t][i] = Math.scalb(r.nextGaussian(), -20 + 40 * i / (D - 1));
      }
    }
    return g;
  }

  /** The weights after every round of the stream scaled by {@code 2^k}. */
  private static double[][] weights(double[][] g, int k) {
    double[][] w = new double[g.length][];
    try (Arena arena = Arena.ofConfined();
        GradientOptimizer o =
            new FreeGradOptimizer(D, ElementType.DOUBLE, FreeGradParams.defaults())) {
      MemorySegment grad = arena.allocate(ValueLayout.JAVA_DOUBLE, D);
      MemorySegment read = arena.allocate(ValueLayout.JAVA_DOUBLE, D);
      for (int t = 0; t < g.length; t++) {
        for (int i = 0; i < D; i++) {
          grad.setAtIndex(ValueLayout.JAVA_DOUBLE, i, Math.scalb(g[t][i], k));
        }
        o.step(grad);
        o.readWeights(read);
        w[t] = read.toArray(ValueLayout.JAVA_DOUBLE);
      }
    }
    return w;
  }
}
