package org.onlinekernels.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.AdaptiveOgdParams;
import org.onlinekernels.params.Box;
import org.onlinekernels.params.DfegParams;
import org.onlinekernels.params.GlobalAdaGradParams;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.adagrad.ReferenceAdaGrad;
import org.onlinekernels.rules.aogd.ReferenceAdaptiveOgdBall;
import org.onlinekernels.rules.aogd.ReferenceAdaptiveOgdCoordinate;
import org.onlinekernels.rules.dfeg.ReferenceDfeg;
import org.onlinekernels.rules.globaladagrad.ReferenceGlobalAdaGrad;
import org.onlinekernels.rules.scinol1.ReferenceScInOL1;
import org.onlinekernels.rules.scinol2.ReferenceScInOL2;

/**
 * Dense and sparse calls give bit-identical results (assertArrayEquals / assertEquals without a
 * delta compare the bit patterns) over seeded random sequences in which a third of the coordinates
 * are zero, the sparse form carries explicit +0.0 / -0.0 entries, and the last coordinate is first
 * seen after 50 rounds.
 */
class DenseSparseEquivalenceTest {
  static final int D = 12;
  static final int ROUNDS = 400;
  static final int LATE = 50;

  /** Runs a dense and a sparse copy side by side in linear-model form and compares everything. */
  static <M extends ReferenceLinearModel> void linear(
      Supplier<M> make, Function<M, List<double[]>> state, long seed) {
    M dense = make.get();
    M sparse = make.get();
    SplittableRandom r = new SplittableRandom(seed);
    for (int t = 0; t < ROUNDS; t++) {
      double[] x = TestData.dense(r, D, 0.6, t, LATE);
      if (t % 37 == 5) x = new double[D]; // an all-zero instance now and then
      TestData.Sp sp = TestData.sparse(r, x);
      double y = TestData.label(r);
      double a = dense.predict(x);
      double b = sparse.predictSparse(sp.idx(), sp.val(), sp.nnz());
      assertEquals(a, b, "round " + t);
      double g = Loss.LOGISTIC.derivative(y, a);
      dense.update(g);
      sparse.update(g);
      List<double[]> sa = state.apply(dense);
      List<double[]> sb = state.apply(sparse);
      for (int k = 0; k < sa.size(); k++) {
        assertArrayEquals(sa.get(k), sb.get(k), "state " + k + " round " + t);
      }
      assertArrayEquals(dense.weights(), sparse.weights(), "round " + t);
    }
  }

  /** Dense and sparse copies in gradient form, plus a third copy fed g*x in linear-model form. */
  static <L extends ReferenceGradientLearner & ReferenceLinearModel> void gradient(
      Supplier<L> make, Function<L, List<double[]>> state, long seed) {
    L dense = make.get();
    L sparse = make.get();
    L linear = make.get();
    SplittableRandom r = new SplittableRandom(seed);
    for (int t = 0; t < ROUNDS; t++) {
      double[] x = TestData.dense(r, D, 0.6, t, LATE);
      if (t % 37 == 5) x = new double[D];
      TestData.Sp sp = TestData.sparse(r, x);
      double g = r.nextDouble(-2, 2);
      double[] gx = new double[D];
      for (int i = 0; i < D; i++) gx[i] = g * x[i];
      TestData.Sp gsp = TestData.sparse(r, gx);
      dense.step(gx);
      sparse.stepSparse(gsp.idx(), gsp.val(), gsp.nnz());
      linear.predictSparse(sp.idx(), sp.val(), sp.nnz());
      linear.update(g);
      List<double[]> sa = state.apply(dense);
      for (L other : List.of(sparse, linear)) {
        List<double[]> sb = state.apply(other);
        for (int k = 0; k < sa.size(); k++) {
          assertArrayEquals(sa.get(k), sb.get(k), "state " + k + " round " + t);
        }
      }
    }
  }

  @Test
  void adaGrad() {
    AdaGradParams p = AdaGradParams.eta(0.3).withDelta(0.01).withBox(Box.symmetric(2));
    linear(() -> new ReferenceAdaGrad(D, p), m -> List.of(m.w(), m.q()), 1);
    gradient(() -> new ReferenceAdaGrad(D, p), m -> List.of(m.w(), m.q()), 2);
    AdaGradParams p0 = AdaGradParams.alphaTimesWidth(0.6, Box.of(-1, 3));
    gradient(() -> new ReferenceAdaGrad(D, p0), m -> List.of(m.w(), m.q()), 3);
  }

  @Test
  void globalAdaGrad() {
    GlobalAdaGradParams p = GlobalAdaGradParams.of(Box.symmetric(1.5)).withAlpha(0.2);
    linear(
        () -> new ReferenceGlobalAdaGrad(D, p),
        m -> List.of(m.w(), new double[] {m.sumSquares()}),
        4);
    gradient(
        () -> new ReferenceGlobalAdaGrad(D, p),
        m -> List.of(m.w(), new double[] {m.sumSquares()}),
        5);
  }

  @Test
  void adaptiveOgdBall() {
    AdaptiveOgdParams p = AdaptiveOgdParams.radius(2.0);
    Function<ReferenceAdaptiveOgdBall, List<double[]>> st =
        m -> List.of(m.w(), new double[] {m.hSum(), m.lSum()});
    linear(() -> new ReferenceAdaptiveOgdBall(D, p), st, 6);
    gradient(() -> new ReferenceAdaptiveOgdBall(D, p), st, 7);
    // With curvature too.
    ReferenceAdaptiveOgdBall a = new ReferenceAdaptiveOgdBall(D, p);
    ReferenceAdaptiveOgdBall b = new ReferenceAdaptiveOgdBall(D, p);
    SplittableRandom r = new SplittableRandom(8);
    for (int t = 0; t < ROUNDS; t++) {
      double[] g = TestData.dense(r, D, 0.6, t, LATE);
      TestData.Sp sp = TestData.sparse(r, g);
      double h = r.nextBoolean() ? 0 : r.nextDouble();
      a.step(g, h);
      b.stepSparse(sp.idx(), sp.val(), sp.nnz(), h);
      assertArrayEquals(a.w(), b.w());
      assertEquals(a.lSum(), b.lSum());
      assertEquals(a.hSum(), b.hSum());
    }
  }

  @Test
  void adaptiveOgdCoordinate() {
    double[] radii = new double[D];
    for (int i = 0; i < D; i++) radii[i] = 0.5 + i;
    AdaptiveOgdParams p = AdaptiveOgdParams.radii(radii);
    Function<ReferenceAdaptiveOgdCoordinate, List<double[]>> st =
        m -> List.of(m.w(), m.lSum(), new double[] {m.hSum()});
    linear(() -> new ReferenceAdaptiveOgdCoordinate(D, p), st, 9);
    gradient(() -> new ReferenceAdaptiveOgdCoordinate(D, p), st, 10);
    ReferenceAdaptiveOgdCoordinate a = new ReferenceAdaptiveOgdCoordinate(D, p);
    ReferenceAdaptiveOgdCoordinate b = new ReferenceAdaptiveOgdCoordinate(D, p);
    SplittableRandom r = new SplittableRandom(11);
    for (int t = 0; t < ROUNDS; t++) {
      double[] g = TestData.dense(r, D, 0.6, t, LATE);
      TestData.Sp sp = TestData.sparse(r, g);
      double h = r.nextBoolean() ? 0 : r.nextDouble();
      a.step(g, h);
      b.stepSparse(sp.idx(), sp.val(), sp.nnz(), h);
      assertArrayEquals(a.w(), b.w());
      assertArrayEquals(a.lSum(), b.lSum());
      assertEquals(a.hSum(), b.hSum());
    }
  }

  @Test
  void scInOL1() {
    linear(
        () -> new ReferenceScInOL1(D, ScInOLParams.defaults()),
        m -> List.of(m.bigG(), m.s2(), m.m(), m.beta(), new double[] {m.t()}),
        12);
  }

  @Test
  void scInOL2() {
    linear(
        () -> new ReferenceScInOL2(D, new ScInOLParams(0.5)),
        m -> List.of(m.bigG(), m.s2(), m.m(), m.eta()),
        13);
  }

  @Test
  void dfeg() {
    linear(
        () -> new ReferenceDfeg(D, DfegParams.defaults()),
        m -> List.of(m.theta(), new double[] {m.h(), m.thetaNormSquared()}),
        14);
  }
}
