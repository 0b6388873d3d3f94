package org.onlinekernels.properties;

import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.function.BiFunction;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.testkit.Agreement;
import org.onlinekernels.testkit.Buffers;
import org.onlinekernels.testkit.Case;
import org.onlinekernels.testkit.Workload;

/**
 * Runs one case through a vector and a scalar optimizer side by side and requires the same bits
 * from both: every prediction, every state element and every scalar after every round. No bound:
 * the kernels sum in one order at every width (FloatVirtualLanes), so any difference is a bug.
 */
final class BitEquality {
  private BitEquality() {}

  /** {@code make.apply(provider, d)} builds the optimizer under test on that provider. */
  static void vectorEqualsScalar(
      String describe,
      Case c,
      double gMax,
      BiFunction<KernelProvider, Integer, AbstractOptimizer> make) {
    int d = c.d();
    Workload wl = new Workload(c, gMax);
    try (Arena arena = Arena.ofConfined();
        AbstractOptimizer ov = make.apply(KernelProvider.vector(), d);
        AbstractOptimizer os = make.apply(KernelProvider.scalar(), d)) {
      Buffers bv = new Buffers(arena, c), bs = new Buffers(arena, c);
      int total = c.warmup() + c.rounds();
      for (int r = 0; r < total; r++) {
        double yv = Agreement.predictKernel(ov, bv, wl, r, c.sparse());
        double ys = Agreement.predictKernel(os, bs, wl, r, c.sparse());
        same(describe, c, r, "yhat", yv, ys);
        ov.update(wl.g[r]);
        os.update(wl.g[r]);
        Map<String, MemorySegment> sv = ov.state(), ss = os.state();
        for (String name : sv.keySet()) {
          ElementType t = ov.stateType(name);
          double[] a = Buffers.read(sv.get(name), t, d), b = Buffers.read(ss.get(name), t, d);
          for (int i = 0; i < d; i++) {
            same(describe, c, r, name + "[" + i + "]", a[i], b[i]);
          }
        }
        Map<String, Double> kv = ov.scalarState(), ks = os.scalarState();
        for (Map.Entry<String, Double> e : kv.entrySet()) {
          same(describe, c, r, e.getKey(), e.getValue(), ks.get(e.getKey()));
        }
      }
    }
  }

  /** Fails unless {@code v} (vector) and {@code s} (scalar) have the same bits. */
  static void same(String describe, Object c, int round, String what, double v, double s) {
    if (Double.doubleToRawLongBits(v) != Double.doubleToRawLongBits(s)) {
      fail(
          String.format(
              "%s, %s: round %d: %s vector %s (%016x) vs scalar %s (%016x): not bit-identical",
              describe,
              c,
              round,
              what,
              v,
              Double.doubleToRawLongBits(v),
              s,
              Double.doubleToRawLongBits(s)));
    }
  }
}
