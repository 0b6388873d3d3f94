package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.checkpoint.CheckpointTest;
import org.onlinekernels.optimizer.parallel.CoordinateMerge;

/**
 * A {@link CoordinateMerge} kept across rounds ({@link CoordinateMerge#kept}) gives the bits of a
 * merge prepared for the round ({@link CoordinateMerge#prepare}, which {@link CoordinateMergeTest}
 * holds to {@code merge}'s), round after round, for every rule whose rounds write only their row:
 * three learners train, the kept merge scans the named coordinates by shares (the canonical order
 * found share by share), resets, checks and writes by shares in any order and finishes; the merged
 * state and every learner then hold what the prepared merge of copies of the same learners gives,
 * and the next round starts from there. Shares that do not cover the list are refused.
 */
class KeptMergeTest {
  private static final int D = 300;

  @ParameterizedTest(name = "{0}")
  @MethodSource("org.onlinekernels.optimizer.CoordinateMergeTest#rowLocal")
  void aKeptMergeIsTheFullMergeRoundAfterRound(AllOptimizers.Named n) {
    SparseDataset data = CoordinateMergeTest.rows(1500, 5, D);
    for (ElementType t : ElementType.values()) {
      for (int shares = 1; shares <= 3; shares++) {
        try (Arena a = Arena.ofConfined();
            AbstractOptimizer full = n.create(D, t);
            AbstractOptimizer local = n.create(D, t);
            AbstractOptimizer l0 = n.create(D, t);
            AbstractOptimizer l1 = n.create(D, t);
            AbstractOptimizer l2 = n.create(D, t);
            AbstractOptimizer c0 = n.create(D, t);
            AbstractOptimizer c1 = n.create(D, t);
            AbstractOptimizer c2 = n.create(D, t)) {
          CheckpointTest.run(full, data, 0, 300, a);
          local.copyStateFrom(full);
          List<AbstractOptimizer> learners = List.of(l0, l1, l2);
          for (AbstractOptimizer l : learners) {
            l.copyStateFrom(full);
          }
          CoordinateMerge kept = CoordinateMerge.kept(local, learners, shares);
          for (int round = 0; round < 2; round++) {
            // Each learner trains its own 100 rows of the round; owners: who alone named a
            // coordinate.
            TreeMap<Integer, Integer> owner = new TreeMap<>();
            int[] indices = data.indices();
            for (int j = 0; j < 3; j++) {
              int from = 300 + 600 * round + 100 * j;
              CheckpointTest.run(learners.get(j), data, from, from + 100, a);
              for (int e = data.rowStart(from); e < data.rowEnd(from + 99); e++) {
                int i = indices[e];
                Integer o = owner.get(i);
                owner.put(i, o == null || o == j ? j : -1);
              }
            }
            List<AbstractOptimizer> copies = List.of(c0, c1, c2);
            for (int j = 0; j < 3; j++) {
              copies.get(j).copyStateFrom(learners.get(j));
            }
            int[] coords = owner.keySet().stream().mapToInt(Integer::intValue).toArray();
            int[] owners = owner.values().stream().mapToInt(Integer::intValue).toArray();
            for (int s = shares - 1; s >= 0; s--) {
              kept.scan(
                  s,
                  coords,
                  owners,
                  share(coords.length, s, shares),
                  share(coords.length, s + 1, shares));
            }
            kept.reset(coords, coords.length, owners);
            for (int s = shares - 1; s >= 0; s--) {
              kept.check(s, share(coords.length, s, shares), share(coords.length, s + 1, shares));
            }
            for (int s = 0; s < shares; s++) {
              int q = (s + 1) % shares;
              kept.write(q, share(coords.length, q, shares), share(coords.length, q + 1, shares));
            }
            kept.finish();
            CoordinateMerge prepared =
                CoordinateMerge.prepare(full, copies, coords, coords.length, owners);
            prepared.check(0, coords.length);
            prepared.write(0, coords.length);
            prepared.finish();
            String what = n.name() + " " + t + " shares " + shares + " round " + round;
            StateSnapshot want = StateSnapshot.of(full);
            want.assertSame(local, what + ": merged state");
            for (AbstractOptimizer l : learners) {
              want.assertSame(l, what + ": a learner after the merge");
            }
          }
          int[] coords = {1, 2, 3, 4};
          kept.scan(0, coords, null, 1, 4);
          assertThrows(IllegalStateException.class, () -> kept.reset(coords, 4, null));
        }
      }
    }
  }

  private static int share(int size, int s, int shares) {
    return (int) ((long) size * s / shares);
  }
}
