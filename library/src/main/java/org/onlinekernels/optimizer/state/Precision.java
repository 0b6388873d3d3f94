package org.onlinekernels.optimizer.state;

import org.onlinekernels.kernel.ElementType;

/**
 * Precision of an optimizer's buffers. {@link #FLOAT} and {@link #DOUBLE} use one element type for
 * every buffer; {@link #MIXED} keeps weights and inputs in {@code float} (half the memory traffic
 * of double for {@code w} and {@code x}) and the accumulators in {@code double}, so long runs do
 * not stall (docs/GUARANTEES.md, "Long runs in float"). Offered by the rules whose {@link
 * org.onlinekernels.optimizer.RuleInfo#mixed()} is true (AdaGrad, and ScInOL2 in recompute mode).
 */
public enum Precision {
  /** Every buffer float. */
  FLOAT,
  /** Every buffer double. */
  DOUBLE,
  /**
   * Inputs ({@code x}, gradients, sparse values), weights and the box in float; accumulators
   * ({@code Q}; {@code G}, {@code S2}, the wealth {@code eta}) in double, all arithmetic in double.
   * The optimizer's {@link org.onlinekernels.optimizer.AbstractOptimizer#elementType()} (of inputs
   * and of {@code readWeights}) is {@link ElementType#FLOAT}; {@link
   * org.onlinekernels.optimizer.AbstractOptimizer#state()} holds double buffers for the
   * accumulators (see {@link org.onlinekernels.optimizer.AbstractOptimizer#stateType}).
   */
  MIXED;

  /** The precision whose buffers all have element type {@code t}. */
  public static Precision of(ElementType t) {
    if (t == null) {
      throw new IllegalArgumentException("element type must be FLOAT or DOUBLE, got null");
    }
    return t == ElementType.FLOAT ? FLOAT : DOUBLE;
  }

  /** Element type of inputs and weights: FLOAT for {@link #FLOAT} and {@link #MIXED}. */
  public ElementType inputType() {
    return this == DOUBLE ? ElementType.DOUBLE : ElementType.FLOAT;
  }

  /** Element type of the accumulators: DOUBLE for {@link #DOUBLE} and {@link #MIXED}. */
  public ElementType accumulatorType() {
    return this == FLOAT ? ElementType.FLOAT : ElementType.DOUBLE;
  }
}
