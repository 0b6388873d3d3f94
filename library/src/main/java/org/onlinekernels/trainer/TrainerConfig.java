package org.onlinekernels.trainer;

import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;

/**
 * What one training run does.
 *
 * @param algorithm algorithm and parameters
 * @param type element type of the optimizers' state and of the packed input rows
 * @param loss loss minimised (and reported); binary labels {@code +1/-1}, multiclass one-vs-rest
 * @param epochs passes over the training data, {@code >= 1}
 * @param seed seed of the shuffling
 * @param shuffle whether every epoch visits the rows in a fresh seeded random order ({@code false}:
 *     file order every epoch)
 * @param dense whether rows are packed into a dense {@code d}-element segment and the optimizers'
 *     dense {@code predict} is used, instead of the sparse index/value segments and {@code
 *     predictSparse}
 * @param inputPolicy whether every row is scanned for non-finite or too large values before it is
 *     used ({@link InputPolicy#CHECKED}, the default) or trusted; rows read by {@code LibSvmReader}
 *     are already finite
 * @param precision the optimizers' precision: {@code Precision.of(type)}, or {@link
 *     Precision#MIXED} with {@code type} FLOAT (float weights and inputs, double accumulators;
 *     {@link AlgorithmSpec#MIXED} lists the algorithms that have it)
 */
public record TrainerConfig(
    AlgorithmSpec algorithm,
    ElementType type,
    Loss loss,
    int epochs,
    long seed,
    boolean shuffle,
    boolean dense,
    InputPolicy inputPolicy,
    Precision precision) {
  /** Validates. */
  public TrainerConfig {
    if (algorithm == null
        || type == null
        || loss == null
        || inputPolicy == null
        || precision == null) {
      throw new IllegalArgumentException(
          "algorithm, element type, loss, input policy and precision must be given");
    }
    if (precision.inputType() != type) {
      throw new IllegalArgumentException(
          "precision " + precision + " has " + precision.inputType() + " inputs, not " + type);
    }
    if (epochs < 1) {
      throw new IllegalArgumentException("epochs must be at least 1, got " + epochs);
    }
  }

  /** The configuration with the default input policy, {@link InputPolicy#CHECKED}. */
  public TrainerConfig(
      AlgorithmSpec algorithm,
      ElementType type,
      Loss loss,
      int epochs,
      long seed,
      boolean shuffle,
      boolean dense) {
    this(algorithm, type, loss, epochs, seed, shuffle, dense, InputPolicy.CHECKED);
  }

  /** The configuration with every buffer of element type {@code type}. */
  public TrainerConfig(
      AlgorithmSpec algorithm,
      ElementType type,
      Loss loss,
      int epochs,
      long seed,
      boolean shuffle,
      boolean dense,
      InputPolicy inputPolicy) {
    this(algorithm, type, loss, epochs, seed, shuffle, dense, inputPolicy, Precision.of(type));
  }

  /** Same with another precision (and the element type of its inputs). */
  public TrainerConfig withPrecision(Precision p) {
    return new TrainerConfig(
        algorithm, p.inputType(), loss, epochs, seed, shuffle, dense, inputPolicy, p);
  }

  /** {@code algorithm} with float elements, logistic loss, one shuffled (seed 1) sparse pass. */
  public static TrainerConfig of(AlgorithmSpec algorithm) {
    return new TrainerConfig(algorithm, ElementType.FLOAT, Loss.LOGISTIC, 1, 1, true, false);
  }

  /** Same with another element type. */
  public TrainerConfig withType(ElementType t) {
    return new TrainerConfig(
        algorithm, t, loss, epochs, seed, shuffle, dense, inputPolicy, Precision.of(t));
  }

  /** Same with another loss. */
  public TrainerConfig withLoss(Loss l) {
    return new TrainerConfig(
        algorithm, type, l, epochs, seed, shuffle, dense, inputPolicy, precision);
  }

  /** Same with another number of epochs. */
  public TrainerConfig withEpochs(int e) {
    return new TrainerConfig(
        algorithm, type, loss, e, seed, shuffle, dense, inputPolicy, precision);
  }

  /** Same with another seed and shuffling on or off. */
  public TrainerConfig withShuffle(boolean s, long seedValue) {
    return new TrainerConfig(
        algorithm, type, loss, epochs, seedValue, s, dense, inputPolicy, precision);
  }

  /** Same with dense or sparse rows. */
  public TrainerConfig withDense(boolean d) {
    return new TrainerConfig(
        algorithm, type, loss, epochs, seed, shuffle, d, inputPolicy, precision);
  }

  /** Same with another input policy. */
  public TrainerConfig withInputPolicy(InputPolicy p) {
    return new TrainerConfig(algorithm, type, loss, epochs, seed, shuffle, dense, p, precision);
  }

  /**
   * The optimizers' state layout for this configuration: interleaved for sparse rows (a random
   * coordinate is one cache line), planar for dense rows (the SIMD kernels' layout). The parallel
   * and Spark trainers keep planar state instead, on which the merge rules act.
   */
  public StateLayout stateLayout() {
    return dense ? StateLayout.PLANAR : StateLayout.INTERLEAVED;
  }
}
