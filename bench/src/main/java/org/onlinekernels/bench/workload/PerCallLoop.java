package org.onlinekernels.bench.workload;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.trainer.AlgorithmSpec;

/**
 * The minimal user loop over the optimizers, as the README's example writes it: per row, pack
 * the indices and values into two segments allocated once, then per output
 * {@code predictSparse}, {@code Loss.LOGISTIC} value and derivative, {@code update}. Optimizers
 * made by {@code AlgorithmSpec.of(algorithm).create} (the library's defaults), default input
 * policy ({@code CHECKED}).
 */
public final class OptimizerLoop implements Contender {
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT;
  private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT;
  private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE;

  private final Workload wl;
  private final AlgorithmSpec spec;
  private final ElementType type;
  private final Arena arena = Arena.ofConfined();
  private final MemorySegment xi;
  private final MemorySegment xv;
  private final LinearModelOptimizer[] opt;

  /** Buffers for the workload's largest row; the optimizers are made by {@link #reset}. */
  public OptimizerLoop(Workload wl, String algorithm, ElementType type) {
    this.wl = wl;
    this.spec = AlgorithmSpec.of(algorithm);
    this.type = type;
    this.xi = arena.allocate(I, wl.maxNnz);
    this.xv = arena.allocate((long) wl.maxNnz * type.bytes(), 64);
    this.opt = new LinearModelOptimizer[wl.outputs];
  }

  @Override
  public void reset() {
    closeOptimizers();
    for (int k = 0; k < opt.length; k++) opt[k] = spec.create(wl.d, type, null);
  }

  @Override
  public double pass() {
    final int[] start = wl.start;
    final int[] idx = wl.idx;
    final boolean isFloat = type == ElementType.FLOAT;
    final float[] vf = wl.floatValues;
    final double[] vd = wl.doubleValues;
    double lossSum = 0;
    for (int r = 0; r < wl.n; r++) {
      int s = start[r];
      int nnz = start[r + 1] - s;
      for (int j = 0; j < nnz; j++) {
        xi.setAtIndex(I, j, idx[s + j]);
        if (isFloat) xv.setAtIndex(F, j, vf[s + j]);
        else xv.setAtIndex(D, j, vd[s + j]);
      }
      double rowLoss = 0;
      for (int k = 0; k < opt.length; k++) {
        double y = wl.target(r, k);
        double yhat = opt[k].predictSparse(xi, xv, nnz);
        rowLoss += Loss.LOGISTIC.value(y, yhat);
        opt[k].update(Loss.LOGISTIC.derivative(y, yhat));
      }
      lossSum += rowLoss;
    }
    return lossSum / wl.n;
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
    if (arena.scope().isAlive()) arena.close();
  }
}
