package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.parallel.CoordinateMerge;
import org.onlinekernels.optimizer.parallel.MergeSummary;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.GlobalAdaGradParams;
import org.onlinekernels.rules.adagrad.AdaGradOptimizer;
import org.onlinekernels.rules.globaladagrad.GlobalAdaGradOptimizer;

/**
 * docs/GUARANTEES.md, Threads: "A merged value the element type cannot hold is refused with
 * ArithmeticException before anything is written" (issue #41: with the merge's overflow checks
 * turned off the suites stayed green). A summed buffer beyond float's range (AdaGrad's {@code Q})
 * and a summed scalar beyond double's (global AdaGrad's {@code sumSquares}), through {@code merge},
 * through merge summaries, and through a coordinate merge: refused, every optimizer unchanged.
 */
class MergeOverflowTest {
  /** Learners started from {@code start}, each then given {@code edit}. */
  private static List<AbstractOptimizer> learners(
      AbstractOptimizer start, Supplier<AbstractOptimizer> make, Consumer<AbstractOptimizer> edit) {
    List<AbstractOptimizer> l = new ArrayList<>();
    for (int j = 0; j < 2; j++) {
      AbstractOptimizer o = make.get();
      o.copyStateFrom(start);
      edit.accept(o);
      l.add(o);
    }
    return l;
  }

  /** Every way of merging {@code learners} into {@code start}: refused and nothing changed. */
  private static void refusedEveryWay(
      AbstractOptimizer start, List<AbstractOptimizer> learners, String what) {
    List<StateSnapshot> before = new ArrayList<>();
    for (AbstractOptimizer o : learners) {
      before.add(StateSnapshot.of(o));
    }
    StateSnapshot at = StateSnapshot.of(start);
    ArithmeticException e =
        assertThrows(ArithmeticException.class, () -> start.merge(learners), "merge");
    assertTrue(
        e.getMessage().contains(what) && e.getMessage().contains("overflows"), e.getMessage());
    at.assertSame(start, "merge");
    e =
        assertThrows(
            ArithmeticException.class,
            () -> MergeSummary.of(start, learners).mergeInto(start),
            "merge summary");
    assertTrue(e.getMessage().contains(what), e.getMessage());
    at.assertSame(start, "merge summary");
    e =
        assertThrows(
            ArithmeticException.class,
            () -> {
              CoordinateMerge m = CoordinateMerge.prepare(start, learners, new int[] {0, 1}, 2);
              m.check(0, m.size());
              m.write(0, m.size());
              m.finish();
            },
            "coordinate merge");
    assertTrue(e.getMessage().contains(what), e.getMessage());
    at.assertSame(start, "coordinate merge");
    for (int j = 0; j < learners.size(); j++) {
      before.get(j).assertSame(learners.get(j), "learner " + j);
    }
  }

  @Test
  void aSummedBufferBeyondFloatIsRefusedBeforeAnythingIsWritten() {
    Supplier<AbstractOptimizer> make =
        () -> new AdaGradOptimizer(2, ElementType.FLOAT, AdaGradParams.eta(0.5));
    try (AbstractOptimizer start = make.get()) {
      // Q by increments: 0 + 3e38 + 3e38 is beyond Float.MAX_VALUE (3.4e38).
      List<AbstractOptimizer> l =
          learners(start, make, o -> o.writeState("Q", new double[] {3e38, 1}));
      try {
        refusedEveryWay(start, l, "merged Q[0]");
      } finally {
        l.forEach(AbstractOptimizer::close);
      }
    }
  }

  @Test
  void aSummedScalarBeyondDoubleIsRefusedBeforeAnythingIsWritten() {
    Supplier<AbstractOptimizer> make =
        () -> new GlobalAdaGradOptimizer(2, ElementType.DOUBLE, GlobalAdaGradParams.ofDiameter(1));
    try (AbstractOptimizer start = make.get()) {
      List<AbstractOptimizer> l =
          learners(start, make, o -> o.writeScalarState("sumSquares", 1e308));
      try {
        refusedEveryWay(start, l, "sumSquares");
      } finally {
        l.forEach(AbstractOptimizer::close);
      }
    }
  }
}
