package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.DfegParams;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.adagrad.AdaGradOptimizer;
import org.onlinekernels.rules.dfeg.DfegOptimizer;
import org.onlinekernels.rules.scinol1.ScInOL1;
import org.onlinekernels.rules.scinol1.ScInOL1Optimizer;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/**
 * The long-run figures of docs/GUARANTEES.md, which had been measured once by hand and never
 * checked (issue #41): float accumulators stop growing at round 2^24 + 1 under a constant {@code |g
 * x| = 1}; DFEG refuses at round 391,915 of such rounds; ScInOL1's saturated predictions stay
 * finite while {@code d * epsilon < 1e11} in float.
 */
class LongRunFiguresTest {
  private static final double STALL = 0x1p24;

  private static double get(MemorySegment m, ElementType t) {
    return t == ElementType.FLOAT
        ? m.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, 0)
        : m.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0);
  }

  private static MemorySegment one(Arena a, ElementType t, double v) {
    MemorySegment m = a.allocate(t.bytes());
    if (t == ElementType.FLOAT) {
      m.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, 0, (float) v);
    } else {
      m.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, v);
    }
    return m;
  }

  /**
   * AdaGrad's {@code Q} and ScInOL2's {@code S2} and {@code G} count one per round exactly up to
   * 2^24, so the state after round 2^24 - 2 is {@code 2^24 - 2}: from there, rounds 2^24 - 1 and
   * 2^24 still count, and round 2^24 + 1 = 16,777,217 is the first that changes nothing, in float;
   * double goes on counting.
   */
  @ParameterizedTest
  @EnumSource(ElementType.class)
  void floatAccumulatorsStopGrowingAtRound2To24Plus1(ElementType t) {
    try (Arena a = Arena.ofConfined();
        AdaGradOptimizer ada = new AdaGradOptimizer(1, t, AdaGradParams.eta(1), a, null);
        ScInOL2Optimizer sc = new ScInOL2Optimizer(1, t, ScInOLParams.defaults(), false, a, null)) {
      ada.writeState("Q", new double[] {STALL - 2});
      sc.writeState("S2", new double[] {STALL - 2});
      sc.writeState("G", new double[] {STALL - 2});
      sc.writeState("M", new double[] {1});
      sc.writeScalarState("t", STALL - 1);
      MemorySegment grad = one(a, t, 1);
      MemorySegment x = one(a, t, 1);
      long firstStall = -1;
      for (long round = (long) STALL - 1; round <= (long) STALL + 2; round++) {
        double q = get(ada.state().get("Q"), t);
        double s2 = get(sc.state().get("S2"), t);
        double g = get(sc.state().get("G"), t);
        ada.step(grad);
        sc.predict(x);
        sc.update(-1);
        double q1 = get(ada.state().get("Q"), t);
        boolean stalled = q1 == q;
        assertEquals(stalled, get(sc.state().get("S2"), t) == s2, "S2 with Q, round " + round);
        assertEquals(stalled, get(sc.state().get("G"), t) == g, "G with Q, round " + round);
        if (stalled && firstStall < 0) {
          firstStall = round;
        }
      }
      assertEquals(t == ElementType.FLOAT ? 16_777_217L : -1L, firstStall, t + ": first stall");
    }
  }

  /**
   * With {@code |g x| = 1} held, DFEG's {@code exp(||theta|| / alpha)} overflows and {@code
   * predict} refuses at round 391,915, float and double alike ({@code H}, the norm and {@code exp}
   * are double). (GUARANTEES said "about 394,000" until this test measured it.)
   */
  @ParameterizedTest
  @EnumSource(ElementType.class)
  void dfegRefusesAtRound391915(ElementType t) {
    try (Arena a = Arena.ofConfined();
        DfegOptimizer o = new DfegOptimizer(1, t, DfegParams.defaults(), a, null)) {
      MemorySegment x = one(a, t, 1);
      int refusedAt = -1;
      for (int r = 1; r <= 500_000; r++) {
        try {
          o.predict(x);
        } catch (ArithmeticException e) {
          refusedAt = r;
          break;
        }
        o.update(-1);
      }
      assertEquals(391_915, refusedAt, t + ": the round DFEG refuses");
    }
  }

  /**
   * ScInOL1 at its exponent cap: {@code |x_i w_i| <= epsilon e^cap / 2} for {@code |x_i| <= 1}, so
   * the float prediction is finite while {@code d * epsilon < 1e11}: d = 1,000 coordinates at the
   * cap with {@code epsilon = 9.9e7} and every {@code x_i = 1}.
   */
  @Test
  void scinol1InFloatStaysFiniteWhileDTimesEpsilonIsBelow1e11() {
    int d = 1000;
    double eps = 9.9e7;
    ElementType t = ElementType.FLOAT;
    try (Arena a = Arena.ofConfined();
        ScInOL1Optimizer o = new ScInOL1Optimizer(d, t, new ScInOLParams(eps), a, null)) {
      double[] big = new double[d];
      double[] ones = new double[d];
      Arrays.fill(big, 1e6); // G: an exponent far past the cap
      Arrays.fill(ones, 1);
      o.writeState("G", big);
      o.writeState("S2", ones);
      MemorySegment x = a.allocate((long) d * t.bytes());
      MemorySegment w = a.allocate((long) d * t.bytes());
      for (int i = 0; i < d; i++) {
        x.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, 1f);
      }
      o.readWeights(w);
      double bound = eps * Math.exp(ScInOL1.FLOAT_EXP_CAP) / 2;
      for (int i = 0; i < d; i++) {
        double wi = w.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i);
        assertTrue(wi > 0 && wi <= bound * (1 + 1e-6), "w_" + i + " = " + wi + " > " + bound);
      }
      double yhat = o.predict(x);
      assertTrue(Double.isFinite(yhat) && yhat > 0.5 * d * bound, "yhat " + yhat);
    }
  }
}
