package org.onlinekernels.spark;

import java.io.Serializable;
import java.util.List;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * What the executors need to rebuild the trainer's configuration: {@link TrainerConfig} and
 * {@link AlgorithmSpec} are not serializable, their names and numbers are.
 *
 * @param algorithm algorithm name (see {@link AlgorithmSpec#NAMES}; not {@code ogd})
 * @param params parameters as {@code name=value,...} (may be empty)
 * @param type element type name ({@code float} or {@code double})
 * @param loss loss name
 * @param epochs passes over the data, each ending in a merge
 * @param seed seed of the per-partition shuffles
 * @param shuffle whether each partition's rows are shuffled every epoch
 */
public record JobSpec(String algorithm, String params, String type, String loss, int epochs, long seed, boolean shuffle)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The spec of a trainer configuration. */
  public static JobSpec of(TrainerConfig c) {
    return new JobSpec(c.algorithm().name(), c.algorithm().paramString(), c.type().name(), c.loss().name(),
        c.epochs(), c.seed(), c.shuffle());
  }

  /** The trainer configuration again. */
  public TrainerConfig config() {
    AlgorithmSpec spec = AlgorithmSpec.parse(algorithm, List.of(params));
    return new TrainerConfig(spec, ElementType.parse(type), Loss.parse(loss), epochs, seed, shuffle, false);
  }
}
