package org.onlinekernels.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The bounded shuffle buffer gives every row once, within its bound, seeded. */
class ShuffleFeedTest {
  /** {@code n} rows, row {@code i} with one entry {@code (i % 50, i)} and label +1. */
  static SparseDataset rows(int n) {
    SparseDataset.Builder b = new SparseDataset.Builder();
    for (int i = 0; i < n; i++) {
      b.addRow(1, new int[] {i % 50}, new double[] {i});
    }
    return b.build();
  }

  /** The ids in the order the feed gives them; each row's entry must still be its own. */
  static List<Long> order(RowFeed f) throws IOException {
    List<Long> ids = new ArrayList<>();
    RowBlock b = new RowBlock(100);
    while (f.next(b)) {
      for (int r = 0; r < b.size(); r++) {
        long id = b.id(r);
        assertEquals(1, b.nnz(r));
        assertEquals(id % 50, b.indexArray()[b.rowStart(r)]);
        assertEquals((double) id, b.valueArray()[b.rowStart(r)]);
        ids.add(id);
      }
    }
    return ids;
  }

  @Test
  void aLongStreamLeavesEachRowOnceAndNeverMoreThanTheBufferEarly() throws IOException {
    int n = 10_000;
    int buffer = 300;
    List<Long> ids = order(new ShuffleFeed(RowFeed.of(rows(n), 77), buffer, new Random(5)));
    assertEquals(n, ids.size());
    assertEquals(n, ids.stream().distinct().count(), "every row once");
    for (int p = 0; p < n; p++) {
      // Row i enters when the buffer is full, after i - buffer rows have left.
      assertTrue(p >= ids.get(p) - buffer, "row " + ids.get(p) + " left at " + p);
    }
    int moved = 0;
    for (int p = 0; p < n; p++) {
      moved += ids.get(p) == p ? 0 : 1;
    }
    assertTrue(moved > n * 9 / 10, "shuffled: " + moved + " of " + n + " rows moved");
    assertEquals(ids, order(new ShuffleFeed(RowFeed.of(rows(n), 77), buffer, new Random(5))));
    assertNotEquals(ids, order(new ShuffleFeed(RowFeed.of(rows(n), 77), buffer, new Random(6))));
  }

  @Test
  void aStreamThatFitsTheBufferIsShuffledInFull() throws IOException {
    // Each of 4 rows lands first about 1/4 of the time: a full shuffle, not a local one.
    int[] first = new int[4];
    Random random = new Random(11);
    SparseDataset four = rows(4);
    for (int run = 0; run < 1000; run++) {
      first[(int) (long) order(new ShuffleFeed(RowFeed.of(four), 10, random)).get(0)]++;
    }
    for (int c : first) {
      // 250 expected, standard deviation 13.7: 6 sigma either way.
      assertTrue(c > 168 && c < 332, java.util.Arrays.toString(first));
    }
  }
}
