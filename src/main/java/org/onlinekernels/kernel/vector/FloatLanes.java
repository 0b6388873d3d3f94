package org.onlinekernels.kernel.vector;

/**
 * Horizontal sum in a fixed order. {@code reduceLanes(ADD)} may sum in one order when
 * interpreted and in another once C2 intrinsifies it, so the same call can return different
 * bits before and after warm-up; a checkpoint resumed in a fresh JVM would then diverge. This
 * tree (add the upper half onto the lower, log2(lanes) times: pairs {@code (k, k + half)} for
 * {@code half = lanes/2, lanes/4, ..., 1}) has fixed pairings, identical in every execution mode.
 *
 * <p>It takes the lanes spilled to an array ({@code acc.intoArray(scratch.sum, 0)} at the call
 * site), not the vector: a helper that takes a vector and is not inlined gets the vector boxed
 * on the heap, and the earlier shuffle version of this method was too big to be inlined into
 * kernels already near C2's inlining budget (measured: 368-480 bytes per ScInOL predict call).
 * The spill is one store that C2 always intrinsifies. Source of the generated {@code Double}
 * twin.
 */
final class FloatLanes {
  private FloatLanes() {}

  /**
   * Sum of {@code lanes} (a spilled vector, one element per lane), in the same order in every
   * execution mode. Overwrites {@code lanes}.
   */
  static float sum(float[] lanes) {
    for (int half = lanes.length >> 1; half > 0; half >>= 1) {
      for (int k = 0; k < half; k++) {
        lanes[k] = lanes[k] + lanes[k + half];
      }
    }
    return lanes[0];
  }
}
