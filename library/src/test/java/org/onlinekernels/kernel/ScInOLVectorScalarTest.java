package org.onlinekernels.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.rules.scinol1.ScInOL1Kernel;
import org.onlinekernels.rules.scinol2.ScInOL2Kernel;

/**
 * Vector ScInOL kernels against the scalar fallback, over lengths around the vector width and odd
 * byte offsets, dense and sparse rounds interleaved, with logistic-loss gradients and features
 * whose scales span 2^-20..2^20.
 *
 * <p>Both kernels get the same {@code g} each round (from the scalar kernel's {@code yhat}), and
 * since issue 11 they agree bit for bit on everything: state, weights (one {@code expm1}
 * polynomial) and {@code yhat} (one summation order). The tolerances below serve the sparse against
 * dense comparison ({@code ScInOLSparseDenseTest}), whose sums run in different orders.
 */
class ScInOLVectorScalarTest {

  @ParameterizedTest
  @CsvSource({
    "FLOAT,1,0",
    "FLOAT,7,3",
    "FLOAT,8,0",
    "FLOAT,9,1",
    "FLOAT,15,2",
    "FLOAT,16,5",
    "FLOAT,17,7",
    "FLOAT,31,4",
    "FLOAT,33,6",
    "FLOAT,1023,7",
    "FLOAT,4097,1",
    "DOUBLE,1,0",
    "DOUBLE,7,3",
    "DOUBLE,8,1",
    "DOUBLE,9,1",
    "DOUBLE,15,2",
    "DOUBLE,16,5",
    "DOUBLE,17,7",
    "DOUBLE,31,4",
    "DOUBLE,33,6",
    "DOUBLE,1023,7",
    "DOUBLE,4097,3"
  })
  void scinol1VectorMatchesScalar(ElementType t, int n, int off) {
    SplittableRandom r = new SplittableRandom(n * 131L + off);
    int rounds = n > 1000 ? 120 : 400;
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment[][] st = new MemorySegment[2][4]; // G, S2, M, beta per implementation
      for (int k = 0; k < 2; k++) {
        for (int b = 0; b < 4; b++) st[k][b] = slice(arena, n, t, off);
        fill(st[k][3], t, n, 1.0);
      }
      Data data = new Data(arena, n, t, off, r);
      ScInOL1Kernel[] ker = {
        ScInOL1Kernel.of(KernelProvider.vector(), t), ScInOL1Kernel.of(KernelProvider.scalar(), t)
      };
      MemorySegment wv = slice(arena, n, t, off), ws = slice(arena, n, t, off);
      double eps = 1.0;
      for (int round = 1; round <= rounds; round++) {
        data.next(r);
        boolean sparse = round % 3 == 0;
        double[] yhat = new double[2];
        for (int k = 0; k < 2; k++) {
          yhat[k] =
              sparse
                  ? ker[k].predictSparse(
                      st[k][0], st[k][1], st[k][2], st[k][3], n, data.idx, data.val, data.nnz,
                      round, eps)
                  : ker[k].predictDense(
                      st[k][0], st[k][1], st[k][2], st[k][3], data.x, n, round, eps);
        }
        assertStateEqual(st[0], st[1], t, n, "round " + round);
        // Weights of this round (M, beta already updated, G, S2 not yet): read-out equals predict's
        // w.
        ker[0].weights(st[0][0], st[0][1], st[0][2], st[0][3], wv, n);
        ker[1].weights(st[1][0], st[1][1], st[1][2], st[1][3], ws, n);
        // One expm1 polynomial and one summation order: the same bits (issue 11).
        for (int i = 0; i < n; i++) {
          assertEquals(
              Double.valueOf(get(ws, t, i)),
              Double.valueOf(get(wv, t, i)),
              "w[" + i + "] round " + round);
        }
        assertEquals(
            Double.doubleToRawLongBits(yhat[1]),
            Double.doubleToRawLongBits(yhat[0]),
            "yhat round " + round);
        double g = logisticGradient(data.y, yhat[1]);
        for (int k = 0; k < 2; k++) {
          if (sparse) ker[k].updateSparse(st[k][0], st[k][1], n, data.idx, data.val, data.nnz, g);
          else ker[k].updateDense(st[k][0], st[k][1], data.x, n, g);
        }
        assertStateEqual(st[0], st[1], t, n, "after update, round " + round);
      }
    }
  }

  @ParameterizedTest
  @CsvSource({
    "FLOAT,1,0",
    "FLOAT,7,3",
    "FLOAT,8,0",
    "FLOAT,9,1",
    "FLOAT,15,2",
    "FLOAT,16,5",
    "FLOAT,17,7",
    "FLOAT,31,4",
    "FLOAT,33,6",
    "FLOAT,1023,7",
    "FLOAT,4097,1",
    "DOUBLE,1,0",
    "DOUBLE,7,3",
    "DOUBLE,8,1",
    "DOUBLE,9,1",
    "DOUBLE,15,2",
    "DOUBLE,16,5",
    "DOUBLE,17,7",
    "DOUBLE,31,4",
    "DOUBLE,33,6",
    "DOUBLE,1023,7",
    "DOUBLE,4097,3"
  })
  void scinol2VectorMatchesScalarAndStoredMatchesRecompute(ElementType t, int n, int off) {
    SplittableRandom r = new SplittableRandom(n * 977L + off);
    int rounds = n > 1000 ? 120 : 400;
    try (Arena arena = Arena.ofConfined()) {
      // 0: vector recompute, 1: scalar recompute, 2: vector stored, 3: scalar stored
      MemorySegment[][] st = new MemorySegment[4][4]; // G, S2, M, eta
      MemorySegment[] wst = new MemorySegment[4];
      for (int k = 0; k < 4; k++) {
        for (int b = 0; b < 4; b++) st[k][b] = slice(arena, n, t, off);
        fill(st[k][3], t, n, 0.5);
        wst[k] = slice(arena, n, t, off);
      }
      Data data = new Data(arena, n, t, off, r);
      ScInOL2Kernel v = ScInOL2Kernel.of(KernelProvider.vector(), t),
          s = ScInOL2Kernel.of(KernelProvider.scalar(), t);
      ScInOL2Kernel[] ker = {v, s, v, s};
      MemorySegment wv = slice(arena, n, t, off), ws = slice(arena, n, t, off);
      for (int round = 1; round <= rounds; round++) {
        data.next(r);
        boolean sparse = round % 3 == 0;
        double[] yhat = new double[4];
        for (int k = 0; k < 4; k++) {
          MemorySegment[] q = st[k];
          boolean stored = k >= 2;
          yhat[k] =
              sparse
                  ? (stored
                      ? ker[k].predictSparseStoring(
                          q[0], q[1], q[2], q[3], n, data.idx, data.val, data.nnz, wst[k])
                      : ker[k].predictSparse(
                          q[0], q[1], q[2], q[3], n, data.idx, data.val, data.nnz))
                  : (stored
                      ? ker[k].predictDenseStoring(q[0], q[1], q[2], q[3], data.x, n, wst[k])
                      : ker[k].predictDense(q[0], q[1], q[2], q[3], data.x, n));
        }
        assertEquals(
            Double.valueOf(yhat[0]), Double.valueOf(yhat[2]), "vector yhat, recompute vs stored");
        assertEquals(
            Double.valueOf(yhat[1]), Double.valueOf(yhat[3]), "scalar yhat, recompute vs stored");
        v.weights(st[0][0], st[0][1], st[0][2], st[0][3], wv, n);
        s.weights(st[1][0], st[1][1], st[1][2], st[1][3], ws, n);
        for (int i = 0; i < n; i++) {
          assertEquals(
              Double.valueOf(get(ws, t, i)),
              Double.valueOf(get(wv, t, i)),
              "w[" + i + "] round " + round);
        }
        // The stored weights are the read-out weights of the round (dense: at i, sparse: at entry
        // j).
        for (int j = 0; j < (sparse ? data.nnz : n); j++) {
          int i = sparse ? data.idx.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, j) : j;
          assertEquals(
              Double.valueOf(get(ws, t, i)), Double.valueOf(get(wst[2], t, j)), "stored w vector");
          assertEquals(
              Double.valueOf(get(ws, t, i)), Double.valueOf(get(wst[3], t, j)), "stored w scalar");
        }
        assertEquals(
            Double.doubleToRawLongBits(yhat[1]),
            Double.doubleToRawLongBits(yhat[0]),
            "yhat round " + round);
        double g = logisticGradient(data.y, yhat[1]);
        for (int k = 0; k < 4; k++) {
          MemorySegment[] q = st[k];
          if (k >= 2) {
            if (sparse)
              ker[k].updateSparseStored(
                  q[0], q[1], q[3], wst[k], n, data.idx, data.val, data.nnz, g);
            else ker[k].updateDenseStored(q[0], q[1], q[3], wst[k], data.x, n, g);
          } else {
            if (sparse)
              ker[k].updateSparse(q[0], q[1], q[2], q[3], n, data.idx, data.val, data.nnz, g);
            else ker[k].updateDense(q[0], q[1], q[2], q[3], data.x, n, g);
          }
        }
        for (int k = 1; k < 4; k++) {
          assertStateEqual(st[0], st[k], t, n, "variant " + k + " round " + round);
        }
      }
    }
  }

  /**
   * Bound on the difference of two ScInOL1 weights whose inputs (G, S2, M, beta) are bit-identical,
   * from before the kernels shared one expm1 (kept by ScInOLSparseDenseTest). Both evaluate {@code
   * ((beta sgn) e) / (2 s)} with the same operations except {@code e = expm1(|theta|/2)}: the
   * vector kernel's own expm1 is within 2 ulps of the scalar's Math.expm1 (for float computed in
   * double and rounded), which {@link VectorExpm1Test} checks, so {@code |e_v - e_s| <= 2 ulp(e) <=
   * 2 u' |e|} with {@code u' = 2^-23} (float) or {@code 2^-52} (double). {@code beta * sgn} is the
   * same on both sides; multiplying by {@code e} and dividing by {@code 2s} each add at most one
   * rounding per side, i.e. at most {@code 2 u'} relative between the sides. Altogether {@code |dw|
   * <= |w| (2 + 4) u' (1 + O(u'))}; we allow {@code 8 u' |w|}, plus two of the smallest subnormals
   * in case {@code w} is subnormal (where ulps stop being relative). Because expm1 has no
   * cancellation near 0 (unlike {@code exp - 1}), the bound is relative to {@code w} itself. {@code
   * s == 0} gives {@code w = 0} on both sides.
   */
  static double weightTolerance(ElementType t, double w) {
    double u = t == ElementType.FLOAT ? 0x1p-23 : 0x1p-52;
    double tiny = t == ElementType.FLOAT ? Float.MIN_VALUE : Double.MIN_VALUE;
    return 8 * u * Math.abs(w) + 2 * tiny;
  }

  /**
   * Bound on the difference between two evaluations of {@code sum x_i w_i} in different orders
   * (vector: lane-wise partial sums with FMA, scalar: four interleaved sums): each is within {@code
   * gamma_k sum |x_i w_i|} of the exact sum, {@code gamma_k ~ k u} with {@code k <= n + 4} the
   * longest chain of roundings (product plus additions) and {@code u = 2^-24 / 2^-53}; two of them
   * differ by at most twice that. Computed in double from float weights, the reference sum {@code
   * absSum} is exact enough.
   */
  static double sumTolerance(ElementType t, int n, double absSum) {
    double u = t == ElementType.FLOAT ? 0x1p-24 : 0x1p-53;
    return 2 * (n + 4) * u * absSum * 1.01;
  }

  /** d/dyhat of ln(1 + exp(-y yhat)) = -y / (1 + exp(y yhat)). */
  static double logisticGradient(double y, double yhat) {
    return -y / (1 + Math.exp(y * yhat));
  }

  static void assertStateEqual(
      MemorySegment[] a, MemorySegment[] b, ElementType t, int n, String where) {
    String[] names = {"G", "S2", "M", "beta/eta"};
    for (int k = 0; k < a.length; k++) {
      for (int i = 0; i < n; i++) {
        assertEquals(
            Double.valueOf(get(b[k], t, i)),
            Double.valueOf(get(a[k], t, i)),
            names[k] + "[" + i + "] " + where);
      }
    }
  }

  /**
   * Random rounds: feature i has a fixed scale 2^k_i, k_i in [-20, 20], times a Gaussian, and is 0
   * with probability 1/4 (an explicit zero in the dense input, absent from the sparse one).
   */
  static final class Data {
    final ElementType t;
    final int n;
    final MemorySegment x, idx, val;
    final double[] scale;
    int nnz;
    double y;

    Data(Arena arena, int n, ElementType t, int off, SplittableRandom r) {
      this.t = t;
      this.n = n;
      x = slice(arena, n, t, off);
      idx = arena.allocate(4L * n + off).asSlice(off);
      val = slice(arena, n, t, off);
      scale = new double[n];
      for (int i = 0; i < n; i++) scale[i] = Math.scalb(1.0, r.nextInt(-20, 21));
    }

    void next(SplittableRandom r) {
      nnz = 0;
      for (int i = 0; i < n; i++) {
        double v = r.nextInt(4) == 0 ? 0.0 : r.nextGaussian() * scale[i];
        set(x, t, i, v);
        if (v != 0) {
          idx.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, nnz, i);
          set(val, t, nnz++, v);
        }
      }
      y = r.nextBoolean() ? 1 : -1;
    }

    double dense(int i) {
      return get(x, t, i);
    }
  }

  static MemorySegment slice(Arena arena, int n, ElementType t, int off) {
    return arena.allocate((long) n * t.bytes() + off).asSlice(off);
  }

  static void fill(MemorySegment m, ElementType t, int n, double v) {
    for (int i = 0; i < n; i++) set(m, t, i, v);
  }

  static void set(MemorySegment m, ElementType t, int i, double v) {
    if (t == ElementType.FLOAT) m.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) v);
    else m.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, v);
  }

  static double get(MemorySegment m, ElementType t, int i) {
    return t == ElementType.FLOAT
        ? m.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i)
        : m.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
  }
}
