package org.onlinekernels.bench.workload;

import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * {@code OnlineTrainer}, the library's own loop: one sparse pass in file order ({@code
 * withShuffle(false, 1)}), logistic loss, the given input policy ({@code CHECKED} is the default;
 * {@code TRUSTED} skips the input scan). A fresh trainer per pass, as a user training a new model
 * would make one.
 */
public final class TrainerContender implements Contender {
  private final Workload wl;
  private final TrainerConfig config;
  private OnlineTrainer trainer;

  /** The kernels the last pass ended on ({@link OnlineTrainer#kernels}); null before one. */
  private String kernels;

  /** {@code algorithm} with its defaults ({@code AlgorithmSpec.of}). */
  public TrainerContender(Workload wl, String algorithm, ElementType type, InputPolicy policy) {
    this.wl = wl;
    this.config =
        TrainerConfig.of(AlgorithmSpec.of(algorithm))
            .withType(type)
            .withShuffle(false, 1)
            .withInputPolicy(policy);
  }

  @Override
  public void reset() {
    close();
    trainer = new OnlineTrainer(config, wl.d, wl.multiclass, wl.outputs);
  }

  @Override
  public double pass() {
    double loss = trainer.fit(wl.prepared, null, 0, null)[0].meanLoss();
    kernels = trainer.kernels();
    return loss;
  }

  /** The kernels the last pass ended on: {@code vector} or {@code scalar} (null before one). */
  public String kernels() {
    return kernels;
  }

  @Override
  public void close() {
    if (trainer != null) {
      trainer.close();
      trainer = null;
    }
  }
}
