package org.onlinekernels.optimizer.merge;

import org.onlinekernels.optimizer.internal.StateAccess;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.StateStore;

/**
 * What a merge checks of its learners before it changes anything ({@link #checkCompatible}), and
 * the canonical order it visits them in ({@link #compareStates}: docs/MERGING.md).
 */
public final class MergeCompatibility {
  private MergeCompatibility() {}

  /**
   * Same class, dimension, precision, parameters and buffers; open, and (with {@code owner}) owned
   * by the caller.
   */
  public static void checkCompatible(StateAccess into, StateAccess other, String what) {
    checkCompatible(into, other, what, true);
  }

  static void checkCompatible(StateAccess into, StateAccess other, String what, boolean owner) {
    if (other == null) {
      throw new IllegalArgumentException(what + " is null");
    }
    if (owner) {
      other.checkOpen();
    }
    if (other.optimizerClass() != into.optimizerClass()) {
      throw new IllegalArgumentException(
          what + " is a " + other.algorithm() + " optimizer, this one " + into.algorithm());
    }
    if (other.dimension() != into.dimension() || other.precision() != into.precision()) {
      throw new IllegalArgumentException(
          what
              + " has dimension "
              + other.dimension()
              + " and precision "
              + other.precision()
              + ", this one "
              + into.dimension()
              + " and "
              + into.precision());
    }
    if (!other.params().equals(into.params())
        || !other.buffers().keySet().equals(into.buffers().keySet())) {
      throw new IllegalArgumentException(
          what
              + " has other parameters ("
              + other.params()
              + " "
              + other.buffers().keySet()
              + ") than this one ("
              + into.params()
              + " "
              + into.buffers().keySet()
              + ")");
    }
  }

  /** Lexicographic order of the merged state: buffers in plan order, then the plan's scalars. */
  public static int compareStates(StateAccess a, StateAccess b, MergePlan plan) {
    return compareStates(a, b, plan, null, a.dimension());
  }

  /**
   * {@link #compareStates(StateAccess, StateAccess, MergePlan)} over {@code coords[0..n)} (null:
   * all).
   */
  static int compareStates(StateAccess a, StateAccess b, MergePlan plan, int[] coords, int n) {
    for (MergePlan.Buffer buf : plan.buffers()) {
      StateStore.Field fa = a.store().field(buf.name());
      StateStore.Field fb = b.store().field(buf.name());
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
    for (MergePlan.Buffer s : plan.scalars()) {
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
