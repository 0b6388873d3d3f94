package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.function.DoubleFunction;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.AdaptiveOgdParams;
import org.onlinekernels.params.Box;
import org.onlinekernels.params.FreeGradParams;
import org.onlinekernels.params.FtrlParams;
import org.onlinekernels.params.GlobalAdaGradParams;
import org.onlinekernels.params.KtParams;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.adagrad.AdaGradOptimizer;
import org.onlinekernels.rules.aogd.AdaptiveOgdBallOptimizer;
import org.onlinekernels.rules.aogd.AdaptiveOgdCoordinateOptimizer;
import org.onlinekernels.rules.freegrad.FreeGradOptimizer;
import org.onlinekernels.rules.ftrl.FtrlOptimizer;
import org.onlinekernels.rules.globaladagrad.GlobalAdaGradOptimizer;
import org.onlinekernels.rules.kt.KtOptimizer;
import org.onlinekernels.rules.scinol1.ScInOL1Optimizer;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/**
 * Issue 12, items 5 and 12: parameters beyond what the element type's arithmetic can hold are
 * refused at construction, naming the parameter (Adaptive OGD per coordinate in float with R >=
 * 1e20 used to train an all-zero model without a word).
 */
class ParameterRangeTest {
  record Case(String parameter, ElementType type, Supplier<AbstractOptimizer> create) {}

  static final ElementType F = ElementType.FLOAT;
  static final ElementType D = ElementType.DOUBLE;

  static final List<Case> REFUSED =
      List.of(
          new Case(
              "R",
              F,
              () -> new AdaptiveOgdCoordinateOptimizer(2, F, AdaptiveOgdParams.radius(1e20))),
          new Case(
              "R",
              F,
              () ->
                  new AdaptiveOgdCoordinateOptimizer(
                      2, F, AdaptiveOgdParams.radii(new double[] {1, 1e39}))),
          new Case(
              "R", F, () -> new AdaptiveOgdBallOptimizer(2, F, AdaptiveOgdParams.radius(1e20))),
          new Case(
              "R", F, () -> new AdaptiveOgdBallOptimizer(2, F, AdaptiveOgdParams.radius(1e39))),
          new Case(
              "R", D, () -> new AdaptiveOgdBallOptimizer(2, D, AdaptiveOgdParams.radius(1e160))),
          new Case("rate", F, () -> new AdaGradOptimizer(2, F, AdaGradParams.eta(1e39))),
          new Case(
              "delta", F, () -> new AdaGradOptimizer(2, F, AdaGradParams.eta(1).withDelta(1e39))),
          new Case(
              "alpha * D",
              F,
              () ->
                  new GlobalAdaGradOptimizer(
                      2, F, new GlobalAdaGradParams(1e39, 0, Box.none(), 1))),
          new Case("epsilon", F, () -> new ScInOL1Optimizer(2, F, new ScInOLParams(1e39))),
          new Case("epsilon", F, () -> new ScInOL2Optimizer(2, F, new ScInOLParams(1e39))),
          new Case("epsilon", F, () -> new ScInOL2Optimizer(2, F, new ScInOLParams(0x1p91))),
          new Case("epsilon", D, () -> new ScInOL2Optimizer(2, D, new ScInOLParams(0x1p901))),
          new Case("alpha", F, () -> new FtrlOptimizer(2, F, new FtrlParams(1e39, 1, 0, 0))),
          new Case("beta", F, () -> new FtrlOptimizer(2, F, new FtrlParams(0.5, 1e39, 0, 0))),
          new Case("lambda1", F, () -> new FtrlOptimizer(2, F, new FtrlParams(0.5, 1, 1e39, 0))),
          new Case("lambda2", F, () -> new FtrlOptimizer(2, F, new FtrlParams(0.5, 1, 0, 1e39))),
          new Case("epsilon", F, () -> new KtOptimizer(2, F, new KtParams(0x1p91, 1))),
          new Case("epsilon", D, () -> new KtOptimizer(2, D, new KtParams(0x1p901, 1))),
          new Case("Lg", F, () -> new KtOptimizer(2, F, new KtParams(1, 1e39))),
          new Case("epsilon", F, () -> new FreeGradOptimizer(2, F, new FreeGradParams(1e39))));

  @Test
  void tooLargeForTheElementTypeIsRefusedNamingTheParameter() {
    for (Case c : REFUSED) {
      ParameterRangeException e =
          assertThrows(ParameterRangeException.class, c.create()::get, c::toString);
      assertEquals(c.parameter(), e.parameter());
      assertTrue(e.getMessage().contains(": " + c.parameter() + " = "), e.getMessage());
      assertTrue(
          e.getMessage()
              .contains("is too large for " + c.type().name().toLowerCase() + " elements"),
          e.getMessage());
    }
  }

  /**
   * Accepted values train: after a few rounds the weights are finite and not all zero (not only
   * constructed).
   */
  @Test
  void theSameValuesInDoubleAndTheLargestAcceptedFloatValuesWork() {
    learns(new AdaptiveOgdCoordinateOptimizer(2, D, AdaptiveOgdParams.radius(1e20)), D);
    learns(new AdaGradOptimizer(2, D, AdaGradParams.eta(1e39)), D);
    learns(new ScInOL2Optimizer(2, D, new ScInOLParams(1e39)), D);
    learns(new ScInOL2Optimizer(2, F, new ScInOLParams(0x1p90)), F);
    learns(new FtrlOptimizer(2, D, new FtrlParams(1e39, 1e39, 0, 1e39)), D);
    learns(new KtOptimizer(2, F, new KtParams(0x1p90, 1)), F);
    learns(new KtOptimizer(2, D, new KtParams(1e39, 1e39)), D);
    learns(new FreeGradOptimizer(2, D, new FreeGradParams(1e39)), D);
    learns(new FreeGradOptimizer(2, F, new FreeGradParams(Float.MAX_VALUE)), F);
  }

  private static void learns(AbstractOptimizer o, ElementType t) {
    double[] w = train(o, t);
    for (int i = 0; i < w.length; i++) {
      assertTrue(
          Double.isFinite(w[i]) && w[i] != 0,
          o.algorithm() + " " + t + ": weight " + i + " = " + w[i]);
    }
  }

  /** Five rounds of fixed gradients on x = (1, 1); the weights read back as doubles. */
  private static double[] train(AbstractOptimizer o, ElementType t) {
    try (Arena a = Arena.ofConfined();
        o) {
      MemorySegment x = a.allocate(2L * t.bytes());
      MemorySegment w = a.allocate(2L * t.bytes());
      for (int i = 0; i < 2; i++) {
        ScInOLOptimizerTest.set(x, t, i, 1);
      }
      for (int r = 0; r < 5; r++) {
        o.predict(x);
        o.update(r % 2 == 0 ? -1 : -0.5);
      }
      o.readWeights(w);
      return new double[] {ScInOLOptimizerTest.get(w, t, 0), ScInOLOptimizerTest.get(w, t, 1)};
    }
  }

  /**
   * The largest accepted values are used, not only accepted: each of these parameters scales the
   * weights linearly (AdaGrad's rate multiplies every step; ScInOL2's epsilon is the initial
   * wealth, and every later wealth term is a multiple of it; Adaptive OGD's radius R, with no
   * curvature, makes lambda proportional to 1 / R and the step to R), so a run at the largest value
   * gives exactly the weights of a run at that value times 2^-k, times 2^k: scaling by a power of
   * two is exact in floating point. A parameter ignored, clamped or saturated fails this.
   */
  @Test
  void theLargestAcceptedValuesScaleTheWeightsExactly() {
    scales(p -> new AdaGradOptimizer(2, D, AdaGradParams.eta(p)), D, 1e39, 128);
    scales(p -> new ScInOL2Optimizer(2, D, new ScInOLParams(p)), D, 1e39, 128);
    // Float ScInOL2 accepts epsilon up to its wealth cap, 2^90, where the wealth is clamped
    // (GUARANTEES.md: saturation), so there it no longer scales: 2^80 leaves the five rounds room.
    scales(p -> new ScInOL2Optimizer(2, F, new ScInOLParams(p)), F, 0x1p80, 80);
    scales(p -> new AdaptiveOgdCoordinateOptimizer(2, D, AdaptiveOgdParams.radius(p)), D, 1e20, 64);
    scales(
        p -> new AdaptiveOgdCoordinateOptimizer(2, F, AdaptiveOgdParams.radius(p)),
        F,
        Math.sqrt(Float.MAX_VALUE / 3),
        62);
  }

  private static void scales(
      DoubleFunction<AbstractOptimizer> make, ElementType t, double largest, int k) {
    AbstractOptimizer atLargest = make.apply(largest);
    String name = atLargest.algorithm();
    double[] big = train(atLargest, t);
    double[] small = train(make.apply(Math.scalb(largest, -k)), t);
    for (int i = 0; i < big.length; i++) {
      String what = name + " " + t + " at " + largest + ", weight " + i;
      assertTrue(small[i] != 0, what + ": zero at the smaller value");
      assertEquals(
          Double.valueOf(Math.scalb(small[i], k)),
          Double.valueOf(big[i]),
          what + ": not 2^" + k + " times the weight at 2^-" + k + " times the value");
    }
  }

  /** R = 1e19 in float learns: a nonzero weight after a few rounds (R = 1e20 used to stay 0). */
  @Test
  void aogdPerCoordinateInFloatLearnsAtTheLargestAcceptedRadius() {
    double r = Math.sqrt(Float.MAX_VALUE / 3);
    try (Arena a = Arena.ofConfined();
        AdaptiveOgdCoordinateOptimizer o =
            new AdaptiveOgdCoordinateOptimizer(1, F, AdaptiveOgdParams.radius(r))) {
      MemorySegment x = a.allocate(4);
      x.set(ValueLayout.JAVA_FLOAT_UNALIGNED, 0, 1f);
      for (int t = 0; t < 5; t++) {
        o.predict(x);
        o.update(-1);
      }
      MemorySegment w = a.allocate(4);
      o.readWeights(w);
      assertTrue(w.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 0) > 0);
    }
  }
}
