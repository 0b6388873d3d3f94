package org.onlinekernels.kernel.vector;

import static org.onlinekernels.kernel.vector.VectorConstants.DOUBLE_SPECIES;
import static org.onlinekernels.kernel.vector.VectorConstants.ORDER;

import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;
import org.onlinekernels.kernel.lanes.DoubleVirtualLanes;
import org.onlinekernels.kernel.scalar.MixedDot;

/**
 * {@link MixedDot} in the Vector API: float lanes widened to double, two virtual accumulators in
 * {@link DoubleVirtualLanes}'s order (registers at 512 and 256 bits, the lanes array at 128), so
 * every width gives the plain-Java bits.
 */
final class MixedDotVector {
  private static final VectorSpecies<Double> DS = DOUBLE_SPECIES;
  private static final int LD = DS.length();
  private static final int P = VectorConstants.PARTS;
  private static final int V = DoubleVirtualLanes.LANES;
  private static final VectorSpecies<Float> FS =
      VectorSpecies.of(float.class, VectorShape.forBitSize(LD * Float.SIZE));

  private MixedDotVector() {}

  private static DoubleVector loadF(MemorySegment m, long byteOffset) {
    return (DoubleVector)
        FloatVector.fromMemorySegment(FS, m, byteOffset, ORDER)
            .convertShape(VectorOperators.F2D, DS, 0);
  }

  /** {@code sum w_i x_i} over {@code [0, n)}, float inputs, double sums. */
  static double dot(MemorySegment w, MemorySegment x, int n) {
    double[] p = DoubleVirtualLanes.scratch();
    int bound2 = n - n % (2 * V);
    int bound1 = n - n % V;
    if (P <= 2) {
      // The 2 P hardware partial sums in registers, spilled in address order.
      DoubleVector acc0 = DoubleVector.zero(DS), acc1 = acc0, acc2 = acc0, acc3 = acc0;
      int i = 0;
      long vb = (long) LD * Float.BYTES;
      for (; i < bound2; i += 2 * V) {
        long o = (long) i * Float.BYTES;
        acc0 = loadF(w, o).fma(loadF(x, o), acc0);
        acc1 = loadF(w, o + vb).fma(loadF(x, o + vb), acc1);
        if (P == 2) {
          acc2 = loadF(w, o + 2 * vb).fma(loadF(x, o + 2 * vb), acc2);
          acc3 = loadF(w, o + 3 * vb).fma(loadF(x, o + 3 * vb), acc3);
        }
      }
      for (; i < bound1; i += V) {
        long o = (long) i * Float.BYTES;
        acc0 = loadF(w, o).fma(loadF(x, o), acc0);
        if (P == 2) {
          acc1 = loadF(w, o + vb).fma(loadF(x, o + vb), acc1);
        }
      }
      acc0.intoArray(p, 0);
      acc1.intoArray(p, LD);
      if (P == 2) {
        acc2.intoArray(p, 2 * LD);
        acc3.intoArray(p, 3 * LD);
      }
    } else {
      DoubleVirtualLanes.clear(p, 2);
      for (int i = 0; i < bound1; i += LD) {
        int c = i < bound2 ? i % (2 * V) : i % V;
        long o = (long) i * Float.BYTES;
        loadF(w, o).fma(loadF(x, o), DoubleVector.fromArray(DS, p, c)).intoArray(p, c);
      }
    }
    DoubleVirtualLanes.combine(p, 2);
    MixedDot.tail(w, x, bound1, n, p);
    return DoubleVirtualLanes.sum(p);
  }
}
