package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;

/**
 * {@link CoordinateMerge} over the coordinates the learners' rows named, run in two ranges, gives
 * {@code merge}'s state bit for bit (every rule whose rounds write only their row), and leaves
 * every learner holding that state; a ball's merge refuses a list of coordinates.
 */
class CoordinateMergeTest {
  private static final int D = 300;

  static Stream<AllOptimizers.Named> rowLocal() {
    return AllOptimizers.all().stream()
        .filter(
            n -> {
              try (AbstractOptimizer o = n.create(4, ElementType.FLOAT)) {
                return o.mergePlan() != null && o.roundsWriteOnlyTheirRow();
              }
            });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rowLocal")
  void aMergeOverTheNamedCoordinatesIsTheFullMerge(AllOptimizers.Named n) {
    SparseDataset data = rows(900, 3);
    for (ElementType t : ElementType.values()) {
      try (Arena a = Arena.ofConfined();
          AbstractOptimizer full = n.create(D, t);
          AbstractOptimizer local = n.create(D, t);
          AbstractOptimizer l0 = n.create(D, t);
          AbstractOptimizer l1 = n.create(D, t);
          AbstractOptimizer l2 = n.create(D, t)) {
        CheckpointTest.run(full, data, 0, 300, a);
        local.copyStateFrom(full);
        List<AbstractOptimizer> learners = List.of(l0, l1, l2);
        TreeSet<Integer> named = new TreeSet<>();
        for (int j = 0; j < 3; j++) {
          learners.get(j).copyStateFrom(full);
          int from = 300 + 200 * j;
          CheckpointTest.run(learners.get(j), data, from, from + 200, a);
          for (int e = data.rowStart(from); e < data.rowEnd(from + 199); e++) {
            named.add(data.indices()[e]);
          }
        }
        full.merge(learners);
        int[] coords = named.stream().mapToInt(Integer::intValue).toArray();
        CoordinateMerge m = CoordinateMerge.prepare(local, learners, coords, coords.length);
        int mid = coords.length / 3;
        m.check(0, mid);
        m.check(mid, coords.length);
        m.write(mid, coords.length);
        m.write(0, mid);
        m.finish();
        StateSnapshot want = StateSnapshot.of(full);
        want.assertSame(local, n.name() + " " + t + ": merged state");
        for (AbstractOptimizer l : learners) {
          want.assertSame(l, n.name() + " " + t + ": a learner after the merge");
        }
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("balls")
  void aBallRefusesAListOfCoordinates(AllOptimizers.Named n) {
    try (AbstractOptimizer into = n.create(D, ElementType.FLOAT);
        AbstractOptimizer l = n.create(D, ElementType.FLOAT)) {
      assertThrows(
          IllegalStateException.class,
          () -> CoordinateMerge.prepare(into, List.of(l), new int[] {1}, 1));
    }
  }

  static Stream<AllOptimizers.Named> balls() {
    return AllOptimizers.all().stream()
        .filter(
            n -> {
              try (AbstractOptimizer o = n.create(4, ElementType.FLOAT)) {
                return o.mergePlan() != null && !Double.isNaN(o.mergePlan().ballRadius);
              }
            });
  }

  /** Rows of 6 nonzeros over {@code [0, D)}, Zipf-ish (low indices common), labels +1/-1. */
  private static SparseDataset rows(int n, long seed) {
    SparseDataset.Builder b = new SparseDataset.Builder();
    Random r = new Random(seed);
    for (int i = 0; i < n; i++) {
      TreeSet<Integer> idx = new TreeSet<>();
      while (idx.size() < 6) {
        idx.add((int) Math.min(D - 1, Math.floor(Math.pow(r.nextDouble(), 3) * D)));
      }
      int[] ix = idx.stream().mapToInt(Integer::intValue).toArray();
      double[] v = new double[ix.length];
      for (int j = 0; j < v.length; j++) {
        v[j] = r.nextGaussian();
      }
      b.addRow(v[0] > 0 ? 1 : -1, ix, v);
    }
    return b.build();
  }
}
