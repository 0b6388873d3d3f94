package org.onlinekernels.trainer.parallel;

import java.lang.foreign.Arena;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * {@link ParallelTrainer}'s learners: thread {@code j}'s learner of output {@code c}, for {@code T}
 * threads and {@code k} outputs, their state in a shared arena (a merge reads every learner from
 * every thread). A thread may replace its own learners in place ({@link MixingHandover}); the
 * per-output lists a merge takes are views that follow.
 */
final class Learners implements AutoCloseable {
  /** all[j][c]: thread j's learner of output c. */
  private final AbstractOptimizer[][] all;

  private final Arena first = Arena.ofShared();
  private final List<List<AbstractOptimizer>> byOutput = new ArrayList<>();

  /**
   * {@code threads} x {@code k} learners of {@code config} and dimension {@code d} on {@code
   * kernels} (null: the chosen ones).
   *
   * @throws IllegalArgumentException for a rule that is not one of the library's (no merge rule)
   */
  Learners(TrainerConfig config, int d, int threads, int k, KernelProvider kernels) {
    this.all = new AbstractOptimizer[threads][k];
    try {
      for (int j = 0; j < threads; j++) {
        for (int c = 0; c < k; c++) {
          LinearModelOptimizer o =
              config
                  .algorithm()
                  .create(d, config.precision(), config.stateLayout(), first, kernels);
          if (!(o instanceof AbstractOptimizer a)) {
            o.close();
            throw new IllegalArgumentException(
                "algorithm "
                    + config.algorithm().name()
                    + " has no merge rule (docs/MERGING.md); the parallel trainer needs one of the library's optimizers");
          }
          all[j][c] = a;
          a.setInputPolicy(config.inputPolicy());
        }
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    for (int c = 0; c < k; c++) {
      int out = c;
      byOutput.add(
          new AbstractList<>() {
            @Override
            public AbstractOptimizer get(int j) {
              return all[j][out];
            }

            @Override
            public int size() {
              return threads;
            }
          });
    }
  }

  /** Thread {@code j}'s learners, one per output (the array its handover replaces them in). */
  AbstractOptimizer[] of(int j) {
    return all[j];
  }

  /** Output {@code c}'s learners, thread after thread, as a merge takes them. */
  List<AbstractOptimizer> output(int c) {
    return byOutput.get(c);
  }

  /** The kernels every learner runs on now, thread after thread, output after output. */
  List<KernelProvider> kernels() {
    List<KernelProvider> k = new ArrayList<>();
    for (AbstractOptimizer[] row : all) {
      for (AbstractOptimizer o : row) {
        k.add(o.kernels());
      }
    }
    return Collections.unmodifiableList(k);
  }

  /** Frees the state the learners were made with, once every learner has been replaced. */
  void freeFirst() {
    first.close();
  }

  @Override
  public void close() {
    for (AbstractOptimizer[] row : all) {
      for (AbstractOptimizer o : row) {
        if (o != null) {
          o.close();
        }
      }
    }
    if (first.scope().isAlive()) {
      first.close();
    }
  }
}
