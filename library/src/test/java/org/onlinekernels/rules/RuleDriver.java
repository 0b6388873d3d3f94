package org.onlinekernels.rules;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelTestSupport;
import org.onlinekernels.optimizer.AbstractOptimizer;

/**
 * Drives one optimizer with plain arrays (dense and sparse rows, weights and state read back as
 * doubles), for the rules' hand-worked tests.
 */
public final class RuleDriver {
  private final AbstractOptimizer o;
  private final Arena arena;
  private final ElementType t;

  public RuleDriver(AbstractOptimizer o, Arena arena) {
    this.o = o;
    this.arena = arena;
    this.t = o.elementType();
  }

  /** {@code v} in a fresh segment of the optimizer's element type. */
  public MemorySegment vec(double... v) {
    MemorySegment m = arena.allocate((long) Math.max(1, v.length) * t.bytes());
    for (int i = 0; i < v.length; i++) {
      KernelTestSupport.set(m, t, i, v[i]);
    }
    return m;
  }

  /** Dense predict then update with {@code g}; returns {@code yhat}. */
  public double round(double g, double... x) {
    double y = o.predict(vec(x));
    o.update(g);
    return y;
  }

  /** Sparse predict then update with {@code g}; returns {@code yhat}. */
  public double sparseRound(double g, int[] idx, double[] val) {
    MemorySegment is = arena.allocate(4L * Math.max(1, idx.length));
    for (int j = 0; j < idx.length; j++) {
      is.setAtIndex(java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED, j, idx[j]);
    }
    double y = o.predictSparse(is, vec(val), idx.length);
    o.update(g);
    return y;
  }

  /** The read-out weights, widened. */
  public double[] weights() {
    MemorySegment m = arena.allocate((long) o.dimension() * t.bytes());
    o.readWeights(m);
    return read(m);
  }

  /** State buffer {@code name}, widened. */
  public double[] state(String name) {
    return read(o.state().get(name));
  }

  private double[] read(MemorySegment m) {
    double[] v = new double[o.dimension()];
    for (int i = 0; i < v.length; i++) {
      v[i] = KernelTestSupport.get(m, t, i);
    }
    return v;
  }
}
