package org.onlinekernels.bench.workload;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.trainer.AlgorithmSpec;

/**
 * The library's optimizers driven in lockstep with the hand loop's summation order: per row and
 * output, the optimizer predicts ({@code predictSparse}, which also advances ScInOL2's {@code M}),
 * then {@code yhat} is summed again from the optimizer's own state in the hand loop's order
 * (entries left to right, in the element type), the library's {@code yhat} is checked to lie within
 * {@code 2 gamma(m + 1) sum |x_j w_j|} of it (the summation-order bound of {@code HandLoop}, here
 * rigorous: same state), and the update is fed the derivative at the re-summed {@code yhat}. The
 * library's update rule then follows the hand loop's trajectory, so the two mean losses must be
 * equal bit for bit: that is the benchmark's check of the hand loop, exact even where a
 * free-running comparison would drift (AdaGrad with {@code eta = 1} on unscaled features is
 * chaotic: two summation orders end up apart by far more than rounding).
 */
public final class Lockstep {
  private Lockstep() {}

  /**
   * Runs one lockstep pass; returns its mean progressive loss; throws if a {@code yhat} is out of
   * bounds.
   */
  public static double meanLoss(Workload wl, String algorithm, ElementType type) {
    boolean isFloat = type == ElementType.FLOAT;
    double u = isFloat ? 0x1p-24 : 0x1p-53;
    LinearModelOptimizer[] opt = new LinearModelOptimizer[wl.outputs];
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment xi = arena.allocate(ValueLayout.JAVA_INT, wl.maxNnz);
      MemorySegment xv = arena.allocate((long) wl.maxNnz * type.bytes(), 64);
      boolean ada = algorithm.equals("adagrad");
      // Per output, the state segments the weight is read from: AdaGrad's w; ScInOL2's G, S2, M,
      // eta.
      MemorySegment[][] st = new MemorySegment[opt.length][];
      for (int k = 0; k < opt.length; k++) {
        opt[k] = AlgorithmSpec.of(algorithm).create(wl.d, type, arena);
        Map<String, MemorySegment> m = ((AbstractOptimizer) opt[k]).state();
        st[k] =
            ada
                ? new MemorySegment[] {m.get("w")}
                : new MemorySegment[] {m.get("G"), m.get("S2"), m.get("M"), m.get("eta")};
      }
      double lossSum = 0;
      for (int r = 0; r < wl.n; r++) {
        int s = wl.start[r];
        int m = wl.start[r + 1] - s;
        for (int j = 0; j < m; j++) {
          xi.setAtIndex(ValueLayout.JAVA_INT, j, wl.idx[s + j]);
          if (isFloat) xv.setAtIndex(ValueLayout.JAVA_FLOAT, j, wl.floatValues[s + j]);
          else xv.setAtIndex(ValueLayout.JAVA_DOUBLE, j, wl.doubleValues[s + j]);
        }
        double rowLoss = 0;
        for (int k = 0; k < opt.length; k++) {
          double yLib = opt[k].predictSparse(xi, xv, m);
          float sumF = 0;
          double sumD = 0;
          double abs = 0;
          for (int j = 0; j < m; j++) {
            int i = wl.idx[s + j];
            if (isFloat) {
              float t = wl.floatValues[s + j] * weightF(st[k], i);
              sumF += t;
              abs += Math.abs(t);
            } else {
              double t = wl.doubleValues[s + j] * weightD(st[k], i);
              sumD += t;
              abs += Math.abs(t);
            }
          }
          double yhat = isFloat ? sumF : sumD;
          double mu = (m + 1) * u;
          if (!(Math.abs(yLib - yhat) <= 2 * mu / (1 - mu) * abs)) {
            throw new IllegalStateException(
                "%s %s row %d output %d: predictSparse %s but the entries' sum is %s (allowed difference %s)"
                    .formatted(algorithm, type, r, k, yLib, yhat, 2 * mu / (1 - mu) * abs));
          }
          double y = wl.target(r, k);
          rowLoss += Loss.LOGISTIC.value(y, yhat);
          opt[k].update(Loss.LOGISTIC.derivative(y, yhat));
        }
        lossSum += rowLoss;
      }
      return lossSum / wl.n;
    } finally {
      for (LinearModelOptimizer o : opt) if (o != null) o.close();
    }
  }

  /**
   * The weight of coordinate {@code i} from AdaGrad's {@code w} or ScInOL2's {@code G, S2, M, eta}.
   */
  private static float weightF(MemorySegment[] st, int i) {
    ValueLayout.OfFloat f = ValueLayout.JAVA_FLOAT;
    if (st.length == 1) return st[0].getAtIndex(f, i);
    float mi = st[2].getAtIndex(f, i);
    float s = (float) Math.sqrt(st[1].getAtIndex(f, i) + mi * mi);
    if (s == 0) {
      return 0;
    }
    float theta = st[0].getAtIndex(f, i) / s;
    // ScInOL2's weight (docs/ALGORITHMS.md section 4), written here again: this harness checks the
    // library against an independent sum, so it does not call the library for the weight.
    float w =
        Math.copySign(Math.min(Math.abs(theta), 1f), theta) * st[3].getAtIndex(f, i) / (2 * s);
    return Math.abs(w) > Float.MAX_VALUE ? Math.copySign(Float.MAX_VALUE, w) : w;
  }

  /** {@link #weightF} in double. */
  private static double weightD(MemorySegment[] st, int i) {
    ValueLayout.OfDouble f = ValueLayout.JAVA_DOUBLE;
    if (st.length == 1) return st[0].getAtIndex(f, i);
    double mi = st[2].getAtIndex(f, i);
    double s = Math.sqrt(st[1].getAtIndex(f, i) + mi * mi);
    if (s == 0) {
      return 0;
    }
    double theta = st[0].getAtIndex(f, i) / s;
    double w =
        Math.copySign(Math.min(Math.abs(theta), 1.0), theta) * st[3].getAtIndex(f, i) / (2 * s);
    return Math.abs(w) > Double.MAX_VALUE ? Math.copySign(Double.MAX_VALUE, w) : w;
  }
}
