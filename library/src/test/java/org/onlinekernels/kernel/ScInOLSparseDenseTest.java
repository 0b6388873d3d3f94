package org.onlinekernels.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.onlinekernels.kernel.ScInOLVectorScalarTest.get;
import static org.onlinekernels.kernel.ScInOLVectorScalarTest.slice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.rules.scinol1.ScInOL1Kernel;
import org.onlinekernels.rules.scinol2.ScInOL2Kernel;

/**
 * A dense instance with explicit zeros and the sparse instance listing only its non-zeros lead to
 * the same state bit for bit (ALGORITHMS.md: an explicit 0 means the same as an absent entry), on
 * both implementations. {@code yhat} is summed in a different order (and, for ScInOL1, a coordinate
 * may meet {@code expm1} in a vector lane on one side and in the scalar tail on the other), so it
 * is compared with the bounds derived in {@link ScInOLVectorScalarTest}.
 */
class ScInOLSparseDenseTest {
  @ParameterizedTest
  @CsvSource({
    "vector,FLOAT,37",
    "vector,DOUBLE,37",
    "scalar,FLOAT,37",
    "scalar,DOUBLE,37",
    "vector,FLOAT,1030",
    "vector,DOUBLE,1030",
    "scalar,FLOAT,1030",
    "scalar,DOUBLE,1030"
  })
  void sparseEqualsDense(String impl, ElementType t, int n) {
    KernelProvider p = impl.equals("vector") ? KernelProvider.vector() : KernelProvider.scalar();
    SplittableRandom r = new SplittableRandom(n + impl.hashCode());
    try (Arena arena = Arena.ofConfined()) {
      ScInOLVectorScalarTest.Data data = new ScInOLVectorScalarTest.Data(arena, n, t, 3, r);
      MemorySegment[][] a = new MemorySegment[2][4], b = new MemorySegment[2][4];
      MemorySegment[] wst = {slice(arena, n, t, 0), slice(arena, n, t, 0)};
      for (int k = 0; k < 2; k++) {
        for (int j = 0; j < 4; j++) {
          a[k][j] = slice(arena, n, t, 1);
          b[k][j] = slice(arena, n, t, 5);
        }
        ScInOLVectorScalarTest.fill(a[k][3], t, n, 2.0);
        ScInOLVectorScalarTest.fill(b[k][3], t, n, 2.0);
      }
      ScInOL1Kernel k1 = ScInOL1Kernel.of(p, t);
      ScInOL2Kernel k2 = ScInOL2Kernel.of(p, t);
      MemorySegment w = slice(arena, n, t, 0);
      for (int round = 1; round <= 200; round++) {
        data.next(r);
        // ScInOL1: a = dense, b = sparse.
        double y1d = k1.predictDense(a[0][0], a[0][1], a[0][2], a[0][3], data.x, n, round, 2.0);
        double y1s =
            k1.predictSparse(
                b[0][0], b[0][1], b[0][2], b[0][3], n, data.idx, data.val, data.nnz, round, 2.0);
        k1.weights(a[0][0], a[0][1], a[0][2], a[0][3], w, n);
        double tol = 0, abs = 0;
        for (int i = 0; i < n; i++) {
          double wi = get(w, t, i), xi = data.dense(i);
          tol += Math.abs(xi) * ScInOLVectorScalarTest.weightTolerance(t, wi);
          abs += Math.abs(xi * wi);
        }
        assertEquals(
            y1d,
            y1s,
            tol + ScInOLVectorScalarTest.sumTolerance(t, n, abs),
            "ScInOL1 yhat round " + round);
        // ScInOL2: a = dense recompute, b = sparse stored.
        double y2d = k2.predictDense(a[1][0], a[1][1], a[1][2], a[1][3], data.x, n);
        double y2s =
            k2.predictSparseStoring(
                b[1][0], b[1][1], b[1][2], b[1][3], n, data.idx, data.val, data.nnz, wst[1]);
        k2.weights(a[1][0], a[1][1], a[1][2], a[1][3], w, n);
        abs = 0;
        for (int i = 0; i < n; i++) abs += Math.abs(data.dense(i) * get(w, t, i));
        assertEquals(
            y2d,
            y2s,
            ScInOLVectorScalarTest.sumTolerance(t, n, abs),
            "ScInOL2 yhat round " + round);

        double g1 = ScInOLVectorScalarTest.logisticGradient(data.y, y1d);
        double g2 = ScInOLVectorScalarTest.logisticGradient(data.y, y2d);
        k1.updateDense(a[0][0], a[0][1], data.x, n, g1);
        k1.updateSparse(b[0][0], b[0][1], n, data.idx, data.val, data.nnz, g1);
        k2.updateDense(a[1][0], a[1][1], a[1][2], a[1][3], data.x, n, g2);
        k2.updateSparseStored(
            b[1][0], b[1][1], b[1][3], wst[1], n, data.idx, data.val, data.nnz, g2);
        ScInOLVectorScalarTest.assertStateEqual(a[0], b[0], t, n, "ScInOL1 round " + round);
        ScInOLVectorScalarTest.assertStateEqual(a[1], b[1], t, n, "ScInOL2 round " + round);
      }
    }
  }
}
