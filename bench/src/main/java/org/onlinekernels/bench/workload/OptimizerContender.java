package org.onlinekernels.bench.workload;

import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.trainer.AlgorithmSpec;

/**
 * A user's own loop over the library's optimizers, one per output: made by {@code
 * AlgorithmSpec.of(rule).create} with the library's defaults, default input policy ({@code
 * CHECKED}), state {@link StateLayout#INTERLEAVED} as {@code OnlineTrainer} keeps it for sparse
 * rows (so the contenders sum every prediction in the same order and give the trainer's bits).
 * Subclasses say how a pass calls them.
 */
abstract class OptimizerContender implements Contender {
  /** The rows. */
  protected final Workload wl;

  /** One optimizer per output, made by {@link #reset}. */
  protected final LinearModelOptimizer[] opt;

  private final AlgorithmSpec spec;
  private final ElementType type;

  OptimizerContender(Workload wl, String rule, ElementType type) {
    this.wl = wl;
    this.spec = AlgorithmSpec.of(rule);
    this.type = type;
    this.opt = new LinearModelOptimizer[wl.outputs];
  }

  @Override
  public void reset() {
    closeOptimizers();
    for (int k = 0; k < opt.length; k++) {
      opt[k] = spec.create(wl.d, type, StateLayout.INTERLEAVED, null, null);
    }
  }

  private void closeOptimizers() {
    for (int k = 0; k < opt.length; k++) {
      if (opt[k] != null) {
        opt[k].close();
        opt[k] = null;
      }
    }
  }

  @Override
  public void close() {
    closeOptimizers();
  }
}
