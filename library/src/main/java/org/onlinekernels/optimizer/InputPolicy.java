package org.onlinekernels.optimizer;

import org.onlinekernels.kernel.ElementType;

/**
 * What an optimizer checks of the vector input (instances {@code x}, gradients, sparse values)
 * before it changes any state. Scalars ({@code g}, {@code H_t}) and shapes (sizes, sparse indices,
 * closed or read-only segments, threads) are checked under both policies.
 *
 * <p>Set with {@link AbstractOptimizer#setInputPolicy}; {@link #CHECKED} is the default.
 */
public enum InputPolicy {
  /**
   * Every input vector is scanned once ({@link
   * org.onlinekernels.kernel.LinearAlgebraKernel#maxAbs}, vectorized) and the call is refused with
   * {@link IllegalArgumentException}, state unchanged, when an element is NaN or infinite or its
   * magnitude exceeds {@link #magnitudeLimit}; at {@code update(g)} also when {@code |g|} or {@code
   * |g| * max|x_i|} exceeds it. The limit keeps every square of a gradient entry, and 2^40 rounds
   * of them summed, inside the element type's range, so a single accepted call cannot overflow an
   * accumulator.
   */
  CHECKED,
  /**
   * No scan: the caller promises finite inputs of moderate size and saves one read pass per call. A
   * NaN or infinity that gets in spreads into the state for good (e.g. AdaGrad's {@code Q} and
   * {@code w}, ScInOL's {@code G} and {@code S2}, DFEG's {@code theta}); later predictions are then
   * NaN and only {@link AbstractOptimizer#reset} or loading a checkpoint recovers.
   */
  TRUSTED;

  /**
   * Largest accepted magnitude of an input element and of {@code g * x_i} under {@link #CHECKED}:
   * {@code 2^40} (about {@code 1.1e12}) for float, {@code 2^480} (about {@code 3.1e144}) for
   * double.
   */
  public static double magnitudeLimit(ElementType type) {
    return type == ElementType.FLOAT ? FLOAT_LIMIT : DOUBLE_LIMIT;
  }

  private static final double FLOAT_LIMIT = 0x1p40;
  private static final double DOUBLE_LIMIT = 0x1p480;

  /**
   * The largest weight magnitude of float rules whose weights have no smaller bound of their own
   * (FTRL-Proximal, KT, FreeGrad): {@code 2^56}. A prediction sums fewer than {@code 2^31} products
   * of such a weight and an input within {@link #magnitudeLimit} ({@code 2^40}), so it is below
   * {@code 2^127} and finite under {@link #CHECKED}, whatever the dimension and the parameters.
   */
  public static final double FLOAT_WEIGHT_BOUND = 0x1p56;

  /**
   * {@link #FLOAT_WEIGHT_BOUND} for double state and the double references: {@code 2^512} (inputs
   * up to {@code 2^480}, fewer than {@code 2^31} products: below {@code 2^1023}).
   */
  public static final double DOUBLE_WEIGHT_BOUND = 0x1p512;

  /** {@link #FLOAT_WEIGHT_BOUND} or {@link #DOUBLE_WEIGHT_BOUND}, by element type. */
  public static double weightBound(ElementType type) {
    return type == ElementType.FLOAT ? FLOAT_WEIGHT_BOUND : DOUBLE_WEIGHT_BOUND;
  }
}
