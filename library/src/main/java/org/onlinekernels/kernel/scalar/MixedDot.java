package org.onlinekernels.kernel.scalar;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.lanes.DoubleVirtualLanes;

/**
 * The mixed-precision dot product of two float vectors, summed in double: the prediction of a rule
 * whose weights are float and whose sums are double (AdaGrad in mixed precision). Two accumulators
 * in {@link DoubleVirtualLanes}'s order, the vector kernel's bits at every width; a product of two
 * floats is exact in double, so fused and separate multiply-adds agree.
 */
public final class MixedDot {
  private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;

  private MixedDot() {}

  /** {@code sum w_i x_i} over {@code [0, n)}, float inputs, double sums. */
  public static double dot(MemorySegment w, MemorySegment x, int n) {
    int v = DoubleVirtualLanes.LANES;
    double[] p = DoubleVirtualLanes.scratch();
    DoubleVirtualLanes.clear(p, 2);
    int i = 0;
    for (int bound = n - n % (2 * v); i < bound; i += 2 * v) {
      for (int c = 0; c < 2 * v; c++) {
        p[c] += (double) w.getAtIndex(F, i + c) * x.getAtIndex(F, i + c);
      }
    }
    int bound1 = n - n % v;
    for (; i < bound1; i += v) {
      for (int l = 0; l < v; l++) {
        p[l] += (double) w.getAtIndex(F, i + l) * x.getAtIndex(F, i + l);
      }
    }
    DoubleVirtualLanes.combine(p, 2);
    tail(w, x, bound1, n, p);
    return DoubleVirtualLanes.sum(p);
  }

  /**
   * The tail {@code [from, to)} of {@link #dot}: {@code w_i x_i} into lane {@code p[i - from]};
   * also the vector kernel's.
   */
  public static void tail(MemorySegment w, MemorySegment x, int from, int to, double[] p) {
    for (int i = from; i < to; i++) {
      p[i - from] += (double) w.getAtIndex(F, i) * x.getAtIndex(F, i);
    }
  }
}
