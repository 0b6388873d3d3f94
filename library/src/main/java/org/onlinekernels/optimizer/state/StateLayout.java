package org.onlinekernels.optimizer.state;

/**
 * How an optimizer lays out the per-coordinate state variables in memory (native byte order either
 * way).
 *
 * <p>{@link #PLANAR} suits dense work: each variable ({@code G}, {@code S2}, ...) is a contiguous
 * block of {@code d} elements, which the SIMD kernels stream. {@link #INTERLEAVED} suits sparse
 * work on large models: all of one coordinate's variables are adjacent (an array of structures, as
 * Vowpal Wabbit strides its weights), so a random coordinate costs one cache miss instead of one
 * per variable. Both give bit-identical results; a checkpoint records the layout (as the name of
 * its one buffer) and loads only into an optimizer of the same layout.
 */
public enum StateLayout {
  /** One block of {@code d} elements per state variable: the dense SIMD kernels' layout. */
  PLANAR,
  /**
   * A coordinate's state variables adjacent. Every rule offers it in float and double with one
   * value per parameter (per-coordinate parameters, {@link Precision#MIXED} and stored weights keep
   * buffers of their own); dense calls on it run the plain-Java sparse body over every coordinate,
   * and {@link org.onlinekernels.optimizer.AbstractOptimizer#state()} returns copies instead of
   * views.
   */
  INTERLEAVED
}
