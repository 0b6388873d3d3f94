package org.onlinekernels.testkit;

import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.ElementType;

/**
 * One example as the kit hands it to a {@link Learner}: the same values as arrays (for plain Java
 * code) and as segments of the case's element type, native or heap, at the case's byte offset (for
 * code that takes {@link MemorySegment}s, e.g. through FFM). Values are already rounded to the
 * element type; sparse indices are strictly increasing and may carry explicit {@code 0} and {@code
 * -0.0}, which mean the same as an absent entry. Treat every array as read-only.
 */
public final class Row {
  private final int round;
  private final boolean sparse;
  private final double[] dense;
  private final int[] idx;
  private final double[] val;
  private final Buffers buffers;
  private MemorySegment denseSegment;
  private MemorySegment indexSegment;
  private MemorySegment valueSegment;

  private Row(int round, boolean sparse, double[] dense, int[] idx, double[] val, Buffers buffers) {
    this.round = round;
    this.sparse = sparse;
    this.dense = dense;
    this.idx = idx;
    this.val = val;
    this.buffers = buffers;
  }

  /**
   * Round {@code r} of {@code wl}, to be fed {@code sparse} or dense, its segments made by {@code
   * buffers}.
   */
  public static Row of(Workload wl, int r, boolean sparse, Buffers buffers) {
    return new Row(r, sparse, wl.dense[r], wl.idx[r], wl.val[r], buffers);
  }

  /** The round's number in its case (warm-up rounds included), e.g. to pick a label. */
  public int round() {
    return round;
  }

  /**
   * Whether the kit asks for the sparse form ({@link #indices}, {@link #values}) rather than the
   * dense one.
   */
  public boolean sparse() {
    return sparse;
  }

  /** The element type of the values and segments. */
  public ElementType type() {
    return buffers.type();
  }

  /** The dimension {@code d}. */
  public int dimension() {
    return dense.length;
  }

  /** The dense form: {@code d} values, zeros included. */
  public double[] dense() {
    return dense;
  }

  /** The sparse indices (strictly increasing), {@link #nnz} of them. */
  public int[] indices() {
    return idx;
  }

  /** The sparse values, aligned with {@link #indices}. */
  public double[] values() {
    return val;
  }

  /** The number of sparse entries. */
  public int nnz() {
    return idx.length;
  }

  /** The dense form as {@code d} elements of {@link #type}, native byte order. */
  public MemorySegment denseSegment() {
    if (denseSegment == null) {
      denseSegment = buffers.of(dense);
    }
    return denseSegment;
  }

  /** The sparse indices as {@code int}s, native byte order. */
  public MemorySegment indexSegment() {
    if (indexSegment == null) {
      indexSegment = buffers.ints(idx);
    }
    return indexSegment;
  }

  /** The sparse values as elements of {@link #type}, native byte order. */
  public MemorySegment valueSegment() {
    if (valueSegment == null) {
      valueSegment = buffers.of(val);
    }
    return valueSegment;
  }
}
