package org.onlinekernels.kernel.vector;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorShuffle;

/**
 * Horizontal sum in a fixed order. {@code reduceLanes(ADD)} may sum in one order when
 * interpreted and in another once C2 intrinsifies it, so the same call can return different
 * bits before and after warm-up; a checkpoint resumed in a fresh JVM would then diverge. This
 * tree (add the upper half onto the lower, log2(lanes) times) is lane-wise adds with fixed
 * pairings, identical in every execution mode. Source of the generated {@code Double} twin.
 */
final class FloatLanes {
  private FloatLanes() {}

  @SuppressWarnings("unchecked")
  private static final VectorShuffle<Float>[] FOLDS = folds();

  private static VectorShuffle<Float>[] folds() {
    int lanes = VectorConstants.FLOAT_SPECIES.length();
    int steps = Integer.numberOfTrailingZeros(lanes);
    @SuppressWarnings("unchecked")
    VectorShuffle<Float>[] f = new VectorShuffle[steps];
    for (int k = 0; k < steps; k++) {
      int half = lanes >> (k + 1);
      f[k] = VectorShuffle.fromOp(VectorConstants.FLOAT_SPECIES, i -> i ^ half);
    }
    return f;
  }

  /** Sum of all lanes of {@code v}, in the same order in every execution mode. */
  static float sum(FloatVector v) {
    for (VectorShuffle<Float> s : FOLDS) {
      v = v.add(v.rearrange(s));
    }
    return v.lane(0);
  }
}
