package org.onlinekernels.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.Box;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.adagrad.AdaGradOptimizer;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;
import org.onlinekernels.testkit.Case;
import org.onlinekernels.testkit.Cases;
import org.onlinekernels.testsupport.FuzzTries;

/**
 * {@link Precision#MIXED} AdaGrad and ScInOL2 against the double reference (fed the same float
 * inputs), sparse against dense (bit-identical state; vector against scalar, bit-identical in
 * everything: {@link BitEqualityProperties}), and the long-run stall that mixed precision removes.
 * Bounds: {@link MixedSubject}, {@link MixedAgreement}.
 */
// A quarter of the configured tries: the long stage's campaign configures four times as many.
@FuzzTries(divisor = 4)
class MixedPrecisionProperties {

  @Provide
  Arbitrary<Case> trajectories() {
    return Cases.all(Arbitraries.just(ElementType.FLOAT), Arbitraries.integers().between(1, 300));
  }

  @Provide
  Arbitrary<Case> singleSteps() {
    return Cases.all(Arbitraries.just(ElementType.FLOAT), Arbitraries.just(1));
  }

  @Property
  void mixedAdaGradTrajectory(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    MixedAgreement.kernelVsReference(
        new MixedSubject.AdaGrad(c.seed(), c.d()), c, AgreementProperties.impl(vector));
  }

  @Property
  void mixedAdaGradSingleStep(@ForAll("singleSteps") Case c, @ForAll boolean vector) {
    MixedAgreement.kernelVsReference(
        new MixedSubject.AdaGrad(c.seed(), c.d()), c, AgreementProperties.impl(vector));
  }

  @Property
  void mixedAdaGradSparseEqualsDense(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    MixedAgreement.kernelVsKernel(
        new MixedSubject.AdaGrad(c.seed(), c.d()),
        c.withSparse(false),
        AgreementProperties.impl(vector),
        c.withSparse(true),
        AgreementProperties.impl(vector));
  }

  @Property
  void mixedScInOL2Trajectory(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    MixedAgreement.kernelVsReference(
        new MixedSubject.ScInOL2(c.seed()), c, AgreementProperties.impl(vector));
  }

  @Property
  void mixedScInOL2SingleStep(@ForAll("singleSteps") Case c, @ForAll boolean vector) {
    MixedAgreement.kernelVsReference(
        new MixedSubject.ScInOL2(c.seed()), c, AgreementProperties.impl(vector));
  }

  @Property
  void mixedScInOL2SparseEqualsDense(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    MixedAgreement.kernelVsKernel(
        new MixedSubject.ScInOL2(c.seed()),
        c.withSparse(false),
        AgreementProperties.impl(vector),
        c.withSparse(true),
        AgreementProperties.impl(vector));
  }

  /**
   * Long run, cheaply: start {@code Q} at {@code 2^24 g^2} (where a float {@code Q} fed equal
   * increments {@code g^2} has been since round 2^24) and add 16 more increments. Float {@code Q}
   * stays at {@code 2^24} (each {@code 2^24 + 1} rounds back, ties to even) and its step size stops
   * shrinking; mixed {@code Q} is exactly {@code 2^24 + 16}. d = 37 covers vector body and tail.
   */
  @Example
  void adaGradFloatStallsMixedDoesNot() {
    for (KernelProvider k :
        new KernelProvider[] {KernelProvider.vector(), KernelProvider.scalar()}) {
      int d = 37;
      AdaGradParams p = new AdaGradParams(0.5, false, 0, 0, Box.none());
      try (Arena arena = Arena.ofConfined();
          AdaGradOptimizer f = new AdaGradOptimizer(d, Precision.FLOAT, p, null, k);
          AdaGradOptimizer m = new AdaGradOptimizer(d, Precision.MIXED, p, null, k)) {
        double[] start = new double[d];
        java.util.Arrays.fill(start, 0x1p24);
        f.writeState("Q", start);
        m.writeState("Q", start);
        MemorySegment g = arena.allocate(4L * d);
        for (int i = 0; i < d; i++) {
          g.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, i % 2 == 0 ? 1f : -1f);
        }
        for (int r = 0; r < 16; r++) {
          f.step(g);
          m.step(g);
        }
        for (int i = 0; i < d; i++) {
          assertEquals(
              0x1p24,
              f.state().get("Q").getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i),
              "float Q stalls");
          assertEquals(
              0x1p24 + 16,
              m.state().get("Q").getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i),
              "mixed Q grows");
        }
        assertEquals(ElementType.DOUBLE, m.stateType("Q"));
        assertEquals(ElementType.FLOAT, m.stateType("w"));
      }
    }
  }

  /**
   * ScInOL2's {@code G} and {@code S2} at {@code 2^24} with {@code |g x| = 1}: float stays, mixed
   * counts every round ({@code G = 2^24 + 16}, {@code S2 = 2^24 + 16}).
   */
  @Example
  void scInOL2FloatStallsMixedDoesNot() {
    for (KernelProvider k :
        new KernelProvider[] {KernelProvider.vector(), KernelProvider.scalar()}) {
      int d = 37;
      ScInOLParams p = new ScInOLParams(1);
      try (Arena arena = Arena.ofConfined();
          ScInOL2Optimizer f = new ScInOL2Optimizer(d, Precision.FLOAT, p, null, k);
          ScInOL2Optimizer m = new ScInOL2Optimizer(d, Precision.MIXED, p, null, k)) {
        double[] start = new double[d];
        java.util.Arrays.fill(start, 0x1p24);
        for (String name : new String[] {"G", "S2"}) {
          f.writeState(name, start);
          m.writeState(name, start);
        }
        MemorySegment x = arena.allocate(4L * d);
        for (int i = 0; i < d; i++) {
          x.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, 1f);
        }
        for (int r = 0; r < 16; r++) {
          f.predict(x);
          f.update(-1);
          m.predict(x);
          m.update(-1);
        }
        for (int i = 0; i < d; i++) {
          assertEquals(0x1p24, f.state().get("G").getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i));
          assertEquals(0x1p24, f.state().get("S2").getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i));
          assertEquals(
              0x1p24 + 16, m.state().get("G").getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i));
          assertEquals(
              0x1p24 + 16, m.state().get("S2").getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i));
        }
        assertTrue(m.precision() == Precision.MIXED && m.elementType() == ElementType.FLOAT);
      }
    }
  }
}
