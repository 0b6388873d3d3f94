package org.onlinekernels.spark;

import java.io.Serializable;
import java.util.List;
import java.util.Locale;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * What a Spark job trains, as names and numbers that travel to the executors ({@link TrainerConfig}
 * and {@link AlgorithmSpec} are not serializable).
 *
 * @param algorithm algorithm name (one of {@link AlgorithmSpec#NAMES} with a merge rule: not {@code
 *     ogd})
 * @param params parameters as {@code name=value,...} (may be empty)
 * @param type {@code float}, {@code double} or {@code mixed} (float weights and inputs, double
 *     accumulators)
 * @param loss loss name
 * @param epochs passes over the data
 * @param seed seed of the per-partition shuffles
 * @param shuffle whether each partition's rows are shuffled every pass
 * @param mergeEvery examples (all partitions together) between merges; 0: one merge per pass
 */
public record JobSpec(
    String algorithm,
    String params,
    String type,
    String loss,
    int epochs,
    long seed,
    boolean shuffle,
    int mergeEvery)
    implements Serializable {
  private static final long serialVersionUID = 2L;

  /** Validates everything a configuration can refuse, here on the driver. */
  public JobSpec {
    if (mergeEvery < 0) {
      throw new IllegalArgumentException(
          "the merge period must be >= 0 examples (0: once per pass), got " + mergeEvery);
    }
    if ("ogd".equals(algorithm)) {
      throw new IllegalArgumentException(
          "ogd has no merge rule (docs/MERGING.md); choose one of the library's rules");
    }
    // The fields are assigned after this body: build the configuration from the parameters.
    TrainerConfig c = config(algorithm, params, type, loss, epochs, seed, shuffle);
    // Parameter values are checked by the rule when it is created: here, not in an executor.
    try (LinearModelOptimizer probe =
        c.algorithm().create(1, c.precision(), StateLayout.PLANAR, null, null)) {
      probe.dimension();
    }
  }

  /** The spec of a trainer configuration, merged once per epoch. */
  public static JobSpec of(TrainerConfig c) {
    return of(c, 0);
  }

  /** The spec of a trainer configuration, merged every {@code mergeEvery} examples. */
  public static JobSpec of(TrainerConfig c, int mergeEvery) {
    String type =
        c.precision() == Precision.MIXED ? "mixed" : c.type().name().toLowerCase(Locale.ROOT);
    return new JobSpec(
        c.algorithm().name(),
        c.algorithm().paramString(),
        type,
        c.loss().name().toLowerCase(Locale.ROOT),
        c.epochs(),
        c.seed(),
        c.shuffle(),
        mergeEvery);
  }

  /** The trainer configuration again. */
  public TrainerConfig config() {
    return config(algorithm, params, type, loss, epochs, seed, shuffle);
  }

  private static TrainerConfig config(
      String algorithm,
      String params,
      String type,
      String loss,
      int epochs,
      long seed,
      boolean shuffle) {
    if (algorithm == null || params == null || type == null || loss == null) {
      throw new IllegalArgumentException(
          "algorithm, params, type and loss must be given (params may be empty)");
    }
    AlgorithmSpec spec = AlgorithmSpec.parse(algorithm, List.of(params));
    Precision p = precision(type);
    return new TrainerConfig(spec, p.inputType(), Loss.parse(loss), epochs, seed, shuffle, false)
        .withPrecision(p);
  }

  /** {@code float}, {@code double} or {@code mixed}. */
  static Precision precision(String type) {
    if ("mixed".equals(type)) {
      return Precision.MIXED;
    }
    return Precision.of(ElementType.parse(type));
  }

  /** Same with another number of epochs. */
  public JobSpec withEpochs(int e) {
    return new JobSpec(algorithm, params, type, loss, e, seed, shuffle, mergeEvery);
  }
}
