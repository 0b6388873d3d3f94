package org.onlinekernels.kernel;

import static org.onlinekernels.kernel.KernelTestSupport.assertBitEqual;
import static org.onlinekernels.kernel.KernelTestSupport.set;
import static org.onlinekernels.kernel.KernelTestSupport.slice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.rules.globaladagrad.GlobalAdaGradKernel;

/** Global-rate AdaGrad step: vector == scalar and sparse == dense, bit for bit, every round. */
class GlobalAdaGradVectorScalarTest {
  static List<Arguments> cases() {
    return KernelTestSupport.cases();
  }

  @ParameterizedTest
  @MethodSource("cases")
  void fourWaysBitIdentical(ElementType t, int n, int off) {
    try (Arena a = Arena.ofConfined()) {
      KernelTestSupport.Stream st = new KernelTestSupport.Stream(a, t, n, off, 7L * n + off);
      SplittableRandom r = st.random();
      GlobalAdaGradKernel vec = GlobalAdaGradKernel.of(KernelProvider.vector(), t),
          sca = GlobalAdaGradKernel.of(KernelProvider.scalar(), t);
      MemorySegment[] w = new MemorySegment[4];
      for (int k = 0; k < 4; k++) w[k] = slice(a, t, n, off);
      MemorySegment lo = slice(a, t, n, off), hi = slice(a, t, n, off);
      for (int i = 0; i < n; i++) {
        set(lo, t, i, -Math.scalb(1 + r.nextDouble(), r.nextInt(-5, 6)));
        set(
            hi,
            t,
            i,
            i % 5 == 0
                ? Double.POSITIVE_INFINITY
                : Math.scalb(1 + r.nextDouble(), r.nextInt(-5, 6)));
      }
      boolean boxed = off % 2 == 1; // one box per run, see AdaptiveOgdVectorScalarTest
      double sum = 0;
      for (int round = 0; round < 300; round++) {
        st.next(round % 5 == 4 ? 0.02 : 0.6);
        double scale = round % 3 == 0 ? 1.0 : r.nextGaussian();
        double normSq = 0;
        for (int i = 0; i < n; i++) {
          double g = scale * KernelTestSupport.get(st.x, t, i);
          normSq += g * g;
        }
        sum += normSq;
        if (sum == 0) continue;
        double eta = 0.6 * Math.sqrt(n) / Math.sqrt(2 * sum);
        if (boxed) {
          vec.updateDensePerCoordinate(w[0], lo, hi, st.x, n, scale, eta);
          sca.updateDensePerCoordinate(w[1], lo, hi, st.x, n, scale, eta);
          vec.updateSparsePerCoordinate(w[2], lo, hi, n, st.idx, st.val, st.nnz, scale, eta);
          sca.updateSparsePerCoordinate(w[3], lo, hi, n, st.idx, st.val, st.nnz, scale, eta);
        } else {
          vec.updateDense(w[0], st.x, n, scale, eta, -1, 2);
          sca.updateDense(w[1], st.x, n, scale, eta, -1, 2);
          vec.updateSparse(w[2], n, st.idx, st.val, st.nnz, scale, eta, -1, 2);
          sca.updateSparse(w[3], n, st.idx, st.val, st.nnz, scale, eta, -1, 2);
        }
        assertBitEqual("vector dense w, round " + round, w[1], w[0], t, n);
        assertBitEqual("vector sparse w, round " + round, w[1], w[2], t, n);
        assertBitEqual("scalar sparse w, round " + round, w[1], w[3], t, n);
      }
    }
  }
}
