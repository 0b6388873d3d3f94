package org.onlinekernels.optimizer;

import static org.onlinekernels.kernel.KernelTestSupport.assertBitEqual;
import static org.onlinekernels.kernel.KernelTestSupport.get;
import static org.onlinekernels.kernel.KernelTestSupport.slice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.KernelTestSupport;
import org.onlinekernels.params.AdaptiveOgdParams;
import org.onlinekernels.params.Box;
import org.onlinekernels.params.GlobalAdaGradParams;
import org.onlinekernels.rules.aogd.AdaptiveOgdBallOptimizer;
import org.onlinekernels.rules.aogd.AdaptiveOgdCoordinateOptimizer;
import org.onlinekernels.rules.globaladagrad.GlobalAdaGradOptimizer;

/**
 * Optimizers over vector and scalar kernels, fed dense and sparse versions of the same stream.
 *
 * <p>Per-coordinate AOGD has no reduction in its update, so all four runs agree bit for bit. Global
 * AdaGrad and the AOGD ball derive shared scalars from reductions; vector and scalar sum in one
 * order (issue 11), so they agree bit for bit too, but dense and sparse input sum in different
 * orders, so those agree only to a bound. Derivation: a sum of {@code n} products in precision
 * {@code u} is off by at most {@code gamma_n = n u / (1 - n u)} times the sum of |terms|; every
 * scalar of a round ({@code eta}, {@code lambda}, {@code p}) is then off by a relative {@code
 * O(gamma_n)}; the map {@code w -> P(w - eta (g + lambda w))} is a contraction followed by a
 * 1-Lipschitz projection, so per-round differences add up rather than compound. With every
 * coordinate bounded by the radius or box half-width {@code R} and steps {@code eta |g_i| <=
 * R}-ish, after {@code T} rounds {@code |w_a - w_b| <= 4 T gamma_n R}, the bound asserted below
 * (float: {@code u = 2^-24}).
 *
 * <p>Predictions: {@code |yhat - <w, x>| <= gamma_n sum |w_i x_i|} against an exact {@link
 * BigDecimal} dot product, and the ball's {@code ||v||^2} by expansion against a direct exact
 * evaluation within {@code (gamma_n + 8 u_double) (|1 - eta lambda| ||w|| + eta ||g||)^2}.
 */
class OptimizerDifferentialTest {
  private static final int ROUNDS = 200;

  private static double u(ElementType t) {
    return t == ElementType.FLOAT ? 0x1p-24 : 0x1p-53;
  }

  private static double gamma(ElementType t, int n) {
    double nu = (n + 2) * u(t);
    return nu / (1 - nu);
  }

  @ParameterizedTest
  @CsvSource({
    "FLOAT,1",
    "FLOAT,9",
    "FLOAT,33",
    "FLOAT,1023",
    "DOUBLE,1",
    "DOUBLE,7",
    "DOUBLE,17",
    "DOUBLE,1023"
  })
  void coordinateBitIdenticalAcrossKernelsAndForms(ElementType t, int n) {
    try (Arena a = Arena.ofConfined()) {
      KernelTestSupport.Stream st = new KernelTestSupport.Stream(a, t, n, 3, 11L * n);
      SplittableRandom r = st.random();
      AdaptiveOgdParams p = n % 2 == 0 ? AdaptiveOgdParams.radius(2.0) : radii(n, r);
      AdaptiveOgdCoordinateOptimizer[] o = {
        new AdaptiveOgdCoordinateOptimizer(n, t, p, a, KernelProvider.vector()),
        new AdaptiveOgdCoordinateOptimizer(n, t, p, a, KernelProvider.scalar()),
        new AdaptiveOgdCoordinateOptimizer(n, t, p, a, KernelProvider.vector()),
        new AdaptiveOgdCoordinateOptimizer(n, t, p, a, KernelProvider.scalar())
      };
      for (int round = 0; round < ROUNDS; round++) {
        st.next(0.5);
        double h = r.nextInt(3) == 0 ? r.nextDouble() : 0;
        if (round % 2 == 0) {
          o[0].step(st.x, h);
          o[1].step(st.x, h);
          o[2].stepSparse(st.idx, st.val, st.nnz, h);
          o[3].stepSparse(st.idx, st.val, st.nnz, h);
        } else {
          double g = r.nextGaussian();
          for (int k = 0; k < 2; k++) {
            o[k].predict(st.x);
            o[k].update(g, h);
            o[k + 2].predictSparse(st.idx, st.val, st.nnz);
            o[k + 2].update(g, h);
          }
        }
        for (int k = 0; k < 4; k += 1) {
          if (k == 1) continue;
          assertBitEqual(
              "w (run " + k + ", round " + round + ")",
              o[1].state().get("w"),
              o[k].state().get("w"),
              t,
              n);
          assertBitEqual(
              "Lsum (run " + k + ", round " + round + ")",
              o[1].state().get("Lsum"),
              o[k].state().get("Lsum"),
              t,
              n);
        }
      }
    }
  }

  private static AdaptiveOgdParams radii(int n, SplittableRandom r) {
    double[] rs = new double[n];
    for (int i = 0; i < n; i++) rs[i] = 0.5 + r.nextDouble();
    return AdaptiveOgdParams.radii(rs);
  }

  @ParameterizedTest
  @CsvSource({"FLOAT,9", "FLOAT,33", "FLOAT,1023", "DOUBLE,7", "DOUBLE,33", "DOUBLE,1023"})
  void ballAndGlobalAgreeWithinTheDerivedBound(ElementType t, int n) {
    try (Arena a = Arena.ofConfined()) {
      KernelTestSupport.Stream st = new KernelTestSupport.Stream(a, t, n, 5, 13L * n);
      SplittableRandom r = st.random();
      double radius = 1.0;
      LinearModelOptimizer[] ball = new LinearModelOptimizer[4], glob = new LinearModelOptimizer[4];
      for (int k = 0; k < 4; k++) {
        KernelProvider kp = k % 2 == 0 ? KernelProvider.vector() : KernelProvider.scalar();
        ball[k] = new AdaptiveOgdBallOptimizer(n, t, AdaptiveOgdParams.radius(radius), a, kp);
        glob[k] =
            new GlobalAdaGradOptimizer(n, t, GlobalAdaGradParams.of(Box.symmetric(radius)), a, kp);
      }
      MemorySegment wb = slice(a, t, n, 0);
      for (int round = 0; round < ROUNDS; round++) {
        st.next(0.5);
        double h = r.nextInt(3) == 0 ? r.nextDouble() : 0;
        for (int k = 0; k < 4; k++) {
          AdaptiveOgdBallOptimizer b = (AdaptiveOgdBallOptimizer) ball[k];
          GradientOptimizer gl = (GradientOptimizer) glob[k];
          if (k < 2) {
            b.step(st.x, h);
            gl.step(st.x);
          } else {
            b.stepSparse(st.idx, st.val, st.nnz, h);
            gl.stepSparse(st.idx, st.val, st.nnz);
          }
        }
        double bound = 4 * (round + 1) * gamma(t, n) * radius;
        for (LinearModelOptimizer[] os : new LinearModelOptimizer[][] {ball, glob}) {
          os[1].readWeights(wb);
          for (int k = 0; k < 4; k++) {
            MemorySegment wk = ((AbstractOptimizer) os[k]).state().get("w");
            // Runs 0, 1 (dense) and 2, 3 (sparse) differ only in the provider: the same bits.
            MemorySegment wPair = ((AbstractOptimizer) os[k ^ 1]).state().get("w");
            for (int i = 0; i < n; i++) {
              if (Double.doubleToRawLongBits(get(wk, t, i))
                  != Double.doubleToRawLongBits(get(wPair, t, i))) {
                throw new AssertionError(
                    os[k].algorithm()
                        + " runs "
                        + k
                        + ", "
                        + (k ^ 1)
                        + " (vector, scalar) round "
                        + round
                        + " w["
                        + i
                        + "] "
                        + get(wk, t, i)
                        + " vs "
                        + get(wPair, t, i)
                        + ": not bit-identical");
              }
            }
            for (int i = 0; i < n; i++) {
              double diff = Math.abs(get(wk, t, i) - get(wb, t, i));
              if (!(diff <= bound)) {
                throw new AssertionError(
                    os[k].algorithm()
                        + " run "
                        + k
                        + " round "
                        + round
                        + " w["
                        + i
                        + "] differs by "
                        + diff
                        + " > bound "
                        + bound);
              }
            }
          }
          // Prediction against the exact dot product of the stored weights.
          for (int k = 0; k < 4; k++) {
            MemorySegment wk = ((AbstractOptimizer) os[k]).state().get("w");
            BigDecimal exact = BigDecimal.ZERO;
            double abs = 0;
            for (int i = 0; i < n; i++) {
              exact =
                  exact.add(
                      new BigDecimal(get(wk, t, i)).multiply(new BigDecimal(get(st.x, t, i))));
              abs += Math.abs(get(wk, t, i) * get(st.x, t, i));
            }
            double yhat = os[k].predict(st.x);
            double err = Math.abs(new BigDecimal(yhat).subtract(exact).doubleValue());
            if (!(err <= gamma(t, n) * abs)) {
              throw new AssertionError("yhat off by " + err + " > " + gamma(t, n) * abs);
            }
            // Close the round: a zero-gradient update, applied identically to all four runs.
            if (os == glob) os[k].update(0.0);
            else ((AdaptiveOgdBallOptimizer) os[k]).update(0.0, 0.0);
          }
        }
      }
    }
  }

  @ParameterizedTest
  @CsvSource({"FLOAT,8", "FLOAT,1023", "FLOAT,4097", "DOUBLE,9", "DOUBLE,4097"})
  void ballNormOfVByExpansionWithinBound(ElementType t, int n) {
    try (Arena a = Arena.ofConfined()) {
      KernelTestSupport.Stream st = new KernelTestSupport.Stream(a, t, n, 1, 5L * n);
      SplittableRandom r = st.random();
      MemorySegment w = slice(a, t, n, 1);
      for (int i = 0; i < n; i++) KernelTestSupport.set(w, t, i, r.nextGaussian() / Math.sqrt(n));
      for (KernelProvider kp :
          new KernelProvider[] {KernelProvider.vector(), KernelProvider.scalar()}) {
        for (int round = 0; round < 50; round++) {
          st.next(0.7);
          double eta = Math.scalb(1 + r.nextDouble(), r.nextInt(-25, 0)),
              lambda = r.nextDouble() * 3;
          double[] gram = new double[3];
          kp.linearAlgebra(t).gramTriple(w, st.x, n, gram);
          double aa = 1 - eta * lambda;
          double vv = aa * aa * gram[0] - 2 * eta * aa * gram[1] + eta * eta * gram[2];
          BigDecimal exact = BigDecimal.ZERO;
          double nw = 0, ng = 0;
          for (int i = 0; i < n; i++) {
            double wi = get(w, t, i), gi = get(st.x, t, i);
            BigDecimal vi =
                new BigDecimal(wi)
                    .subtract(
                        new BigDecimal(eta)
                            .multiply(
                                new BigDecimal(gi)
                                    .add(new BigDecimal(lambda).multiply(new BigDecimal(wi)))));
            exact = exact.add(vi.multiply(vi), MathContext.DECIMAL128);
            nw += wi * wi;
            ng += gi * gi;
          }
          double s = Math.abs(aa) * Math.sqrt(nw) + eta * Math.sqrt(ng);
          double bound = (gamma(t, n) + 8 * 0x1p-53) * s * s;
          double err = Math.abs(vv - exact.doubleValue());
          if (!(err <= bound)) {
            throw new AssertionError(kp + " ||v||^2 off by " + err + " > bound " + bound);
          }
        }
      }
    }
  }
}
