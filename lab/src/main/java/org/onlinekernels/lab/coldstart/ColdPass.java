package org.onlinekernels.lab.coldstart;

import java.nio.file.Path;
import java.util.Locale;
import org.onlinekernels.bench.workload.Contender;
import org.onlinekernels.bench.workload.TrainerContender;
import org.onlinekernels.bench.workload.Workload;
import org.onlinekernels.bench.workload.hand.HandLoop;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.InputPolicy;

/**
 * One measurement in a fresh JVM (started by {@link ColdStartReport}, one JVM per measurement):
 * ScInOL2, float, logistic loss, rows in file order, from a fresh model.
 *
 * <pre>
 *   ColdPass pass  trainer|hand DATA SPEC          one pass; prints seconds=S examples=N loss=L
 *   ColdPass curve trainer|hand DATA SPEC SECONDS  passes until SECONDS have gone by; prints
 *                                                  rate_0.1=R rate_1=R rate_10=R (examples/s
 *                                                  over the first 0.1, 1, 10 s)
 * </pre>
 *
 * {@code SPEC} is a workload spec ({@code file:NAME}, the file under the folder {@code DATA}).
 * {@code trainer} is {@code OnlineTrainer} on the kernel provider this JVM chooses ({@code
 * -Donlinekernels.vectorization}, {@code -Donlinekernels.handover}); {@code hand} is the workload
 * benchmark's hand-written fused loop ({@code FloatHandScInOL2}), the same rule on plain arrays.
 * The clock starts after the file is read, just before the model is made: the model's construction
 * (and with it the loading of the kernel classes) is part of the cold pass. In curve mode the time
 * of every pass end is recorded and the examples done by time {@code T} are interpolated linearly
 * inside the pass that spans {@code T}.
 */
public final class ColdPass {
  private static final double[] WINDOWS = {0.1, 1, 10};

  private ColdPass() {}

  /** See the class comment. */
  public static void main(String[] args) {
    String mode = args[0];
    Workload wl = Workload.load(args[3], 0, Path.of(args[2]));
    long t0 = System.nanoTime();
    try (Contender c = contender(args[1], wl)) {
      c.reset();
      if (mode.equals("pass")) {
        double loss = c.pass();
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "seconds=%.6f examples=%d loss=%.9f%n", s, wl.n, loss);
        return;
      }
      double limit = Double.parseDouble(args[4]);
      double[] ends = new double[1 << 20];
      int passes = 0;
      double t;
      do {
        c.pass();
        t = (System.nanoTime() - t0) / 1e9;
        ends[passes++] = t;
      } while (t < limit && passes < ends.length);
      StringBuilder out = new StringBuilder();
      for (double w : WINDOWS) {
        out.append(
            String.format(
                Locale.ROOT,
                "rate_%s=%.0f ",
                w == 0.1 ? "0.1" : Integer.toString((int) w),
                examplesBy(w, ends, passes, wl.n) / w));
      }
      System.out.println(out.toString().trim());
    }
  }

  private static Contender contender(String name, Workload wl) {
    return switch (name) {
      case "trainer" -> new TrainerContender(wl, "scinol2", ElementType.FLOAT, InputPolicy.CHECKED);
      case "hand" -> HandLoop.of("scinol2", ElementType.FLOAT, wl, false);
      default ->
          throw new IllegalArgumentException("contender must be trainer or hand, got " + name);
    };
  }

  /** Examples done by time {@code w}: whole passes before it, and the spanning pass pro rata. */
  static double examplesBy(double w, double[] ends, int passes, int n) {
    double prev = 0;
    for (int p = 0; p < passes; p++) {
      if (ends[p] >= w) {
        return (double) p * n + n * (w - prev) / (ends[p] - prev);
      }
      prev = ends[p];
    }
    return (double) passes * n;
  }
}
