package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.params.AdaptiveOgdParams;
import org.onlinekernels.params.Box;
import org.onlinekernels.params.GlobalAdaGradParams;
import org.onlinekernels.rules.aogd.AdaptiveOgdBallKernel;
import org.onlinekernels.rules.aogd.AdaptiveOgdBallOptimizer;
import org.onlinekernels.rules.aogd.AdaptiveOgdCoordinateOptimizer;
import org.onlinekernels.rules.aogd.AdaptiveOgdKernel;
import org.onlinekernels.rules.globaladagrad.GlobalAdaGradKernel;
import org.onlinekernels.rules.globaladagrad.GlobalAdaGradOptimizer;

/** First steps worked by hand (d = 2, double), and rejection of bad input with a named argument. */
class HandWorkedStepsTest {
  private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;
  private static final double TOL = 1e-15;

  private static MemorySegment vec(Arena a, double... v) {
    MemorySegment s = a.allocate(8L * v.length);
    for (int i = 0; i < v.length; i++) s.setAtIndex(D, i, v[i]);
    return s;
  }

  private static double[] weights(LinearModelOptimizer o, Arena a) {
    MemorySegment into = a.allocate(8L * o.dimension());
    o.readWeights(into);
    return into.toArray(D);
  }

  @Test
  void globalAdaGradFirstTwoSteps() {
    for (KernelProvider k :
        new KernelProvider[] {KernelProvider.scalar(), KernelProvider.vector()}) {
      try (Arena a = Arena.ofConfined();
          GlobalAdaGradOptimizer o =
              new GlobalAdaGradOptimizer(
                  2,
                  ElementType.DOUBLE,
                  new GlobalAdaGradParams(1, 0, Box.symmetric(1), 1.0),
                  a,
                  k)) {
        // g = (3, 4): sumSquares = 25, eta = 1 * 1 / (0 + sqrt(50)) = 0.1414213562...
        // w = clamp(0 - eta * (3, 4), -1, 1) = (-0.4242640687, -0.5656854249)
        o.step(vec(a, 3, 4));
        double eta1 = 1.0 / Math.sqrt(50);
        double[] w = weights(o, a);
        assertEquals(-0.4242640687119285, w[0], TOL);
        assertEquals(-0.565685424949238, w[1], TOL);
        assertEquals(-eta1 * 3, w[0]);
        assertEquals(25.0, o.scalarState().get("sumSquares"));
        // g = (-1, 0) in linear-model form: x = (-0.5, 0), dLoss/dyhat = 2, so g x = (-1, 0).
        // sumSquares = 26, eta = 1 / sqrt(52) = 0.1386750490; w0 = -0.4242640687 + 0.1386750490 =
        // -0.2855890197
        assertEquals(w[0] * -0.5, o.predict(vec(a, -0.5, 0)), TOL);
        o.update(2.0);
        w = weights(o, a);
        assertEquals(-0.28558901966, w[0], 1e-10);
        assertEquals(-0.565685424949238, w[1], TOL);
        assertEquals(26.0, o.scalarState().get("sumSquares"));
      }
    }
  }

  @Test
  void globalAdaGradZeroGradientLeavesStateUnchanged() {
    try (Arena a = Arena.ofConfined();
        GlobalAdaGradOptimizer o =
            new GlobalAdaGradOptimizer(
                2, ElementType.DOUBLE, GlobalAdaGradParams.of(Box.symmetric(1)))) {
      // sqrt(2 * 0) + delta = 0: the rate is undefined, so no change (ALGORITHMS.md conventions).
      o.step(vec(a, 0, 0));
      assertEquals(0.0, weights(o, a)[0]);
      assertEquals(0.0, o.scalarState().get("sumSquares"));
    }
  }

  @Test
  void ballFirstSteps() {
    for (KernelProvider k :
        new KernelProvider[] {KernelProvider.scalar(), KernelProvider.vector()}) {
      try (Arena a = Arena.ofConfined();
          AdaptiveOgdBallOptimizer o =
              new AdaptiveOgdBallOptimizer(
                  2, ElementType.DOUBLE, AdaptiveOgdParams.radius(1.0), a, k)) {
        // g = (3, 4), H = 0, R = 1: Hsum = 0, s = 0, c = 8 * 25 / 3 = 66.666...
        // lambda = c / (2 (sqrt(c) + 0)) = sqrt(c) / 2 = 4.0824829046; Lsum = 4.0824829046
        // eta = 1 / 4.0824829046 = 0.2449489743; v = -eta * (3, 4) = (-0.7348469, -0.9797959)
        // ||v|| = 5 eta = 1.2247448714 > R, so p = 1 / 1.2247448714 = 0.8164965809
        // w = v p = (-0.6, -0.8): -R g / ||g||.
        o.step(vec(a, 3, 4));
        double[] w = weights(o, a);
        assertEquals(-0.6, w[0], 1e-15);
        assertEquals(-0.8, w[1], 1e-15);
        assertEquals(Math.sqrt(200.0 / 3) / 2, o.scalarState().get("Lsum"), 1e-15);
        // g = 0, H = 2: Hsum = 2, s = 6.0824829046, c = 0, lambda = 0 / (2 * 2 s) = 0,
        // eta = 1 / 6.0824829046; v = w - eta * (0 + 0 w) = w, ||v|| = 1 = R: w unchanged (to
        // rounding).
        o.step(vec(a, 0, 0), 2.0);
        w = weights(o, a);
        assertEquals(-0.6, w[0], 1e-15);
        assertEquals(-0.8, w[1], 1e-15);
        assertEquals(2.0, o.scalarState().get("Hsum"));
        // Linear-model form with curvature: x = (1, 0), dLoss/dyhat = 0.5 => g = (0.5, 0), H = 1.
        // Hsum = 3, s = 3 + 4.0824829046 = 7.0824829046, c = 8 * 0.25 / 3 = 0.6666...
        // lambda = c / (2 (sqrt(s^2 + c) + s)) = 0.66667 / (2 (7.1293920 + 7.0824829)) = 0.0234546
        // Lsum = 4.1059375, eta = 1 / 7.1059375 = 0.1407274
        // v = w - eta (g + lambda w) = (-0.6 - 0.1407274 (0.5 - 0.0140727), -0.8 - 0.1407274
        // (-0.0187637))
        //   = (-0.6683833, -0.7973594); ||v|| = 1.0404414 > 1 => w = v / ||v|| = (-0.6424036,
        // -0.7663665)
        assertEquals(-0.6, o.predict(vec(a, 1, 0)), 1e-15);
        o.update(0.5, 1.0);
        w = weights(o, a);
        assertEquals(-0.6424036, w[0], 1e-7);
        assertEquals(-0.7663665, w[1], 1e-7);
        assertEquals(1.0, Math.hypot(w[0], w[1]), 1e-15);
        assertEquals(3.0, o.scalarState().get("Hsum"));
      }
    }
  }

  @Test
  void ballWithoutCurvatureOrGradientDoesNothing() {
    try (Arena a = Arena.ofConfined();
        AdaptiveOgdBallOptimizer o =
            new AdaptiveOgdBallOptimizer(2, ElementType.DOUBLE, AdaptiveOgdParams.radius(1.0))) {
      // Hsum + Lsum = 0: eta undefined, no change this round.
      o.step(vec(a, 0, 0));
      assertEquals(0.0, weights(o, a)[0]);
      assertEquals(0.0, o.scalarState().get("Lsum"));
    }
  }

  @Test
  void coordinateFirstStep() {
    for (KernelProvider k :
        new KernelProvider[] {KernelProvider.scalar(), KernelProvider.vector()}) {
      try (Arena a = Arena.ofConfined();
          AdaptiveOgdCoordinateOptimizer o =
              new AdaptiveOgdCoordinateOptimizer(
                  2, ElementType.DOUBLE, AdaptiveOgdParams.radius(1.0), a, k)) {
        // g = (1, 0), H = 1, R = 1. Hsum = 1.
        // i = 0: s = 1, c = 8 / 3 = 2.6666667, lambda = c / (2 (sqrt(1 + c) + 1))
        //        = 2.6666667 / (2 * 2.9148542) = 0.4574271; Lsum_0 = 0.4574271
        //        eta = 1 / 1.4574271 = 0.6861407; w_0 = clamp(0 - eta (1 + 0), -1, 1) = -0.6861407
        // i = 1: g = 0: c = 0, lambda = 0 / (2 (1 + 1)) = 0, eta = 1, w_1 = 0 - 1 (0 + 0) = 0.
        o.step(vec(a, 1, 0), 1.0);
        double[] w = weights(o, a);
        double c = 8.0 / 3, lambda = c / (2 * (Math.sqrt(1 + c) + 1));
        assertEquals(-0.6861407, w[0], 1e-7);
        assertEquals(-(1 / (1 + lambda)) * 1, w[0]);
        assertEquals(0.0, w[1]);
        double[] lsum = o.state().get("Lsum").toArray(D);
        assertEquals(0.4574271, lsum[0], 1e-7);
        assertEquals(0.0, lsum[1]);
        // H = 0 throughout would clamp: s = 0 gives w = -g * 2 / sqrt(c) = -sqrt(3/2) R sgn(g).
        o.reset();
        o.step(vec(a, -5, 0));
        assertEquals(1.0, weights(o, a)[0]);
        assertEquals(0.0, weights(o, a)[1]);
      }
    }
  }

  @Test
  void coordinateRadiiAreUsedPerCoordinate() {
    try (Arena a = Arena.ofConfined();
        AdaptiveOgdCoordinateOptimizer o =
            new AdaptiveOgdCoordinateOptimizer(
                2, ElementType.DOUBLE, AdaptiveOgdParams.radii(new double[] {0.5, 4}))) {
      o.step(vec(a, 1, 1));
      double[] w = weights(o, a);
      // First step with H = 0 always lands at -sqrt(3/2) R_i sgn(g_i) before clamping: clamped to
      // -R_i.
      assertEquals(-0.5, w[0]);
      assertEquals(-4.0, w[1]);
      assertTrue(o.state().containsKey("R"));
    }
  }

  @Test
  void badInputIsRejectedWithTheArgumentNamed() {
    try (Arena a = Arena.ofConfined();
        AdaptiveOgdBallOptimizer ball =
            new AdaptiveOgdBallOptimizer(2, ElementType.DOUBLE, AdaptiveOgdParams.radius(1.0));
        AdaptiveOgdCoordinateOptimizer coord =
            new AdaptiveOgdCoordinateOptimizer(
                2, ElementType.DOUBLE, AdaptiveOgdParams.radius(1.0));
        GlobalAdaGradOptimizer glob =
            new GlobalAdaGradOptimizer(2, ElementType.DOUBLE, GlobalAdaGradParams.ofDiameter(1))) {
      MemorySegment g = vec(a, 1, 2);
      assertMessage("curvature h", () -> ball.step(g, -1));
      assertMessage("curvature h", () -> coord.step(g, Double.NaN));
      assertMessage("curvature h", () -> coord.step(g, Double.POSITIVE_INFINITY));
      assertMessage("gradient", () -> ball.step(a.allocate(8)));
      assertMessage("gradient", () -> glob.step(a.allocate(8)));
      assertMessage("indices[1]", () -> coord.stepSparse(intSeg(a, 1, 1), g, 2));
      assertMessage("indices[0]", () -> glob.stepSparse(intSeg(a, 2), g, 1));
      assertMessage("nnz", () -> ball.stepSparse(intSeg(a, 0), g, -1));
      assertMessage(
          "g must be finite",
          () -> {
            glob.predict(g);
            glob.update(Double.NaN);
          });
      assertThrows(IllegalStateException.class, () -> ball.update(1.0, 0.0));
      assertMessage(
          "radii",
          () ->
              new AdaptiveOgdBallOptimizer(
                  2, ElementType.DOUBLE, AdaptiveOgdParams.radii(new double[] {1, 2})));
      assertMessage(
          "radii has 3",
          () ->
              new AdaptiveOgdCoordinateOptimizer(
                  2, ElementType.DOUBLE, AdaptiveOgdParams.radii(new double[] {1, 2, 3})));
      assertMessage(
          "diameter D",
          () ->
              new GlobalAdaGradOptimizer(
                  2, ElementType.DOUBLE, GlobalAdaGradParams.of(Box.none())));
      assertMessage("params", () -> new AdaptiveOgdBallOptimizer(2, ElementType.DOUBLE, null));
      // Kernel-level arguments.
      var k = AdaptiveOgdKernel.of(KernelProvider.scalar(), ElementType.DOUBLE);
      var kb = AdaptiveOgdBallKernel.of(KernelProvider.scalar(), ElementType.DOUBLE);
      MemorySegment w = vec(a, 0, 0), l = vec(a, 0, 0);
      assertMessage("p (projection factor)", () -> kb.updateDense(w, g, 2, 1, 1, 0, 1.5));
      assertMessage("eta", () -> kb.updateDense(w, g, 2, 1, 0, 0, 1));
      assertMessage("lambda", () -> kb.updateDense(w, g, 2, 1, 1, -1, 1));
      // The kernel's parameters are named after the rule's state and uniforms (Hsum, R, Lsum).
      assertMessage("Hsum", () -> k.updateDense(w, l, g, 2, 1, -1, 1));
      assertMessage("R (radius)", () -> k.updateDense(w, l, g, 2, 1, 0, 0));
      assertMessage("Lsum is read-only", () -> k.updateDense(w, l.asReadOnly(), g, 2, 1, 0, 1));
      assertMessage("R holds", () -> k.updateDensePerCoordinate(w, l, a.allocate(8), g, 2, 1, 0));
      var gk = GlobalAdaGradKernel.of(KernelProvider.scalar(), ElementType.DOUBLE);
      assertMessage("eta", () -> gk.updateDense(w, g, 2, 1, Double.POSITIVE_INFINITY, -1, 1));
      assertMessage("box", () -> gk.updateDense(w, g, 2, 1, 1, 1, -1));
      assertMessage("scale", () -> gk.updateDense(w, g, 2, Double.NaN, 1, -1, 1));
      // A rejected call leaves the state as it was.
      assertEquals(0.0, ball.scalarState().get("Hsum"));
      assertEquals(0.0, weights(coord, a)[0]);
    }
  }

  private static MemorySegment intSeg(Arena a, int... v) {
    MemorySegment s = a.allocate(4L * Math.max(1, v.length));
    for (int i = 0; i < v.length; i++) s.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, v[i]);
    return s;
  }

  private static void assertMessage(String part, org.junit.jupiter.api.function.Executable e) {
    Throwable t = assertThrows(RuntimeException.class, e);
    assertTrue(
        t.getMessage() != null && t.getMessage().contains(part),
        "message should name '" + part + "': " + t.getMessage());
  }
}
