package org.onlinekernels.optimizer;

/**
 * What a merge checks of its learners before it changes anything ({@link #checkCompatible}), and
 * the canonical order it visits them in ({@link #compareStates}: docs/MERGING.md).
 */
final class MergeCompatibility {
  private MergeCompatibility() {}

  /**
   * Same class, dimension, precision, parameters and buffers; open, and (with {@code owner}) owned
   * by the caller.
   */
  static void checkCompatible(AbstractOptimizer into, AbstractOptimizer other, String what) {
    checkCompatible(into, other, what, true);
  }

  static void checkCompatible(
      AbstractOptimizer into, AbstractOptimizer other, String what, boolean owner) {
    if (other == null) {
      throw new IllegalArgumentException(what + " is null");
    }
    if (owner) {
      other.checkOpen();
    }
    if (other.getClass() != into.getClass()) {
      throw new IllegalArgumentException(
          what + " is a " + other.algorithm() + " optimizer, this one " + into.algorithm());
    }
    if (other.d != into.d || other.precision != into.precision) {
      throw new IllegalArgumentException(
          what
              + " has dimension "
              + other.d
              + " and precision "
              + other.precision
              + ", this one "
              + into.d
              + " and "
              + into.precision);
    }
    if (!Checkpoint.paramsOf(other).equals(Checkpoint.paramsOf(into))
        || !other.buffers().keySet().equals(into.buffers().keySet())) {
      throw new IllegalArgumentException(
          what
              + " has other parameters ("
              + Checkpoint.paramsOf(other)
              + " "
              + other.buffers().keySet()
              + ") than this one ("
              + Checkpoint.paramsOf(into)
              + " "
              + into.buffers().keySet()
              + ")");
    }
  }

  /** Lexicographic order of the merged state: buffers in plan order, then the plan's scalars. */
  static int compareStates(AbstractOptimizer a, AbstractOptimizer b, MergePlan plan) {
    return compareStates(a, b, plan, null, a.d);
  }

  /**
   * {@link #compareStates(AbstractOptimizer, AbstractOptimizer, MergePlan)} over {@code
   * coords[0..n)} (null: all).
   */
  static int compareStates(
      AbstractOptimizer a, AbstractOptimizer b, MergePlan plan, int[] coords, int n) {
    for (MergePlan.Buffer buf : plan.buffers) {
      StateStore.Field fa = a.store.field(buf.name());
      StateStore.Field fb = b.store.field(buf.name());
      for (int q = 0; q < n; q++) {
        int i = coords == null ? q : coords[q];
        int c =
            Long.compare(
                Double.doubleToRawLongBits(fa.get(i)), Double.doubleToRawLongBits(fb.get(i)));
        if (c != 0) {
          return c;
        }
      }
    }
    for (MergePlan.Buffer s : plan.scalars) {
      int c =
          Long.compare(
              Double.doubleToRawLongBits(a.scalarState().get(s.name())),
              Double.doubleToRawLongBits(b.scalarState().get(s.name())));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }
}
