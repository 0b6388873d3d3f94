package org.onlinekernels.kernel.lanes;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Per-thread arrays for the public kernels' sparse entries: the row copied out of the caller's
 * segments (the row forms take arrays, see the generated forms for why) and the per-entry values a
 * predict computes. Grown to the longest row seen, never shrunk; no allocation once grown.
 */
public final class RowScratch {
  private static final ThreadLocal<RowScratch> SCRATCH = ThreadLocal.withInitial(RowScratch::new);
  private static final int VALUES = 4;

  private int[] indices = new int[0];
  private float[] floats = new float[0];
  private double[] doubles = new double[0];
  private final float[][] floatValues = new float[VALUES][0];
  private final double[][] doubleValues = new double[VALUES][0];

  private RowScratch() {}

  /** This thread's scratch. */
  public static RowScratch get() {
    return SCRATCH.get();
  }

  private static int grow(int have, int need) {
    return Math.max(need, (int) Math.min(Integer.MAX_VALUE - 8, 2L * have));
  }

  /** The first {@code nnz} indices of {@code idx}, copied. */
  public int[] indices(MemorySegment idx, int nnz) {
    if (indices.length < nnz) {
      indices = new int[grow(indices.length, nnz)];
    }
    MemorySegment.copy(idx, ValueLayout.JAVA_INT_UNALIGNED, 0, indices, 0, nnz);
    return indices;
  }

  /** The first {@code nnz} floats of {@code val}, copied. */
  public float[] floats(MemorySegment val, int nnz) {
    if (floats.length < nnz) {
      floats = new float[grow(floats.length, nnz)];
    }
    MemorySegment.copy(val, ValueLayout.JAVA_FLOAT_UNALIGNED, 0, floats, 0, nnz);
    return floats;
  }

  /** The first {@code nnz} doubles of {@code val}, copied. */
  public double[] doubles(MemorySegment val, int nnz) {
    if (doubles.length < nnz) {
      doubles = new double[grow(doubles.length, nnz)];
    }
    MemorySegment.copy(val, ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, doubles, 0, nnz);
    return doubles;
  }

  private java.lang.foreign.MemorySegment dense = MemorySegment.ofArray(new double[0]);

  /**
   * A zeroed segment of at least {@code n} doubles (also read as {@code 2n} floats): a sparse row
   * scattered into it becomes the dense input of a rule that updates every coordinate; the caller
   * zeroes what it wrote before it returns.
   */
  public MemorySegment dense(int n) {
    if (dense.byteSize() < (long) n * Double.BYTES) {
      dense = MemorySegment.ofArray(new double[n]);
    }
    return dense;
  }

  /** Per-entry float array {@code k} (of {@value #VALUES}), at least {@code nnz} long. */
  public float[] floatValues(int k, int nnz) {
    if (floatValues[k].length < nnz) {
      floatValues[k] = new float[grow(floatValues[k].length, nnz)];
    }
    return floatValues[k];
  }

  /** Per-entry double array {@code k}, at least {@code nnz} long. */
  public double[] doubleValues(int k, int nnz) {
    if (doubleValues[k].length < nnz) {
      doubleValues[k] = new double[grow(doubleValues[k].length, nnz)];
    }
    return doubleValues[k];
  }
}
