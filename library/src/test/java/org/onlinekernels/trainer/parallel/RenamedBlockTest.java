package org.onlinekernels.trainer.parallel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.RefusedRoundException;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.optimizer.parallel.HotRecords;
import org.onlinekernels.optimizer.parallel.SharedState;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * A shared-state worker's block ({@link RenamedBlock}): the rows of its positions in the epoch's
 * order, each hot coordinate renamed to that worker's copy and moved to the end of its row, the
 * rest as in the data; a round refused in the block is reported at its position in the epoch's
 * order.
 */
class RenamedBlockTest {
  private static final int D = 40;
  private static final int HOT = 4;
  private static final int N = 600;

  /** Coordinates 0..3 in every row, and four of the 32 others; values 1 + row / 1000. */
  private static SparseRows rows(ElementType type) {
    Random r = new Random(7);
    int[] start = new int[N + 1];
    int[] idx = new int[N * 8];
    double[] val = new double[N * 8];
    int e = 0;
    for (int row = 0; row < N; row++) {
      for (int j = 0; j < HOT; j++) {
        idx[e] = j;
        val[e++] = j + row / 1000.0;
      }
      for (int j = 0; j < 4; j++) {
        idx[e] = HOT + 9 * j + r.nextInt(9);
        val[e++] = -(j + row / 1000.0);
      }
      start[row + 1] = e;
    }
    return SparseRows.of(start, idx, val, type);
  }

  @Test
  void aWorkersBlockNamesItsCopiesOfTheHotCoordinatesAndKeepsTheRest() {
    SparseRows rows = rows(ElementType.DOUBLE);
    HotCoordinates hot = new HotCoordinates(D, HOT);
    hot.choose(rows);
    assertArrayEquals(new int[] {0, 1, 2, 3}, hot.coords());
    int[] order = new int[N];
    for (int q = 0; q < N; q++) {
      order[q] = N - 1 - q;
    }
    RenamedBlock block = new RenamedBlock(ElementType.DOUBLE);
    for (int worker = 0; worker < 3; worker++) {
      // Worker 0 renames the rows first (their hot entries looked up), the others again.
      block.fill(hot, rows, order, 256, 512, worker, worker > 0);
      SparseRows b = block.rows();
      assertEquals(256, b.size());
      for (int q = 0; q < 256; q++) {
        int r = order[256 + q];
        assertEquals(8, b.nnz(q));
        for (int j = 0; j < 4; j++) {
          // The cold entries first, as in the data.
          assertEquals(rows.index(r, HOT + j), b.index(q, j));
          assertEquals(rows.value(r, HOT + j), b.value(q, j));
          // Then hot coordinate j as this worker's copy, its value with it.
          assertEquals(HotRecords.slot(D, HOT, worker, j), b.index(q, 4 + j));
          assertEquals(rows.value(r, j), b.value(q, 4 + j));
        }
        assertEquals(rows.maxAbs(r), b.maxAbs(q));
      }
      assertEquals(HotRecords.slot(D, HOT, worker, HOT - 1) + 1, b.dimension());
    }
    assertThrows(
        IllegalArgumentException.class, () -> block.fill(hot, rows, order, 0, 257, 0, false));
  }

  @Test
  void aRoundRefusedInTheBlockIsReportedAtItsPositionInTheEpoch() {
    SparseRows rows = rows(ElementType.FLOAT);
    HotCoordinates hot = new HotCoordinates(D, HOT);
    hot.choose(rows);
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of("scinol2"));
    int[] order = new int[N];
    for (int q = 0; q < N; q++) {
      order[q] = q;
    }
    try (SharedState state =
        SharedState.create(
            arena -> c.algorithm().create(D + 2 * HOT, c.precision(), c.stateLayout(), arena, null),
            2)) {
      state.begin();
      RenamedBlock block = new RenamedBlock(ElementType.FLOAT);
      block.fill(hot, rows, order, 256, 300, 1, false);
      double[] y = new double[44];
      java.util.Arrays.fill(y, 1);
      y[3] = Double.NaN;
      RefusedRoundException e =
          assertThrows(
              RefusedRoundException.class,
              () -> block.rounds(state, 1, 256, 300, y, c.loss(), new double[44], new double[44]));
      assertEquals(259, e.position());
    }
  }
}
