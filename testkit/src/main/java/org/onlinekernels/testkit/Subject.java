package org.onlinekernels.testkit;

import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.reference.ReferenceModel;

/**
 * One algorithm with one parameter draw, seen from both sides: the kernel optimizer under test and
 * the reference oracle, with their state under the same names.
 */
public interface Subject {
  /** Algorithm and parameters, for failure messages. */
  String describe();

  /**
   * The parameters both sides run with (the rule's parameter record, what {@link
   * KernelCheck.Factory} receives). Every subject of the kit gives them; by default none.
   *
   * @throws UnsupportedOperationException for a subject that does not give its parameters
   */
  default Object params() {
    throw new UnsupportedOperationException(describe() + ": the subject gives no parameters");
  }

  /** Largest {@code |g|} the workload feeds (DFEG assumes {@code |g| <= L}). */
  default double gMax() {
    return 1.0;
  }

  /** The kernel optimizer. */
  AbstractOptimizer optimizer(int d, ElementType type, KernelProvider kernels);

  /**
   * The kernel optimizer with its state in {@code layout}, where this parameter draw offers it
   * (every rule, unless it keeps parameters per coordinate or ScInOL2 stores its weights); planar
   * otherwise.
   */
  default AbstractOptimizer optimizer(
      int d, ElementType type, KernelProvider kernels, StateLayout layout) {
    return optimizer(d, type, kernels);
  }

  /**
   * Whether this draw's optimizer runs its fused round on either layout with the same bits (every
   * rule, unless it keeps parameters per coordinate or ScInOL2 stores its weights).
   */
  default boolean fusedRound() {
    return false;
  }

  /**
   * Whether {@link #optimizer(int, ElementType, KernelProvider, StateLayout)} honours the
   * interleaved layout.
   */
  default boolean interleaves() {
    return false;
  }

  /**
   * Whether multiplying feature {@code i} of every row by any {@code c_i > 0} leaves every
   * prediction unchanged in real arithmetic (ScInOL1, ScInOL2), so that {@link
   * Agreement#scaleInvariance} applies.
   */
  default boolean scaleInvariant() {
    return false;
  }

  /**
   * Whether a dense call and the sparse call without the row's zero entries leave bit-identical
   * state (no reduction feeds it: every rule but global AdaGrad and the ball form of Adaptive OGD).
   */
  default boolean sparseStateEqualsDense() {
    return true;
  }

  /** The reference with the same parameters. */
  ReferenceLinearModel reference(int d);

  /**
   * The reference's state buffers (live arrays), named as in {@link AbstractOptimizer#state()}: by
   * default what the reference names itself ({@link ReferenceModel#buffers()}).
   *
   * @throws UnsupportedOperationException for a reference that is not a {@link ReferenceModel}
   *     (such a subject overrides this)
   */
  default Map<String, double[]> referenceState(ReferenceLinearModel r) {
    if (r instanceof ReferenceModel m) {
      return m.buffers();
    }
    throw new UnsupportedOperationException(
        describe() + ": its reference is not a ReferenceModel; the subject names its state");
  }

  /**
   * The reference's scalar state, named as in {@link AbstractOptimizer#scalarState()}: by default
   * what the reference names itself ({@link ReferenceModel#scalars()}), none for another reference.
   */
  default Map<String, Double> referenceScalars(ReferenceLinearModel r) {
    return r instanceof ReferenceModel m ? m.scalars() : Map.of();
  }

  /**
   * True when, in double, the kernel's per-coordinate state performs exactly the reference's
   * operations in the same order (no reduction, no transcendental feeds it), so the state must be
   * bit-identical (a signed zero aside).
   */
  boolean exactStateInDouble();

  /**
   * {@code C} of the state bound {@code C (T + 8) u (P + M)} (see {@link Tolerance}): how much the
   * rule can amplify a relative input error in one round.
   */
  double stateFactor();

  /**
   * {@code C} of the weights' error term in the prediction bound; by default the state factor.
   * Weights that are a function of a reduction (DFEG's {@code ||theta||}) override this.
   */
  default double predictionFactor(ReferenceLinearModel r, int d, Map<String, Tracker> scalarPaths) {
    return stateFactor();
  }

  /**
   * Error of the prediction that the weights' generic term does not see, given the bound each state
   * element is held to at this point ({@code stateBound[buffer][i]}: the generic state bound plus
   * {@link #accumulateExtra}'s): for weights that are an ill-conditioned function of a buffer,
   * whose error reaches them whatever their size (FTRL's soft threshold). By default none.
   *
   * @param x the instance's dense values
   */
  default double predictionExtra(
      ReferenceLinearModel r, double[] x, Map<String, double[]> stateBound) {
    return 0;
  }

  /**
   * Called after the reference's state was rounded to the element type, before both sides start
   * from it: re-derive any scalar that summarises the buffers (DFEG's {@code ||theta||^2}).
   */
  default void settle(ReferenceLinearModel r) {}

  /**
   * Extra per-element error that the generic bound does not see, accumulated each round before the
   * update into {@code extra[buffer][i]} (added to that buffer's tolerance); by default none.
   *
   * @param paths the reference state's path trackers, by buffer name
   */
  default void accumulateExtra(
      Map<String, double[]> extra,
      ReferenceLinearModel r,
      Map<String, Tracker> paths,
      double g,
      double[] x,
      int round,
      double u) {}
}
