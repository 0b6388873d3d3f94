package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.checkpoint.Checkpoint;
import org.onlinekernels.optimizer.checkpoint.CheckpointException;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.adagrad.AdaGradOptimizer;
import org.onlinekernels.rules.scinol2.ScInOL2;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/**
 * The fused round's entry: {@link SparseRows} refuses bad rows once, naming row and entry; {@code
 * round} refuses what the rows cannot vouch for, and a refused round, the gradient included, leaves
 * the state bit-identical; interleaved checkpoints record their layout.
 */
class RoundTest {
  @TempDir Path dir;

  private static SparseRows rows(ElementType t, int[] start, int[] idx, double[] val) {
    return SparseRows.of(start, idx, val, t);
  }

  @Test
  void rowsAreValidatedOnceWithTheRowAndEntryNamed() {
    ElementType f = ElementType.FLOAT;
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> rows(f, new int[] {0, 2, 3}, new int[] {1, 1, 0}, new double[] {1, 2, 3}));
    assertTrue(
        e.getMessage().contains("row 0, entry 1") && e.getMessage().contains("strictly increasing"),
        e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> rows(f, new int[] {0, 1, 2}, new int[] {1, -4}, new double[] {1, 2}));
    assertTrue(
        e.getMessage().contains("row 1, entry 0") && e.getMessage().contains("negative"),
        e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> rows(f, new int[] {0, 2}, new int[] {0, 5}, new double[] {1, Double.NaN}));
    assertTrue(
        e.getMessage().contains("row 0, entry 1 (index 5)")
            && e.getMessage().contains("not finite"),
        e.getMessage());
    // Finite as a double, infinite as a float: refused for float rows only.
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> rows(f, new int[] {0, 1}, new int[] {3}, new double[] {1e39}));
    assertTrue(e.getMessage().contains("not finite as float"), e.getMessage());
    assertEquals(
        1, rows(ElementType.DOUBLE, new int[] {0, 1}, new int[] {3}, new double[] {1e39}).size());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> rows(f, new int[] {0, 2, 1}, new int[] {0, 1}, new double[] {1, 1}));
    assertTrue(e.getMessage().contains("must not decrease"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> rows(f, new int[] {0, 3}, new int[] {0, 1}, new double[] {1, 1}));
    assertTrue(e.getMessage().contains("indices has 2"), e.getMessage());
  }

  @Test
  void rowsKeepWhatTheRoundNeeds() {
    SparseRows r =
        rows(
            ElementType.FLOAT,
            new int[] {2, 4, 4, 7},
            new int[] {9, 9, 0, 3, 1, 2, 9, 8},
            new double[] {0, 0, -0.5, 2, 0.25, -3, 0, 0});
    assertEquals(3, r.size());
    assertEquals(2, r.nnz(0));
    assertEquals(0, r.nnz(1));
    assertEquals(10, r.dimension());
    assertEquals(3, r.maxNnz());
    assertEquals(2.0, r.maxAbs(0));
    assertEquals(0.0, r.maxAbs(1));
    assertEquals(3.0, r.maxAbs(2));
    assertEquals(3, r.index(0, 1));
    assertEquals(-3.0, r.value(2, 1));
    assertEquals(9, r.index(2, 2));
  }

  @ParameterizedTest
  @EnumSource(StateLayout.class)
  void refusedRoundsLeaveTheStateAlone(StateLayout layout) {
    for (ElementType t : ElementType.values()) {
      try (ScInOL2Optimizer s =
              new ScInOL2Optimizer(4, t, ScInOLParams.defaults(), layout, null, null);
          AdaGradOptimizer a =
              new AdaGradOptimizer(4, t, AdaGradParams.eta(1), layout, null, null)) {
        for (AbstractOptimizer o : new AbstractOptimizer[] {s, a}) {
          String what = o.algorithm() + " " + t + " " + layout;
          SparseRows ok = rows(t, new int[] {0, 2}, new int[] {0, 3}, new double[] {1, -1});
          o.round(ok, 0, 1, Loss.LOGISTIC);
          SparseRows other =
              rows(
                  t == ElementType.FLOAT ? ElementType.DOUBLE : ElementType.FLOAT,
                  new int[] {0, 1},
                  new int[] {0},
                  new double[] {1});
          StateSnapshot.assertRejected(
              o, IllegalArgumentException.class, () -> o.round(other, 0, 1, Loss.LOGISTIC), what);
          SparseRows wide = rows(t, new int[] {0, 1}, new int[] {4}, new double[] {1});
          StateSnapshot.assertRejected(
              o, IllegalArgumentException.class, () -> o.round(wide, 0, 1, Loss.LOGISTIC), what);
          StateSnapshot.assertRejected(
              o, IllegalArgumentException.class, () -> o.round(ok, 1, 1, Loss.LOGISTIC), what);
          StateSnapshot.assertRejected(
              o,
              IllegalArgumentException.class,
              () -> o.round(ok, 0, Double.NaN, Loss.LOGISTIC),
              what);
          StateSnapshot.assertRejected(
              o, IllegalArgumentException.class, () -> o.round(ok, 0, 1, null), what);
          // Just over InputPolicy.magnitudeLimit: 2^40 for float, 2^480 for double.
          SparseRows huge =
              rows(
                  t,
                  new int[] {0, 1},
                  new int[] {1},
                  new double[] {t == ElementType.FLOAT ? 0x1p41 : 0x1p481});
          IllegalArgumentException e =
              StateSnapshot.assertRejected(
                  o,
                  IllegalArgumentException.class,
                  () -> o.round(huge, 0, 1, Loss.LOGISTIC),
                  what);
          assertTrue(
              e.getMessage().contains("row 0") && e.getMessage().contains("magnitude limit"),
              e.getMessage());
        }
      }
    }
  }

  /**
   * A prediction that overflows gives the squared loss an infinite gradient: the round refuses it
   * after its predict half, which wrote nothing, so not even ScInOL2's {@code M} moved.
   */
  @ParameterizedTest
  @EnumSource(StateLayout.class)
  void aGradientRefusedAfterThePredictLeavesTheStateAlone(StateLayout layout) {
    try (ScInOL2Optimizer s =
            new ScInOL2Optimizer(
                2, ElementType.FLOAT, ScInOLParams.defaults(), layout, null, null);
        AdaGradOptimizer a =
            new AdaGradOptimizer(2, ElementType.FLOAT, AdaGradParams.eta(1), layout, null, null)) {
      double[] big = new double[2];
      Arrays.fill(big, 3e38);
      // The wealth at its cap (a larger one breaks the state invariant, issue 12): |theta| = G / s
      // >= 1, so w = eta / (2 s) = 2^90 / 2e-3 and yhat = 2 * 1e-3 * w, about 1.2e27: the squared
      // loss's g is beyond the float input limit 2^40 (before weights saturated, yhat was +inf).
      s.writeState("eta", new double[] {ScInOL2.FLOAT_WEALTH_CAP, ScInOL2.FLOAT_WEALTH_CAP});
      s.writeState("G", new double[] {1, 1});
      a.writeState("w", big);
      SparseRows r =
          rows(ElementType.FLOAT, new int[] {0, 2}, new int[] {0, 1}, new double[] {1e-3, 1e-3});
      SparseRows r2 =
          rows(ElementType.FLOAT, new int[] {0, 2}, new int[] {0, 1}, new double[] {10, 10});
      IllegalArgumentException e =
          StateSnapshot.assertRejected(
              s,
              IllegalArgumentException.class,
              () -> s.round(r, 0, 1, Loss.SQUARED),
              "scinol2 " + layout);
      assertTrue(e.getMessage().contains("g"), e.getMessage());
      StateSnapshot.assertRejected(
          a,
          IllegalArgumentException.class,
          () -> a.round(r2, 0, 1, Loss.SQUARED),
          "adagrad " + layout);
    }
  }

  @Test
  void interleavedCheckpointsRecordTheirLayout() throws IOException {
    SparseRows r =
        rows(
            ElementType.FLOAT, new int[] {0, 2, 3}, new int[] {0, 3, 2}, new double[] {1, -2, 0.5});
    Path file = dir.resolve("s.ckpt");
    try (ScInOL2Optimizer a =
            new ScInOL2Optimizer(
                5,
                ElementType.FLOAT,
                ScInOLParams.defaults(),
                StateLayout.INTERLEAVED,
                null,
                null);
        ScInOL2Optimizer b =
            new ScInOL2Optimizer(
                5,
                ElementType.FLOAT,
                ScInOLParams.defaults(),
                StateLayout.INTERLEAVED,
                null,
                null);
        ScInOL2Optimizer planar =
            new ScInOL2Optimizer(
                5, ElementType.FLOAT, ScInOLParams.defaults(), StateLayout.PLANAR, null, null)) {
      a.round(r, 0, 1, Loss.LOGISTIC);
      a.round(r, 1, -1, Loss.LOGISTIC);
      Checkpoint.save(a, file);
      Checkpoint.load(file, b);
      StateSnapshot.of(a).assertSame(b, "interleaved checkpoint round trip");
      assertEquals(
          Double.doubleToRawLongBits(a.round(r, 0, 1, Loss.LOGISTIC)),
          Double.doubleToRawLongBits(b.round(r, 0, 1, Loss.LOGISTIC)));
      CheckpointException e =
          assertThrows(CheckpointException.class, () -> Checkpoint.load(file, planar));
      assertTrue(e.getMessage().contains("interleaved"), e.getMessage());
    }
  }
}
