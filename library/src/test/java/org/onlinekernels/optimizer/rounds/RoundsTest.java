package org.onlinekernels.optimizer.rounds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.AllOptimizers;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.RefusedRoundException;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.optimizer.StateSnapshot;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/**
 * {@link LinearModelOptimizer#rounds}: a block of rounds is those rounds one by one, bit for bit
 * (state and every {@code yhat}), for every optimizer, the interface's default included; bad
 * arguments are refused before anything runs; a refused round stops the block where it is and says
 * where; large ScInOL2 states (whose rounds touch their records first) give the same bits as small
 * ones.
 */
class RoundsTest {
  /** Rows of up to 6 entries over {@code d} coordinates, some empty, values of mixed sign. */
  private static SparseRows randomRows(ElementType t, int n, int d, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int[] start = new int[n + 1];
    int[] idx = new int[n * 6];
    double[] val = new double[n * 6];
    int k = 0;
    for (int row = 0; row < n; row++) {
      start[row] = k;
      int i = r.nextInt(3);
      while (i < d && k - start[row] < 6) {
        idx[k] = i;
        val[k++] = r.nextInt(5) == 0 ? 0 : r.nextGaussian() * 2;
        i += 1 + r.nextInt(3);
      }
    }
    start[n] = k;
    return SparseRows.of(
        start, java.util.Arrays.copyOf(idx, k), java.util.Arrays.copyOf(val, k), t);
  }

  private static int[] shuffledOrder(int n, long seed) {
    int[] order = new int[n];
    for (int i = 0; i < n; i++) order[i] = i;
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = n - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      int x = order[i];
      order[i] = order[j];
      order[j] = x;
    }
    return order;
  }

  static java.util.List<AllOptimizers.Named> optimizers() {
    return AllOptimizers.all();
  }

  @ParameterizedTest
  @MethodSource("optimizers")
  void aBlockIsItsRoundsOneByOne(AllOptimizers.Named named) {
    int d = 11, n = 40;
    for (ElementType t : ElementType.values()) {
      SparseRows rows = randomRows(t, n, d, 3);
      int[] order = shuffledOrder(n, 5);
      double[] y = new double[n];
      for (int q = 0; q < n; q++) y[q] = (order[q] % 3 == 0) ? -1 : 1;
      try (AbstractOptimizer block = named.create(d, t);
          AbstractOptimizer single = named.create(d, t);
          AbstractOptimizer viaDefault = named.create(d, t);
          AbstractOptimizer singleViaDefault = named.create(d, t)) {
        // The interface's defaults go through predictSparse and update, whose sum order may
        // differ from the fused body's: they are compared with themselves.
        LinearModelOptimizer plain = new Delegate(viaDefault);
        LinearModelOptimizer plainSingle = new Delegate(singleViaDefault);
        double[] yhat = new double[n];
        double[] yhatDefault = new double[n];
        // Two blocks, the second starting inside order, labels and yhat by position in the block.
        double[] losses = new double[n];
        double[] lossesDefault = new double[n];
        block.rounds(rows, order, 0, 17, y, Loss.LOGISTIC, yhat, losses);
        double[] y2 = java.util.Arrays.copyOfRange(y, 17, n);
        double[] yhat2 = new double[n - 17];
        // The second block without losses: the same rounds either way.
        block.rounds(rows, order, 17, n, y2, Loss.LOGISTIC, yhat2, null);
        System.arraycopy(yhat2, 0, yhat, 17, n - 17);
        plain.rounds(rows, order, 0, n, y, Loss.LOGISTIC, yhatDefault, lossesDefault);
        for (int q = 0; q < n; q++) {
          double one = single.round(rows, order[q], y[q], Loss.LOGISTIC);
          String what = named + " " + t + " round " + q;
          assertEquals(Double.doubleToRawLongBits(one), Double.doubleToRawLongBits(yhat[q]), what);
          if (q < 17) {
            assertEquals(
                Double.doubleToRawLongBits(Loss.LOGISTIC.value(y[q], one)),
                Double.doubleToRawLongBits(losses[q]),
                what + " loss");
          }
          double oneDefault = plainSingle.round(rows, order[q], y[q], Loss.LOGISTIC);
          assertEquals(
              Double.doubleToRawLongBits(oneDefault),
              Double.doubleToRawLongBits(yhatDefault[q]),
              what + " (default)");
          assertEquals(
              Double.doubleToRawLongBits(Loss.LOGISTIC.value(y[q], oneDefault)),
              Double.doubleToRawLongBits(lossesDefault[q]),
              what + " loss (default)");
        }
        StateSnapshot.of(single).assertSame(block, named + " " + t);
        StateSnapshot.of(singleViaDefault).assertSame(viaDefault, named + " " + t + " (default)");
      }
    }
  }

  /** The interface's default of the round with a loss slot: its plain round, and that loss. */
  @ParameterizedTest
  @MethodSource("optimizers")
  void theDefaultRoundWithALossSlotIsThePlainDefaultAndItsLoss(AllOptimizers.Named named) {
    int d = 11, n = 30;
    for (ElementType t : ElementType.values()) {
      SparseRows rows = randomRows(t, n, d, 13);
      try (AbstractOptimizer a = named.create(d, t);
          AbstractOptimizer b = named.create(d, t)) {
        LinearModelOptimizer plainA = new Delegate(a);
        LinearModelOptimizer plainB = new Delegate(b);
        double[] losses = new double[2];
        for (int r = 0; r < n; r++) {
          double y = r % 3 == 0 ? -1 : 1;
          MemorySegment is = rows.indexSlice(r), vs = rows.valueSlice(r);
          double ya = plainA.round(is, vs, rows.nnz(r), y, Loss.LOGISTIC);
          double yb = plainB.round(is, vs, rows.nnz(r), y, Loss.LOGISTIC, losses, 1);
          String what = named + " " + t + " row " + r;
          assertEquals(Double.doubleToRawLongBits(ya), Double.doubleToRawLongBits(yb), what);
          assertEquals(
              Double.doubleToRawLongBits(Loss.LOGISTIC.value(y, ya)),
              Double.doubleToRawLongBits(losses[1]),
              what + " loss");
        }
        StateSnapshot.of(a).assertSame(b, named + " " + t);
        assertThrows(
            IllegalArgumentException.class,
            () ->
                plainB.round(rows.indexSlice(0), rows.valueSlice(0), 1, 1, Loss.LOGISTIC, null, 0));
      }
    }
  }

  @Test
  void badArgumentsAreRefusedBeforeAnyRoundRuns() {
    SparseRows rows = randomRows(ElementType.FLOAT, 5, 8, 1);
    int[] order = {0, 1, 2, 3, 4};
    double[] y = {1, -1, 1, -1, 1};
    double[] yhat = new double[5];
    try (AbstractOptimizer o =
        new ScInOL2Optimizer(
            8, ElementType.FLOAT, ScInOLParams.defaults(), StateLayout.INTERLEAVED, null, null)) {
      o.round(rows, 0, 1, Loss.LOGISTIC);
      String what = "scinol2";
      StateSnapshot.assertRejected(
          o,
          IllegalArgumentException.class,
          () -> o.rounds(null, order, 0, 5, y, Loss.LOGISTIC, yhat, null),
          what);
      StateSnapshot.assertRejected(
          o,
          IllegalArgumentException.class,
          () -> o.rounds(rows, order, 0, 5, y, null, yhat, null),
          what);
      StateSnapshot.assertRejected(
          o,
          IllegalArgumentException.class,
          () -> o.rounds(rows, order, 3, 2, y, Loss.LOGISTIC, yhat, null),
          what);
      StateSnapshot.assertRejected(
          o,
          IllegalArgumentException.class,
          () -> o.rounds(rows, order, 0, 6, y, Loss.LOGISTIC, yhat, null),
          what);
      StateSnapshot.assertRejected(
          o,
          IllegalArgumentException.class,
          () -> o.rounds(rows, order, 0, 5, new double[4], Loss.LOGISTIC, yhat, null),
          what);
      StateSnapshot.assertRejected(
          o,
          IllegalArgumentException.class,
          () -> o.rounds(rows, order, 0, 5, y, Loss.LOGISTIC, yhat, new double[3]),
          what);
      IllegalArgumentException e =
          StateSnapshot.assertRejected(
              o,
              IllegalArgumentException.class,
              () -> o.rounds(rows, new int[] {0, 1, 9, 2}, 0, 4, y, Loss.LOGISTIC, yhat, null),
              what);
      assertTrue(e.getMessage().contains("order[2] = 9"), e.getMessage());
      SparseRows doubles = randomRows(ElementType.DOUBLE, 5, 8, 1);
      StateSnapshot.assertRejected(
          o,
          IllegalArgumentException.class,
          () -> o.rounds(doubles, order, 0, 5, y, Loss.LOGISTIC, yhat, null),
          what);
      SparseRows wide = randomRows(ElementType.FLOAT, 5, 30, 1);
      StateSnapshot.assertRejected(
          o,
          IllegalArgumentException.class,
          () -> o.rounds(wide, order, 0, 5, y, Loss.LOGISTIC, yhat, null),
          what);
      // An empty block is no rounds at all.
      StateSnapshot before = StateSnapshot.of(o);
      o.rounds(rows, order, 2, 2, new double[0], Loss.LOGISTIC, new double[0], null);
      before.assertSame(o, "empty block");
    }
  }

  /**
   * A refused label stops the block at its position; the rounds before it ran, nothing after it
   * did.
   */
  @Test
  void aRefusedRoundStopsTheBlockAndSaysWhere() {
    int n = 9;
    SparseRows rows = randomRows(ElementType.DOUBLE, n, 8, 2);
    int[] order = shuffledOrder(n, 4);
    double[] y = {1, -1, 1, 1, Double.NaN, -1, 1, 1, -1};
    try (AbstractOptimizer block =
            new ScInOL2Optimizer(
                8,
                ElementType.DOUBLE,
                ScInOLParams.defaults(),
                StateLayout.INTERLEAVED,
                null,
                null);
        AbstractOptimizer single =
            new ScInOL2Optimizer(
                8,
                ElementType.DOUBLE,
                ScInOLParams.defaults(),
                StateLayout.INTERLEAVED,
                null,
                null)) {
      double[] yhat = new double[n];
      java.util.Arrays.fill(yhat, 42);
      // Positions are indices into order: the block starts at 1, so label k is order[1 + k]'s.
      RefusedRoundException e =
          assertThrows(
              RefusedRoundException.class,
              () -> block.rounds(rows, order, 1, n, y, Loss.LOGISTIC, yhat, null));
      assertEquals(5, e.position());
      assertTrue(e.getMessage().contains("y"), e.getMessage());
      for (int q = 1; q < 5; q++) {
        assertEquals(
            Double.doubleToRawLongBits(single.round(rows, order[q], y[q - 1], Loss.LOGISTIC)),
            Double.doubleToRawLongBits(yhat[q - 1]),
            "round " + q);
      }
      for (int k = 4; k < n; k++) {
        assertEquals(42, yhat[k], "slot " + k + " of a round that did not run");
      }
      StateSnapshot.of(single).assertSame(block, "state after the refusal");
    }
  }

  /**
   * ScInOL2 over 2^17 coordinates (2 MiB of float state, over the size from which its rounds touch
   * their records before computing) against 8 coordinates: the same rows on the first 8 give the
   * same bits, in both layouts.
   */
  @Test
  void largeStatesTouchingTheirRecordsGiveTheSameBits() {
    int n = 60;
    for (StateLayout layout : StateLayout.values()) {
      for (ElementType t : ElementType.values()) {
        SparseRows rows = randomRows(t, n, 8, 6);
        int[] order = shuffledOrder(n, 8);
        double[] y = new double[n];
        for (int q = 0; q < n; q++) y[q] = q % 2 == 0 ? 1 : -1;
        TouchRace.forgetPicks();
        try (ScInOL2Optimizer big =
                new ScInOL2Optimizer(1 << 17, t, ScInOLParams.defaults(), layout, null, null);
            ScInOL2Optimizer small =
                new ScInOL2Optimizer(8, t, ScInOLParams.defaults(), layout, null, null)) {
          assertTrue(
              8L * (1 << 17) * t.bytes() / 2 > RoundTuning.TOUCH_MIN_BYTES,
              "the large state is over the touch size");
          assertEquals("racing", big.recordTouch(), "a large state races touch on and off");
          double[] a = new double[n], b = new double[n];
          // Blocks of 6: the race alternates the way block by block, so both ways run.
          for (int q = 0; q < n; q += 6) {
            double[] ya = Arrays.copyOfRange(y, q, q + 6), ha = new double[6];
            big.rounds(rows, order, q, q + 6, ya, Loss.LOGISTIC, ha, null);
            System.arraycopy(ha, 0, a, q, 6);
          }
          small.rounds(rows, order, 0, n, y, Loss.LOGISTIC, b, null);
          for (int q = 0; q < n; q++) {
            assertEquals(
                Double.doubleToRawLongBits(b[q]),
                Double.doubleToRawLongBits(a[q]),
                layout + " " + t + " round " + q);
          }
          for (String v : new String[] {"G", "S2", "M", "eta"}) {
            MemorySegment sb = big.state().get(v), ss = small.state().get(v);
            assertEquals(-1, ss.mismatch(sb.asSlice(0, ss.byteSize())), layout + " " + t + " " + v);
          }
        }
      }
    }
  }

  /** ScInOL2 in float over 2^17 coordinates: 2 MiB of interleaved state, over the touch size. */
  private static ScInOL2Optimizer largeScInOL2() {
    return new ScInOL2Optimizer(
        1 << 17, ElementType.FLOAT, ScInOLParams.defaults(), StateLayout.INTERLEAVED, null, null);
  }

  /** A large state's race on this machine ends in a pick after its warm and timed blocks. */
  @Test
  void aRaceOnALargeStateEndsInAPick() {
    int n = TouchRace.MIN_ROWS;
    SparseRows rows = randomRows(ElementType.FLOAT, n, 8, 7);
    int[] order = shuffledOrder(n, 9);
    double[] y = new double[n], yhat = new double[n];
    for (int q = 0; q < n; q++) y[q] = q % 3 == 0 ? 1 : -1;
    TouchRace.forgetPicks();
    try (ScInOL2Optimizer big = largeScInOL2()) {
      int blocks = TouchRace.WARM_BLOCKS + 2 * TouchRace.SAMPLES;
      for (int b = 0; b < blocks; b++) {
        assertEquals("racing", big.recordTouch(), "block " + b);
        big.rounds(rows, order, 0, n, y, Loss.LOGISTIC, yhat, null);
      }
      assertTrue(Set.of("on", "off").contains(big.recordTouch()), big.recordTouch());
      try (ScInOL2Optimizer next = largeScInOL2()) {
        assertEquals(big.recordTouch(), next.recordTouch(), "the next optimizer takes the pick");
      }
    }
  }

  /**
   * A {@link LinearModelOptimizer} that does not override {@code round} or {@code rounds}: their
   * defaults.
   */
  private record Delegate(AbstractOptimizer o) implements LinearModelOptimizer {
    @Override
    public String algorithm() {
      return o.algorithm();
    }

    @Override
    public int dimension() {
      return o.dimension();
    }

    @Override
    public ElementType elementType() {
      return o.elementType();
    }

    @Override
    public double predict(MemorySegment x) {
      return o.predict(x);
    }

    @Override
    public double predictSparse(MemorySegment i, MemorySegment v, int nnz) {
      return o.predictSparse(i, v, nnz);
    }

    @Override
    public void update(double g) {
      o.update(g);
    }

    @Override
    public void readWeights(MemorySegment into) {
      o.readWeights(into);
    }

    @Override
    public void reset() {
      o.reset();
    }

    @Override
    public void close() {
      o.close();
    }
  }
}
