package org.onlinekernels.properties;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.testkit.AdaGradSubject;
import org.onlinekernels.testkit.AdaptiveOgdSubject;
import org.onlinekernels.testkit.Agreement;
import org.onlinekernels.testkit.Case;
import org.onlinekernels.testkit.Cases;
import org.onlinekernels.testkit.DfegSubject;
import org.onlinekernels.testkit.GlobalAdaGradSubject;
import org.onlinekernels.testkit.OptimizerLearner;
import org.onlinekernels.testkit.ScInOL1Subject;
import org.onlinekernels.testkit.ScInOL2Subject;
import org.onlinekernels.testkit.Subject;
import org.onlinekernels.testkit.Tolerance;

/**
 * Every kernel against the reference, on both implementations (vector and scalar fallback),
 * float and double, dense and sparse, from single steps to trajectories of hundreds of rounds.
 * Bounds: {@link Tolerance}. The number of tries per property is {@code jqwik.tries.default}
 * (the build's {@code jqwik.tries} property); the README gives the long-campaign command. Vector
 * against scalar is no longer a bound but equality: {@link BitEqualityProperties}.
 */
class AgreementProperties {

  @Provide
  Arbitrary<Case> trajectories() {
    return Cases.all();
  }

  @Provide
  Arbitrary<Case> singleSteps() {
    return Cases.all(Arbitraries.of(ElementType.class), Arbitraries.just(1));
  }

  static KernelProvider impl(boolean vector) {
    return vector ? KernelProvider.vector() : KernelProvider.scalar();
  }

  @Property
  void adaGradTrajectory(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    Agreement.kernelVsReference(new AdaGradSubject(c.seed(), c.d(), c.type()), c, impl(vector));
  }

  @Property
  void adaGradSingleStep(@ForAll("singleSteps") Case c, @ForAll boolean vector) {
    Agreement.kernelVsReference(new AdaGradSubject(c.seed(), c.d(), c.type()), c, impl(vector));
  }

  @Property
  void adaGradSparseEqualsDense(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    Agreement.kernelVsKernel(new AdaGradSubject(c.seed(), c.d(), c.type()), c.withSparse(false), impl(vector),
        c.withSparse(true), impl(vector), true);
  }

  @Property
  void dfegTrajectory(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    Agreement.kernelVsReference(new DfegSubject(c.seed(), c.type()), c, impl(vector));
  }

  @Property
  void dfegSingleStep(@ForAll("singleSteps") Case c, @ForAll boolean vector) {
    Agreement.kernelVsReference(new DfegSubject(c.seed(), c.type()), c, impl(vector));
  }

  @Property
  void dfegSparseEqualsDense(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    Agreement.kernelVsKernel(new DfegSubject(c.seed(), c.type()), c.withSparse(false), impl(vector),
        c.withSparse(true), impl(vector), false);
  }

  @Property
  void scInOL1Trajectory(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    Agreement.kernelVsReference(new ScInOL1Subject(c.seed(), c.type()), c, impl(vector));
  }

  @Property
  void scInOL1SingleStep(@ForAll("singleSteps") Case c, @ForAll boolean vector) {
    Agreement.kernelVsReference(new ScInOL1Subject(c.seed(), c.type()), c, impl(vector));
  }

  @Property
  void scInOL1SparseEqualsDense(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    Agreement.kernelVsKernel(new ScInOL1Subject(c.seed(), c.type()), c.withSparse(false), impl(vector), c.withSparse(true), impl(vector), true);
  }

  @Property
  void scInOL2Trajectory(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    Agreement.kernelVsReference(new ScInOL2Subject(c.seed(), c.type()), c, impl(vector));
  }

  @Property
  void scInOL2SingleStep(@ForAll("singleSteps") Case c, @ForAll boolean vector) {
    Agreement.kernelVsReference(new ScInOL2Subject(c.seed(), c.type()), c, impl(vector));
  }

  @Property
  void scInOL2SparseEqualsDense(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    Agreement.kernelVsKernel(new ScInOL2Subject(c.seed(), c.type()), c.withSparse(false), impl(vector), c.withSparse(true), impl(vector), true);
  }

  /** ScInOL1 or ScInOL2 (one property for both: it costs what a vector == scalar property costs). */
  @Property
  void scInOLIsScaleInvariant(@ForAll("trajectories") Case c, @ForAll boolean scInOL1, @ForAll boolean vector) {
    Subject s = scInOL1 ? new ScInOL1Subject(c.seed(), c.type()) : new ScInOL2Subject(c.seed(), c.type());
    Agreement.scaleInvariance(s, c, (d, t) -> new OptimizerLearner(s.optimizer(d, t, impl(vector))));
  }

  @Property
  void globalAdaGradTrajectory(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    Agreement.kernelVsReference(new GlobalAdaGradSubject(c.seed(), c.d(), c.type()), c, impl(vector));
  }

  @Property
  void globalAdaGradSingleStep(@ForAll("singleSteps") Case c, @ForAll boolean vector) {
    Agreement.kernelVsReference(new GlobalAdaGradSubject(c.seed(), c.d(), c.type()), c, impl(vector));
  }

  @Property
  void globalAdaGradSparseEqualsDense(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    Agreement.kernelVsKernel(new GlobalAdaGradSubject(c.seed(), c.d(), c.type()), c.withSparse(false), impl(vector), c.withSparse(true), impl(vector), false);
  }

  @Property
  void aogdBallTrajectory(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    Agreement.kernelVsReference(new AdaptiveOgdSubject(c.seed(), c.d(), c.type(), true), c, impl(vector));
  }

  @Property
  void aogdBallSingleStep(@ForAll("singleSteps") Case c, @ForAll boolean vector) {
    Agreement.kernelVsReference(new AdaptiveOgdSubject(c.seed(), c.d(), c.type(), true), c, impl(vector));
  }

  @Property
  void aogdBallSparseEqualsDense(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    Agreement.kernelVsKernel(new AdaptiveOgdSubject(c.seed(), c.d(), c.type(), true), c.withSparse(false), impl(vector), c.withSparse(true), impl(vector), false);
  }

  @Property
  void aogdCoordinateTrajectory(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    Agreement.kernelVsReference(new AdaptiveOgdSubject(c.seed(), c.d(), c.type(), false), c, impl(vector));
  }

  @Property
  void aogdCoordinateSingleStep(@ForAll("singleSteps") Case c, @ForAll boolean vector) {
    Agreement.kernelVsReference(new AdaptiveOgdSubject(c.seed(), c.d(), c.type(), false), c, impl(vector));
  }

  @Property
  void aogdCoordinateSparseEqualsDense(@ForAll("trajectories") Case c, @ForAll boolean vector) {
    Agreement.kernelVsKernel(new AdaptiveOgdSubject(c.seed(), c.d(), c.type(), false), c.withSparse(false), impl(vector), c.withSparse(true), impl(vector), true);
  }
}
