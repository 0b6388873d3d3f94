package org.onlinekernels.trainer;

/** How a training run used its threads (docs/parallel/README.md). */
public enum TrainingMode {
  /** One thread, {@link OnlineTrainer}. */
  SEQUENTIAL,
  /**
   * Shared-state ("Hogwild") training: the threads update one state, lock-free where the rule
   * allows ({@code trainer.parallel.SharedStateTrainer}); fastest, not reproducible run to run.
   */
  SHARED,
  /**
   * Iterative parameter mixing: each thread trains its own learners, merged every {@code N}
   * examples ({@code trainer.parallel.ParallelTrainer}); bit-reproducible for fixed threads and
   * {@code N}.
   */
  MIXING;

  /** The name in the command line's JSON: {@code sequential}, {@code shared} or {@code mixing}. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
