package org.onlinekernels.properties;

import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.testkit.Buffers;
import org.onlinekernels.testkit.Case;
import org.onlinekernels.testkit.Subject;
import org.onlinekernels.testkit.Workload;

/**
 * Fused rounds ({@link AbstractOptimizer#round}) on a case's rows, and the bit-exact comparison of
 * two ways of running them.
 */
final class Rounds {
  private Rounds() {}

  /**
   * One way of running a round: a fused round on {@link SparseRows} (gathered on block state, the
   * default), the same entry by entry ({@code onlinekernels.rounds=entrywise} when the optimizer is
   * made), a fused round on the caller's own index and value segments, or predictSparse then update
   * on segments.
   */
  enum Mode {
    ROUND,
    ROUND_ENTRYWISE,
    ROUND_BUFFERS,
    PREDICT_UPDATE
  }

  /**
   * Runs every round of {@code c} through two optimizers, {@code a} and {@code b} each with its
   * kernels, layout and mode, and requires the same bits of every {@code yhat} and every state
   * element after every round (nothing is rounded differently: the two run the same operations in
   * the same order, which is what the caller claims by calling this).
   */
  static void bitIdentical(
      Subject s,
      Case c,
      Loss loss,
      KernelProvider ka,
      StateLayout la,
      Mode ma,
      KernelProvider kb,
      StateLayout lb,
      Mode mb) {
    int d = c.d();
    ElementType t = c.type();
    Workload wl = new Workload(c, s.gMax());
    SparseRows rows = wl.rows(t);
    try (Arena arena = Arena.ofConfined();
        AbstractOptimizer a = optimizer(s, d, t, ka, la, ma);
        AbstractOptimizer b = optimizer(s, d, t, kb, lb, mb)) {
      Buffers buf = new Buffers(arena, c);
      int total = c.warmup() + c.rounds();
      for (int r = 0; r < total; r++) {
        double y = wl.label(r);
        double ya = run(a, ma, rows, r, y, loss, buf, wl);
        double yb = run(b, mb, rows, r, y, loss, buf, wl);
        if (Double.doubleToRawLongBits(ya) != Double.doubleToRawLongBits(yb)) {
          fail(
              String.format(
                  "%s, %s: round %d: yhat %s (%s %s %s) vs %s (%s %s %s) must be bit-identical",
                  s.describe(), c, r, ya, ka.name(), la, ma, yb, kb.name(), lb, mb));
        }
        Map<String, MemorySegment> sa = a.state(), sb = b.state();
        for (String name : sa.keySet()) {
          double[] va = Buffers.read(sa.get(name), a.stateType(name), d);
          double[] vb = Buffers.read(sb.get(name), b.stateType(name), d);
          for (int i = 0; i < d; i++) {
            if (Double.doubleToRawLongBits(va[i]) != Double.doubleToRawLongBits(vb[i])) {
              fail(
                  String.format(
                      "%s, %s: round %d: state %s[%d] %s (%s %s %s) vs %s (%s %s %s) must be bit-identical",
                      s.describe(),
                      c,
                      r,
                      name,
                      i,
                      va[i],
                      ka.name(),
                      la,
                      ma,
                      vb[i],
                      kb.name(),
                      lb,
                      mb));
            }
          }
        }
        if (!a.scalarState().equals(b.scalarState())) {
          fail(
              s.describe()
                  + ", "
                  + c
                  + ": round "
                  + r
                  + ": scalars "
                  + a.scalarState()
                  + " vs "
                  + b.scalarState());
        }
      }
    }
  }

  private static AbstractOptimizer optimizer(
      Subject s, int d, ElementType t, KernelProvider k, StateLayout l, Mode m) {
    if (m != Mode.ROUND_ENTRYWISE) {
      return s.optimizer(d, t, k, l);
    }
    System.setProperty("onlinekernels.rounds", "entrywise");
    try {
      return s.optimizer(d, t, k, l);
    } finally {
      System.clearProperty("onlinekernels.rounds");
    }
  }

  private static double run(
      AbstractOptimizer o,
      Mode m,
      SparseRows rows,
      int r,
      double y,
      Loss loss,
      Buffers buf,
      Workload wl) {
    if (m == Mode.ROUND_BUFFERS) {
      return o.round(buf.ints(wl.idx[r]), buf.of(wl.val[r]), wl.idx[r].length, y, loss);
    }
    if (m != Mode.PREDICT_UPDATE) {
      return o.round(rows, r, y, loss);
    }
    double yhat = o.predictSparse(buf.ints(wl.idx[r]), buf.of(wl.val[r]), wl.idx[r].length);
    o.update(loss.derivative(y, yhat));
    return yhat;
  }
}
