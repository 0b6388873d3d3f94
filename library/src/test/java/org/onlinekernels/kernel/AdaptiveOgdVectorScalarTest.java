package org.onlinekernels.kernel;

import static org.onlinekernels.kernel.KernelTestSupport.assertBitEqual;
import static org.onlinekernels.kernel.KernelTestSupport.get;
import static org.onlinekernels.kernel.KernelTestSupport.set;
import static org.onlinekernels.kernel.KernelTestSupport.slice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.rules.aogd.AdaptiveOgdBallKernel;
import org.onlinekernels.rules.aogd.AdaptiveOgdKernel;

/**
 * Vector Adaptive OGD performs the scalar fallback's operations lane for lane, and the sparse
 * passes equal the dense ones over explicit zeros: four buffers (vector/scalar x dense/sparse) stay
 * bit-identical over hundreds of rounds of adversarial gradients.
 */
class AdaptiveOgdVectorScalarTest {
  static List<Arguments> cases() {
    return KernelTestSupport.cases();
  }

  private static double scale(SplittableRandom r, int round) {
    // Gradient form (exactly 1) on some rounds, linear-model scalars of mixed sign otherwise.
    return round % 3 == 0 ? 1.0 : r.nextGaussian() * Math.scalb(1.0, r.nextInt(-4, 5));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void ballFourWaysBitIdentical(ElementType t, int n, int off) {
    try (Arena a = Arena.ofConfined()) {
      KernelTestSupport.Stream st = new KernelTestSupport.Stream(a, t, n, off, 17L * n + off);
      SplittableRandom r = st.random();
      AdaptiveOgdBallKernel vec = AdaptiveOgdBallKernel.of(KernelProvider.vector(), t),
          sca = AdaptiveOgdBallKernel.of(KernelProvider.scalar(), t);
      MemorySegment[] w = new MemorySegment[4];
      for (int k = 0; k < 4; k++) w[k] = slice(a, t, n, off);
      double radius = 1.5, hsum = 0, lsum = 0;
      for (int round = 0; round < 300; round++) {
        st.next(round % 5 == 4 ? 0.02 : 0.6);
        double scale = scale(r, round);
        hsum += r.nextInt(4) == 0 ? r.nextDouble() : 0;
        // The scalars as the optimizer derives them (here from the scalar buffer, exactly in
        // double).
        double ww = 0, wg = 0, gg = 0;
        for (int i = 0; i < n; i++) {
          double wi = get(w[1], t, i), gi = scale * get(st.x, t, i);
          ww += wi * wi;
          wg += wi * gi;
          gg += gi * gi;
        }
        double s = hsum + lsum, c = 8 * gg / (3 * radius * radius);
        double den = 2 * (Math.sqrt(s * s + c) + s);
        double lambda = den > 0 ? c / den : 0;
        lsum += lambda;
        if (!(hsum + lsum > 0)) continue;
        double eta = 1 / (hsum + lsum), aa = 1 - eta * lambda;
        double nv = Math.sqrt(Math.max(0, aa * aa * ww - 2 * eta * aa * wg + eta * eta * gg));
        double p = nv > radius ? radius / nv : 1;
        vec.updateDense(w[0], st.x, n, scale, eta, lambda, p);
        sca.updateDense(w[1], st.x, n, scale, eta, lambda, p);
        vec.updateSparse(w[2], n, st.idx, st.val, st.nnz, scale, eta, lambda, p);
        sca.updateSparse(w[3], n, st.idx, st.val, st.nnz, scale, eta, lambda, p);
        assertBitEqual("vector dense w, round " + round, w[1], w[0], t, n);
        assertBitEqual("vector sparse w, round " + round, w[1], w[2], t, n);
        assertBitEqual("scalar sparse w, round " + round, w[1], w[3], t, n);
      }
    }
  }

  @ParameterizedTest
  @MethodSource("cases")
  void coordinateFourWaysBitIdentical(ElementType t, int n, int off) {
    try (Arena a = Arena.ofConfined()) {
      KernelTestSupport.Stream st = new KernelTestSupport.Stream(a, t, n, off, 31L * n + off);
      SplittableRandom r = st.random();
      AdaptiveOgdKernel vec = AdaptiveOgdKernel.of(KernelProvider.vector(), t),
          sca = AdaptiveOgdKernel.of(KernelProvider.scalar(), t);
      MemorySegment[] w = new MemorySegment[4], l = new MemorySegment[4];
      for (int k = 0; k < 4; k++) {
        w[k] = slice(a, t, n, off);
        l[k] = slice(a, t, n, off);
      }
      MemorySegment radii = slice(a, t, n, off);
      for (int i = 0; i < n; i++)
        set(radii, t, i, Math.scalb(1 + r.nextDouble(), r.nextInt(-10, 11)));
      double hsum = 0;
      for (int round = 0; round < 300; round++) {
        st.next(round % 5 == 4 ? 0.02 : 0.6);
        double scale = scale(r, round);
        // Mostly H_t = 0, so Hsum + Lsum_i = 0 (the "unchanged" branch) stays reachable for long.
        hsum += r.nextInt(10) == 0 ? r.nextDouble() * 1e-3 : 0;
        // One box per run: switching boxes mid-run would let the dense pass re-clamp idle
        // coordinates that the sparse pass (rightly) never touches.
        if (off % 2 == 0) {
          double radius = 0.75;
          vec.updateDense(w[0], l[0], st.x, n, scale, hsum, radius);
          sca.updateDense(w[1], l[1], st.x, n, scale, hsum, radius);
          vec.updateSparse(w[2], l[2], n, st.idx, st.val, st.nnz, scale, hsum, radius);
          sca.updateSparse(w[3], l[3], n, st.idx, st.val, st.nnz, scale, hsum, radius);
        } else {
          vec.updateDensePerCoordinate(w[0], l[0], radii, st.x, n, scale, hsum);
          sca.updateDensePerCoordinate(w[1], l[1], radii, st.x, n, scale, hsum);
          vec.updateSparsePerCoordinate(w[2], l[2], radii, n, st.idx, st.val, st.nnz, scale, hsum);
          sca.updateSparsePerCoordinate(w[3], l[3], radii, n, st.idx, st.val, st.nnz, scale, hsum);
        }
        assertBitEqual("vector dense w, round " + round, w[1], w[0], t, n);
        assertBitEqual("vector dense Lsum, round " + round, l[1], l[0], t, n);
        assertBitEqual("vector sparse w, round " + round, w[1], w[2], t, n);
        assertBitEqual("vector sparse Lsum, round " + round, l[1], l[2], t, n);
        assertBitEqual("scalar sparse w, round " + round, w[1], w[3], t, n);
        assertBitEqual("scalar sparse Lsum, round " + round, l[1], l[3], t, n);
      }
      for (int i = 0; i < n; i++) {
        double wi = get(w[1], t, i);
        if (!(Math.abs(wi) <= 0.75 || Math.abs(wi) <= get(radii, t, i))
            || Double.isNaN(get(l[1], t, i))) {
          throw new AssertionError("w[" + i + "] = " + wi + " left its box or Lsum is NaN");
        }
      }
    }
  }
}
