package org.onlinekernels.optimizer;

import java.lang.foreign.MemorySegment;

/**
 * An online convex optimisation learner (gradient form): the caller passes the gradient {@code g_t}
 * itself. Every gradient-form algorithm is also a {@link LinearModelOptimizer} whose gradient is
 * {@code g * x}.
 */
public interface GradientOptimizer extends LinearModelOptimizer {
  /** One step with the dense gradient {@code g} ({@link #dimension()} elements). */
  void step(MemorySegment gradient);

  /** One step with a sparse gradient. */
  void stepSparse(MemorySegment indices, MemorySegment values, int nnz);
}
