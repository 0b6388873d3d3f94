package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.loss.Loss;

/**
 * Every way the gathered rounds load and store records on heap-backed interleaved state ({@code
 * onlinekernels.rounds.gather}: the segment entry by entry, the array behind it, the vector unit's
 * gathers, and gathers with scatters) gives the bits of the segment way, for every rule with an
 * interleaved layout, float and double, on the vector and on the scalar provider: every {@code
 * yhat}, loss and state element after every block. The rows are long enough for whole vectors and
 * their tails (1 to 70 entries, coordinates drawn from a small model so that rows share them), in
 * blocks of rounds and in rounds on the caller's own segments. (Rows never name a coordinate twice:
 * {@link SparseRows} and every sparse entry point refuse indices that are not strictly increasing,
 * trusted input included.)
 */
@Tag("long") // 4 optimizers per interleaved rule and type, about 7 s
class GatherModesBitTest {
  private static final String PROPERTY = "onlinekernels.rounds.gather";
  private static final String[] MODES = {"segment", "array", "hardware", "scatter"};
  private static final int D = 512;
  private static final int ROWS = 96;
  private static final int[] LENGTHS = {1, 3, 7, 8, 15, 16, 17, 31, 33, 40, 64, 70};

  @Test
  void everyGatherModeGivesTheSegmentBits() {
    checkEveryMode(KernelProvider.vector());
  }

  /** The scalar kernels' rounds load through the index map too (by plain loops in every mode). */
  @Test
  void everyGatherModeGivesTheSegmentBitsOnTheScalarKernels() {
    checkEveryMode(KernelProvider.scalar());
  }

  private static void checkEveryMode(KernelProvider vector) {
    int checked = 0;
    for (AllOptimizers.Named n : AllOptimizers.all()) {
      if (!n.name().contains("interleaved")) {
        continue;
      }
      for (ElementType t : ElementType.values()) {
        AbstractOptimizer[] o = new AbstractOptimizer[MODES.length];
        try {
          for (int k = 0; k < MODES.length; k++) {
            System.setProperty(PROPERTY, MODES[k]);
            try {
              o[k] = n.factory().create(D, t, null, vector);
            } finally {
              System.clearProperty(PROPERTY);
            }
          }
          compare(n + " " + t, o, t);
          checked++;
        } finally {
          for (AbstractOptimizer x : o) {
            if (x != null) {
              x.close();
            }
          }
        }
      }
    }
    assertTrue(checked >= 8, "interleaved configurations checked: " + checked);
  }

  private static void compare(String what, AbstractOptimizer[] o, ElementType t) {
    SplittableRandom r = new SplittableRandom(38);
    int[] start = new int[ROWS + 1];
    int[][] rowIdx = new int[ROWS][];
    for (int q = 0; q < ROWS; q++) {
      int nnz = LENGTHS[q % LENGTHS.length];
      rowIdx[q] = r.ints(0, D).distinct().limit(nnz).sorted().toArray();
      start[q + 1] = start[q] + nnz;
    }
    int[] idx = new int[start[ROWS]];
    double[] val = new double[start[ROWS]];
    for (int q = 0; q < ROWS; q++) {
      for (int j = 0; j < rowIdx[q].length; j++) {
        idx[start[q] + j] = rowIdx[q][j];
        val[start[q] + j] = (r.nextBoolean() ? 1 : -1) * 0.25 * (1 + r.nextInt(8));
      }
    }
    SparseRows rows = SparseRows.of(start, idx, val, t);
    int[] order = new int[ROWS];
    double[] y = new double[ROWS];
    for (int q = 0; q < ROWS; q++) {
      order[q] = q;
      y[q] = r.nextBoolean() ? 1 : -1;
    }
    for (int pass = 0; pass < 3; pass++) {
      for (int q0 = 0; q0 < ROWS; q0 += 32) {
        double[][] yhat = new double[o.length][32];
        double[][] loss = new double[o.length][32];
        for (int k = 0; k < o.length; k++) {
          o[k].rounds(rows, order, q0, q0 + 32, y, Loss.LOGISTIC, yhat[k], loss[k]);
        }
        for (int k = 1; k < o.length; k++) {
          String at = what + ", " + MODES[k] + ", pass " + pass + ", rows from " + q0;
          assertEquals(bits(yhat[0]), bits(yhat[k]), at + ": yhat");
          assertEquals(bits(loss[0]), bits(loss[k]), at + ": losses");
          StateSnapshot.of(o[0]).assertSame(o[k], at);
        }
      }
      // The caller's own rows (their copy in the optimizer's arrays).
      for (int q = 0; q < 24; q++) {
        int nnz = LENGTHS[q % LENGTHS.length];
        int[] ix = r.ints(0, D / 4).distinct().limit(nnz).sorted().toArray();
        double[] vx = r.doubles(nnz, 0.25, 2).toArray();
        double yq = r.nextBoolean() ? 1 : -1;
        double[] yh = new double[o.length];
        for (int k = 0; k < o.length; k++) {
          yh[k] = o[k].round(MemorySegment.ofArray(ix), values(vx, t), nnz, yq, Loss.LOGISTIC);
        }
        for (int k = 1; k < o.length; k++) {
          String at = what + ", " + MODES[k] + ", pass " + pass + ", own row " + q;
          assertEquals(Double.doubleToRawLongBits(yh[0]), Double.doubleToRawLongBits(yh[k]), at);
          StateSnapshot.of(o[0]).assertSame(o[k], at);
        }
      }
    }
  }

  private static MemorySegment values(double[] v, ElementType t) {
    if (t == ElementType.DOUBLE) {
      return MemorySegment.ofArray(v.clone());
    }
    float[] f = new float[v.length];
    for (int j = 0; j < v.length; j++) {
      f[j] = (float) v[j];
    }
    return MemorySegment.ofArray(f);
  }

  private static String bits(double[] a) {
    return Arrays.toString(Arrays.stream(a).mapToLong(Double::doubleToRawLongBits).toArray());
  }
}
