package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.adagrad.AdaGradOptimizer;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/**
 * Run by hand (not a test; about a minute): one coordinate updated {@code 1e8} times with a
 * constant gradient, float against the exact count, to find where float accumulators stop growing.
 * Results are in docs/GUARANTEES.md. Arguments: rounds (default 1e8), |g| (default 1).
 */
public final class LongRunMeasurement {
  private LongRunMeasurement() {}

  public static void main(String[] args) {
    long rounds = args.length > 0 ? Long.parseLong(args[0]) : 100_000_000L;
    double g = args.length > 1 ? Double.parseDouble(args[1]) : 1;
    for (ElementType t : ElementType.values()) {
      try (Arena a = Arena.ofConfined();
          AdaGradOptimizer ada = new AdaGradOptimizer(1, t, AdaGradParams.eta(1), a, null);
          ScInOL2Optimizer sc =
              new ScInOL2Optimizer(1, t, ScInOLParams.defaults(), false, a, null)) {
        ada.setInputPolicy(InputPolicy.TRUSTED);
        MemorySegment grad = a.allocate(8);
        MemorySegment x = a.allocate(8);
        put(grad, t, g);
        put(x, t, 1);
        double lastQ = -1, lastS2 = -1;
        long qStall = -1, s2Stall = -1;
        long t0 = System.nanoTime();
        for (long r = 1; r <= rounds; r++) {
          ada.step(grad);
          sc.predict(x);
          sc.update(-g);
          if (qStall < 0 || s2Stall < 0) {
            double q = get(ada.state().get("Q"), t), s2 = get(sc.state().get("S2"), t);
            if (qStall < 0 && q == lastQ) qStall = r;
            if (s2Stall < 0 && s2 == lastS2) s2Stall = r;
            lastQ = q;
            lastS2 = s2;
          }
        }
        double exact = rounds * g * g;
        System.out.printf(
            "%s |g|=%g rounds=%d: AdaGrad Q stops growing at round %d, Q=%.6g (exact %.6g, %.2f%%);"
                + " ScInOL2 S2 stops at round %d, S2=%.6g, G=%.6g (exact %.6g); %.1f s%n",
            t,
            g,
            rounds,
            qStall,
            get(ada.state().get("Q"), t),
            exact,
            100 * get(ada.state().get("Q"), t) / exact,
            s2Stall,
            get(sc.state().get("S2"), t),
            get(sc.state().get("G"), t),
            rounds * g,
            (System.nanoTime() - t0) / 1e9);
      }
    }
  }

  static void put(MemorySegment s, ElementType t, double v) {
    if (t == ElementType.FLOAT) s.set(ValueLayout.JAVA_FLOAT_UNALIGNED, 0, (float) v);
    else s.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, v);
  }

  static double get(MemorySegment s, ElementType t) {
    return t == ElementType.FLOAT
        ? s.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 0)
        : s.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0);
  }
}
