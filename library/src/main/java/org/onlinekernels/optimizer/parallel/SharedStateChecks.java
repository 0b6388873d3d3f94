package org.onlinekernels.optimizer.parallel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.LinearModelOptimizer;

/**
 * What a {@link SharedState} requires of the optimizers it is made of, checked once when it is
 * made: each is one of the library's, each view holds exactly the owner's buffers, and every
 * element can be read and written whole, so that a race can lose an update but never tear one.
 */
final class SharedStateChecks {
  private SharedStateChecks() {}

  /** {@code o}, recorded in {@code made} (to be closed on failure), as a library optimizer. */
  static AbstractOptimizer library(LinearModelOptimizer o, List<LinearModelOptimizer> made) {
    made.add(o);
    if (!(o instanceof AbstractOptimizer a)) {
      throw new IllegalArgumentException(
          "algorithm "
              + o.algorithm()
              + " is not one of the library's optimizers; shared-state training needs one");
    }
    return a;
  }

  /** The view holds exactly the owner's buffers (the same memory), under the same names. */
  static void checkShares(AbstractOptimizer owner, AbstractOptimizer view) {
    Map<String, MemorySegment> a = owner.stateAccess().buffers();
    Map<String, MemorySegment> b = view.stateAccess().buffers();
    if (!a.keySet().equals(b.keySet())) {
      throw new IllegalArgumentException(
          "a view has buffers " + b.keySet() + ", the owner " + a.keySet());
    }
    a.forEach(
        (name, s) -> {
          if (!s.equals(b.get(name))) {
            throw new IllegalArgumentException(
                "buffer '"
                    + name
                    + "' of a view is not the owner's; "
                    + owner.algorithm()
                    + " allocates state outside its store");
          }
        });
  }

  /**
   * Every element is accessed whole: double buffers need a 64-bit platform (where an aligned plain
   * access is single-copy atomic) and every buffer the alignment of its element type.
   */
  static void checkAtomic(AbstractOptimizer owner) {
    owner
        .stateAccess()
        .buffers()
        .forEach(
            (name, s) -> {
              // A buffer is one variable, or an interleaved block named after its variables.
              String variable = name.replace(" (interleaved)", "").split("\\+")[0];
              boolean dbl = owner.stateType(variable) == ElementType.DOUBLE;
              long bytes = dbl ? Double.BYTES : Float.BYTES;
              if (dbl && ValueLayout.ADDRESS.byteSize() < 8) {
                throw new IllegalArgumentException(
                    "double state on a 32-bit platform could be torn by a race;"
                        + " train shared state in float, or use parameter mixing");
              }
              if (s.maxByteAlignment() < bytes || s.address() % bytes != 0) {
                throw new IllegalArgumentException(
                    "state buffer '"
                        + name
                        + "' is not aligned to its "
                        + bytes
                        + "-byte elements; a race could tear them");
              }
            });
  }
}
