package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.checkpoint.CheckpointTest;
import org.onlinekernels.optimizer.parallel.CoordinateMerge;

/**
 * {@link CoordinateMerge} over the coordinates the learners' rows named, run in two ranges, gives
 * {@code merge}'s state bit for bit (every rule whose rounds write only their row), and leaves
 * every learner holding that state, for a few coordinates and for thousands (the merge loads their
 * records in blocks ahead of its passes); a ball's merge refuses a list of coordinates. Told which
 * learner alone named each coordinate, the merge of 1 to 4 learners, cut into one share per thread
 * as the deterministic trainer cuts it and the shares run in any order, still gives {@code merge}'s
 * bits while copying those coordinates instead of combining them.
 */
class CoordinateMergeTest {
  private static final int D = 300;

  /** A dimension whose named coordinates run to thousands: many blocks of loaded records. */
  private static final int WIDE = 100_000;

  /** The dimension of the shares' test: hundreds of coordinates named by one learner alone. */
  private static final int SHARES_D = 5_000;

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
    mergeOverTheNamedCoordinates(n, D);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rowLocal")
  void aMergeOverThousandsOfNamedCoordinatesIsTheFullMergeThereAndLeavesTheRest(
      AllOptimizers.Named n) {
    // Here most coordinates are named by no row. The full merge's value there is not compared:
    // where the learners' weights are mixed by their scalar increments (adagrad-global), the mean
    // of three equal values can differ from them in the last bit, and only the full merge takes it.
    assertTrue(mergeOverTheNamedCoordinates(n, WIDE) > 1000, "too few coordinates");
  }

  /**
   * Merges three learners trained on rows over {@code [0, d)} over the coordinates they named and
   * compares with the full merge: the whole state for {@link #D}, else the named coordinates (and
   * the scalars), with every other coordinate left at the start. Returns how many coordinates were
   * named.
   */
  private static int mergeOverTheNamedCoordinates(AllOptimizers.Named n, int d) {
    SparseDataset data = rows(900, 3, d);
    int named = 0;
    for (ElementType t : ElementType.values()) {
      try (Arena a = Arena.ofConfined();
          AbstractOptimizer full = n.create(d, t);
          AbstractOptimizer local = n.create(d, t);
          AbstractOptimizer l0 = n.create(d, t);
          AbstractOptimizer l1 = n.create(d, t);
          AbstractOptimizer l2 = n.create(d, t);
          AbstractOptimizer start = n.create(d, t)) {
        CheckpointTest.run(full, data, 0, 300, a);
        local.copyStateFrom(full);
        start.copyStateFrom(full);
        List<AbstractOptimizer> learners = List.of(l0, l1, l2);
        TreeSet<Integer> names = new TreeSet<>();
        int[] indices = data.indices();
        for (int j = 0; j < 3; j++) {
          learners.get(j).copyStateFrom(full);
          int from = 300 + 200 * j;
          CheckpointTest.run(learners.get(j), data, from, from + 200, a);
          for (int e = data.rowStart(from); e < data.rowEnd(from + 199); e++) {
            names.add(indices[e]);
          }
        }
        full.merge(learners);
        int[] coords = names.stream().mapToInt(Integer::intValue).toArray();
        named = coords.length;
        CoordinateMerge m = CoordinateMerge.prepare(local, learners, coords, coords.length);
        int mid = coords.length / 3;
        m.check(0, mid);
        m.check(mid, coords.length);
        m.write(mid, coords.length);
        m.write(0, mid);
        m.finish();
        String what = n.name() + " " + t;
        if (d == D) {
          StateSnapshot want = StateSnapshot.of(full);
          want.assertSame(local, what + ": merged state");
          for (AbstractOptimizer l : learners) {
            want.assertSame(l, what + ": a learner after the merge");
          }
          continue;
        }
        boolean[] isNamed = new boolean[d];
        for (int i : coords) {
          isNamed[i] = true;
        }
        for (AbstractOptimizer got : List.of(local, l0, l1, l2)) {
          assertEquals(full.scalarState(), got.scalarState(), what + ": merged scalars");
          for (String v : full.store.names()) {
            for (int i = 0; i < d; i++) {
              double want = (isNamed[i] ? full : start).store.get(v, i);
              assertEquals(
                  Double.doubleToRawLongBits(want),
                  Double.doubleToRawLongBits(got.store.get(v, i)),
                  what + ": " + v + "[" + i + "] " + (isNamed[i] ? "merged" : "unnamed"));
            }
          }
        }
      }
    }
    return named;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rowLocal")
  void sharesOfAMergeToldWhichLearnerAloneNamedACoordinateAreTheFullMerge(AllOptimizers.Named n) {
    for (int threads = 1; threads <= 4; threads++) {
      sharesAreTheFullMerge(n, threads);
    }
  }

  /**
   * {@code threads} learners, each trained on its own 150 rows over {@link #SHARES_D} coordinates,
   * are merged over the coordinates they named, with each coordinate's sole learner given (or -1),
   * in one share per thread ({@code [size j / T, size (j + 1) / T)}, each checked, then each
   * written, last share first): the named coordinates hold the full merge's bits in the merged
   * state and every learner, the others the start's, and the scalars the merged ones.
   */
  private static void sharesAreTheFullMerge(AllOptimizers.Named n, int threads) {
    int d = SHARES_D;
    SparseDataset data = rows(300 + 150 * threads, 5, d);
    for (ElementType t : ElementType.values()) {
      String what = n.name() + " " + t + " T=" + threads;
      List<AbstractOptimizer> learners = new java.util.ArrayList<>();
      try (Arena a = Arena.ofConfined();
          AbstractOptimizer full = n.create(d, t);
          AbstractOptimizer local = n.create(d, t);
          AbstractOptimizer start = n.create(d, t)) {
        CheckpointTest.run(full, data, 0, 300, a);
        local.copyStateFrom(full);
        start.copyStateFrom(full);
        java.util.TreeMap<Integer, Integer> owner = new java.util.TreeMap<>();
        int[] indices = data.indices();
        for (int j = 0; j < threads; j++) {
          AbstractOptimizer l = n.create(d, t);
          learners.add(l);
          l.copyStateFrom(full);
          int from = 300 + 150 * j;
          CheckpointTest.run(l, data, from, from + 150, a);
          for (int e = data.rowStart(from); e < data.rowEnd(from + 149); e++) {
            int before = owner.getOrDefault(indices[e], j);
            owner.put(indices[e], before == j ? j : -1);
          }
        }
        full.merge(learners);
        int[] coords = owner.keySet().stream().mapToInt(Integer::intValue).toArray();
        int[] owners = owner.values().stream().mapToInt(Integer::intValue).toArray();
        long solo = java.util.Arrays.stream(owners).filter(o -> o >= 0).count();
        assertTrue(solo > 100, what + ": too few coordinates named by one learner: " + solo);
        assertTrue(
            threads == 1 || coords.length - solo > 10,
            what + ": too few coordinates named by several learners");
        CoordinateMerge m = CoordinateMerge.prepare(local, learners, coords, coords.length, owners);
        for (int j = threads - 1; j >= 0; j--) {
          m.check(share(coords.length, j, threads), share(coords.length, j + 1, threads));
        }
        for (int j = threads - 1; j >= 0; j--) {
          m.write(share(coords.length, j, threads), share(coords.length, j + 1, threads));
        }
        m.finish();
        boolean[] isNamed = new boolean[d];
        for (int i : coords) {
          isNamed[i] = true;
        }
        List<AbstractOptimizer> got = new java.util.ArrayList<>(learners);
        got.add(0, local);
        for (AbstractOptimizer o : got) {
          assertEquals(full.scalarState(), o.scalarState(), what + ": merged scalars");
          for (String v : full.store.names()) {
            for (int i = 0; i < d; i++) {
              double want = (isNamed[i] ? full : start).store.get(v, i);
              assertEquals(
                  Double.doubleToRawLongBits(want),
                  Double.doubleToRawLongBits(o.store.get(v, i)),
                  what + ": " + v + "[" + i + "] " + (isNamed[i] ? "merged" : "unnamed"));
            }
          }
        }
      } finally {
        for (AbstractOptimizer l : learners) {
          l.close();
        }
      }
    }
  }

  /** The start of share {@code j} of {@code size} positions over {@code threads}. */
  private static int share(int size, int j, int threads) {
    return (int) ((long) size * j / threads);
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
                return o.mergePlan() != null && !Double.isNaN(o.mergePlan().ballRadius());
              }
            });
  }

  /** Rows of 6 nonzeros over {@code [0, d)}, Zipf-ish (low indices common), labels +1/-1. */
  private static SparseDataset rows(int n, long seed, int d) {
    SparseDataset.Builder b = new SparseDataset.Builder();
    Random r = new Random(seed);
    for (int i = 0; i < n; i++) {
      TreeSet<Integer> idx = new TreeSet<>();
      while (idx.size() < 6) {
        idx.add((int) Math.min(d - 1, Math.floor(Math.pow(r.nextDouble(), 3) * d)));
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
