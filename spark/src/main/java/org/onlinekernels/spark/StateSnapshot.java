package org.onlinekernels.spark;

import java.io.Serializable;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.AbstractOptimizer;

/**
 * The state of a learner's optimizers (one per output) as plain arrays, to broadcast the merged
 * state to the partitions. Read and written only through the optimizers' public API ({@code
 * state()}, {@code scalarState()}, {@code writeState}, {@code writeScalarState}): every element is
 * widened to double exactly and rounded back to the same value, so a round trip is bit for bit.
 */
final class StateSnapshot implements Serializable {
  private static final long serialVersionUID = 1L;

  private final ArrayList<LinkedHashMap<String, double[]>> buffers = new ArrayList<>();
  private final ArrayList<LinkedHashMap<String, Double>> scalars = new ArrayList<>();

  StateSnapshot(AbstractOptimizer[] opts) {
    for (AbstractOptimizer o : opts) {
      LinkedHashMap<String, double[]> b = new LinkedHashMap<>();
      int d = o.dimension();
      o.state()
          .forEach(
              (name, seg) -> b.put(name, read(seg, o.stateType(name) == ElementType.FLOAT, d)));
      buffers.add(b);
      scalars.add(new LinkedHashMap<>(o.scalarState()));
    }
  }

  private static double[] read(MemorySegment seg, boolean isFloat, int d) {
    double[] v = new double[d];
    for (int i = 0; i < d; i++) {
      v[i] =
          isFloat
              ? seg.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i)
              : seg.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
    }
    return v;
  }

  /** Writes this state into {@code opts} (same algorithm, dimension and number of outputs). */
  void restore(AbstractOptimizer[] opts) {
    for (int c = 0; c < opts.length; c++) {
      AbstractOptimizer o = opts[c];
      buffers.get(c).forEach(o::writeState);
      for (Map.Entry<String, Double> e : scalars.get(c).entrySet()) {
        o.writeScalarState(e.getKey(), e.getValue());
      }
    }
  }
}
