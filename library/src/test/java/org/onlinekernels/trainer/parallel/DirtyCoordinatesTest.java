package org.onlinekernels.trainer.parallel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.onlinekernels.data.SparseDataset;

/**
 * {@link DirtyCoordinates}: for 1 to 4 threads, each marking its own slice of a round's rows and
 * each collecting its range of words, the gathered list is the union of the rows' indices in
 * ascending order, and each position's owner is the one thread whose rows alone named it, or -1
 * where several threads' rows did; a second round starts from clean bitsets.
 */
class DirtyCoordinatesTest {
  private static final int D = 5_000;

  @Test
  void theListIsTheUnionAndEachOwnerTheOnlyThreadThatNamedIt() {
    SparseDataset data = rows(400, 11);
    Rows rows = new Rows(data);
    int[] order = rows.fileOrder();
    for (int threads = 1; threads <= 4; threads++) {
      DirtyCoordinates dirty = new DirtyCoordinates(D, threads);
      for (int round = 0; round < 2; round++) {
        int lo = 200 * round;
        int hi = lo + 200;
        TreeMap<Integer, Integer> want = new TreeMap<>();
        for (int j = 0; j < threads; j++) {
          int from = lo + (hi - lo) * j / threads;
          int to = lo + (hi - lo) * (j + 1) / threads;
          dirty.mark(j, rows, order, from, to);
          for (int r = from; r < to; r++) {
            for (int e = data.rowStart(r); e < data.rowEnd(r); e++) {
              int i = data.indices()[e];
              int before = want.getOrDefault(i, j);
              want.put(i, before == j ? j : -1);
            }
          }
        }
        for (int j = threads - 1; j >= 0; j--) {
          dirty.collect(j);
        }
        int[] list = dirty.gather();
        int n = dirty.count();
        String what = "T=" + threads + " round " + round;
        assertArrayEquals(
            want.keySet().stream().mapToInt(Integer::intValue).toArray(),
            Arrays.copyOf(list, n),
            what + ": the named coordinates");
        assertArrayEquals(
            want.values().stream().mapToInt(Integer::intValue).toArray(),
            Arrays.copyOf(dirty.owners(), n),
            what + ": the owners");
        long shared = want.values().stream().filter(o -> o < 0).count();
        assertTrue(threads == 1 || shared > 20, what + ": too few shared coordinates " + shared);
      }
    }
  }

  /** Rows of 8 nonzeros over {@code [0, D)}, low indices common, so threads share some. */
  private static SparseDataset rows(int n, long seed) {
    SparseDataset.Builder b = new SparseDataset.Builder();
    Random r = new Random(seed);
    for (int i = 0; i < n; i++) {
      TreeSet<Integer> idx = new TreeSet<>();
      while (idx.size() < 8) {
        idx.add((int) Math.min(D - 1, Math.floor(Math.pow(r.nextDouble(), 3) * D)));
      }
      int[] ix = idx.stream().mapToInt(Integer::intValue).toArray();
      double[] v = new double[ix.length];
      Arrays.fill(v, 1.0);
      b.addRow(i % 2 == 0 ? 1 : -1, ix, v);
    }
    return b.build();
  }
}
