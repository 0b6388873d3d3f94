package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.rules.scinol1.ReferenceScInOL1;
import org.onlinekernels.rules.scinol1.ScInOL1Optimizer;
import org.onlinekernels.rules.scinol2.ReferenceScInOL2;
import org.onlinekernels.rules.scinol2.ScInOL2;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/**
 * Issue 12, item 4: ScInOL1/ScInOL2 held at one gradient sign (d = 1, g = -1, constant x) with a
 * tiny input used to predict +Infinity: the wealth (or exponent) reaches its cap while {@code s} is
 * tiny, and {@code w = eta / (2 s)} overflows. The weight now saturates at the element type's
 * largest finite value, in the kernels (vector, scalar, mixed) and in the reference, so every
 * prediction, state element and read-out weight stays finite at every input scale from 1 down to
 * the smallest subnormal.
 */
class TinyInputSaturationTest {
  /** Scales 2^0, 2^-3, ..., down to and including the smallest subnormal of the type. */
  static List<Double> scales(ElementType t) {
    int minExp = t == ElementType.FLOAT ? -149 : -1074;
    List<Double> s = new ArrayList<>();
    for (int e = 0; e > minExp; e -= 3) {
      s.add(Math.scalb(1.0, e));
    }
    s.add(Math.scalb(1.0, minExp));
    return s;
  }

  static MemorySegment one(Arena a, ElementType t, double v) {
    MemorySegment s = a.allocate(t.bytes());
    if (t == ElementType.FLOAT) {
      s.set(ValueLayout.JAVA_FLOAT_UNALIGNED, 0, (float) v);
    } else {
      s.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, v);
    }
    return s;
  }

  static double read(MemorySegment s, ElementType t) {
    return t == ElementType.FLOAT
        ? s.get(ValueLayout.JAVA_FLOAT_UNALIGNED, 0)
        : s.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0);
  }

  /**
   * Runs {@code rounds} one-sign rounds and checks yhat, state and read-out stay finite. The state
   * is first set to where a long run would have taken it ({@code T} rounds of {@code g x = -x}:
   * {@code G = T x}, {@code S2 = T x^2}, {@code M = x}; the wealth at its cap; ScInOL1's round
   * counter at {@code T}), so the double cases need no million rounds each.
   */
  static void run(AbstractOptimizer o, Arena a, double x, double bigT, double wealth, int rounds) {
    ElementType t = o.elementType();
    double xe = t == ElementType.FLOAT ? (float) x : x;
    if (bigT > 0) {
      o.writeState("G", new double[] {bigT * xe});
      o.writeState("S2", new double[] {bigT * xe * xe});
      o.writeState("M", new double[] {xe});
      if (o.state().containsKey("eta")) {
        o.writeState("eta", new double[] {wealth});
      } else {
        o.writeScalarState("t", bigT + 1);
      }
    }
    MemorySegment xs = one(a, t, x);
    MemorySegment w = a.allocate(t.bytes());
    for (int r = 0; r < rounds; r++) {
      double y = o.predict(xs);
      if (!Double.isFinite(y)) {
        throw new AssertionError(
            o.algorithm()
                + " "
                + o.precision()
                + " "
                + o.kernels().name()
                + " x = "
                + x
                + " round "
                + r
                + ": yhat = "
                + y);
      }
      o.update(-1);
    }
    o.readWeights(w);
    assertTrue(
        Double.isFinite(read(w, t)),
        () -> o.algorithm() + " " + o.precision() + " x = " + x + ": weight " + read(w, t));
    assertTrue(
        StateSnapshot.allFinite(o),
        () -> o.algorithm() + " " + o.precision() + " x = " + x + ": state");
  }

  @ParameterizedTest
  @EnumSource(ElementType.class)
  void everyScaleStaysFiniteFromASaturatedState(ElementType t) {
    double cap = t == ElementType.FLOAT ? ScInOL2.FLOAT_WEALTH_CAP : ScInOL2.DOUBLE_WEALTH_CAP;
    for (KernelProvider k : new KernelProvider[] {KernelProvider.scalar(), KernelProvider.get()}) {
      for (double x : scales(t)) {
        try (Arena a = Arena.ofConfined();
            ScInOL1Optimizer s1 = new ScInOL1Optimizer(1, t, ScInOLParams.defaults(), a, k);
            ScInOL2Optimizer s2 = new ScInOL2Optimizer(1, t, ScInOLParams.defaults(), false, a, k);
            ScInOL2Optimizer s2w =
                new ScInOL2Optimizer(1, t, ScInOLParams.defaults(), true, a, k)) {
          run(s1, a, x, 4e6, 0, 20);
          run(s2, a, x, 1e6, cap, 20);
          run(s2w, a, x, 1e6, cap, 20);
        }
      }
    }
  }

  @Test
  void mixedScInOL2StaysFiniteAndReadsOutAtEveryFloatScale() {
    for (KernelProvider k : new KernelProvider[] {KernelProvider.scalar(), KernelProvider.get()}) {
      for (double x : scales(ElementType.FLOAT)) {
        try (Arena a = Arena.ofConfined();
            ScInOL2Optimizer m =
                new ScInOL2Optimizer(1, Precision.MIXED, ScInOLParams.defaults(), a, k)) {
          run(m, a, x, 1e6, ScInOL2.DOUBLE_WEALTH_CAP, 20);
        }
      }
    }
  }

  /** The reported case itself, from a fresh state: float, x = 1e-20, 20,000 one-sign rounds. */
  @Test
  void theReportedFloatRunStaysFinite() {
    for (KernelProvider k : new KernelProvider[] {KernelProvider.scalar(), KernelProvider.get()}) {
      for (double x : new double[] {1e-14, 1e-18, 1e-22}) {
        try (Arena a = Arena.ofConfined();
            ScInOL1Optimizer s1 =
                new ScInOL1Optimizer(1, ElementType.FLOAT, ScInOLParams.defaults(), a, k);
            ScInOL2Optimizer s2 =
                new ScInOL2Optimizer(1, ElementType.FLOAT, ScInOLParams.defaults(), false, a, k)) {
          run(s1, a, x, 0, 0, 20_000);
          run(s2, a, x, 0, 0, 20_000);
        }
      }
    }
  }

  @Test
  void theReferenceSaturatesLikeTheKernels() {
    for (double x : scales(ElementType.DOUBLE)) {
      ReferenceScInOL1 r1 = new ReferenceScInOL1(1, ScInOLParams.defaults());
      ReferenceScInOL2 r2 = new ReferenceScInOL2(1, ScInOLParams.defaults());
      r2.bigG()[0] = 1e6 * x;
      r2.s2()[0] = 1e6 * x * x;
      r2.m()[0] = x;
      r2.eta()[0] = ScInOL2.DOUBLE_WEALTH_CAP;
      for (ReferenceLinearModel r : new ReferenceLinearModel[] {r2}) {
        for (int round = 0; round < 20; round++) {
          double y = r.predict(new double[] {x});
          assertTrue(Double.isFinite(y), () -> "reference x = " + x + ": yhat " + y);
          r.update(-1);
        }
        assertTrue(Double.isFinite(r.weights()[0]));
      }
      assertTrue(Double.isFinite(r1.predict(new double[] {x})));
    }
  }
}
