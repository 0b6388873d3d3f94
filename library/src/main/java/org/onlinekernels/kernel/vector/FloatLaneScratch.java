package org.onlinekernels.kernel.vector;

/**
 * Per-thread lane buffers for the sparse kernels. The Vector API has no gather from a
 * {@code MemorySegment}, so a sparse kernel loads one vector's worth of state at the listed
 * indices into these arrays with scalar loads, does all the math as vectors, and scatters the
 * results back. (Reductions spill into
 * {@link org.onlinekernels.kernel.scalar.FloatVirtualLanes#scratch}.) Source of the generated
 * {@code Double} twin: edit only this file.
 */
final class FloatLaneScratch {
  /** Number of gathered state streams a kernel may use at once. */
  static final int STREAMS = 5;

  private static final ThreadLocal<FloatLaneScratch> LOCAL = ThreadLocal.withInitial(FloatLaneScratch::new);

  final float[][] lanes;
  final int[] idx;

  private FloatLaneScratch() {
    int n = VectorConstants.FLOAT_SPECIES.length();
    lanes = new float[STREAMS][n];
    idx = new int[n];
  }

  /** This thread's buffers (allocated once per thread, never per call). */
  static FloatLaneScratch get() {
    return LOCAL.get();
  }
}
