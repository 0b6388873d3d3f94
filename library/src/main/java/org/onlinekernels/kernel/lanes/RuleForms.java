package org.onlinekernels.kernel.lanes;

import java.lang.foreign.MemorySegment;

/**
 * One rule's generated forms for one element type and provider, behind one interface, so the
 * optimizers' engine runs every rule through the same code. Implemented by the generated {@code
 * <Rule>Forms} adapter; arguments are valid (the optimizer checks them once at its public entry).
 * Uniforms come in {@code u}, in the order the rule declares them (its generated kernel's parameter
 * order), as doubles rounded to the element type inside; {@code vf} or {@code vd} holds a row's
 * values, by element type.
 *
 * <p>Two state shapes: a <b>block</b> (float and double: field {@code f} of coordinate {@code i} at
 * element {@code f * step + i * stride} of one segment, planar or interleaved) and <b>fields</b>
 * (one segment per field, then one per per-coordinate uniform; every flavor).
 */
public interface RuleForms {
  /** Number of state fields per coordinate. */
  int fields();

  /** Whether the weight is computed by the rule (else it is a field, read out as it is). */
  boolean computesWeight();

  /** Index of the weight field, or -1 when the rule computes its weight. */
  int weightField();

  /**
   * Whether this form keeps some uniforms per coordinate (then field arrays hold those buffers
   * too).
   */
  boolean perCoordinate();

  /**
   * Whether {@link #updateDenseStored} exists (a computed weight is the only predict value the
   * update reads).
   */
  boolean storesWeights();

  /** Fused round, predict half, on block state: {@code yhat}; writes only {@code s}. */
  double predictBlock(
      MemorySegment st,
      long step,
      long stride,
      int[] idx,
      float[] vf,
      double[] vd,
      int from,
      int nnz,
      RoundScratch s,
      double[] u);

  /**
   * {@link #predictBlock} summed as a separate sparse predict (its own call, not a round's half):
   * two partial sums, entry {@code j} into sum {@code j mod 2}, the order the kernels' sparse
   * predict has always had.
   */
  double predictBlockSeparate(
      MemorySegment st,
      long step,
      long stride,
      int[] idx,
      float[] vf,
      double[] vd,
      int from,
      int nnz,
      RoundScratch s,
      double[] u);

  /**
   * Writes the predict's new field values kept in {@code s} (a predict whose update is a separate
   * call).
   */
  void commitBlock(
      MemorySegment st, long step, long stride, int[] idx, int from, int nnz, RoundScratch s);

  /** Fused round, update half; returns the rule's row sum, or 0. */
  double updateBlock(
      MemorySegment st,
      long step,
      long stride,
      int[] idx,
      float[] vf,
      double[] vd,
      int from,
      int nnz,
      RoundScratch s,
      double g,
      double[] u);

  /**
   * Update after a committed separate predict (the values it reads recomputed from the state);
   * returns the row sum or 0.
   */
  double updateBlockRecompute(
      MemorySegment st,
      long step,
      long stride,
      int[] idx,
      float[] vf,
      double[] vd,
      int from,
      int nnz,
      double g,
      double[] u);

  /**
   * Fused round, predict half, gathered: the row's records loaded into the scratch's record arrays
   * first, then computed on there (lane-wise on the vector provider), the contributions summed in
   * {@link #predictBlock}'s order; the same bits as {@link #predictBlock}. Writes only {@code s},
   * which must hold {@code kept + fields + 1} arrays (kept values, one per field, contributions).
   */
  double predictGathered(
      MemorySegment st,
      long step,
      long stride,
      int[] idx,
      float[] vf,
      double[] vd,
      int from,
      int nnz,
      RoundScratch s,
      double[] u);

  /**
   * Fused round, update half, after {@link #predictGathered} of the same row: computed on the
   * record arrays, then the changed fields written back; the same bits as {@link #updateBlock}.
   * Returns the rule's row sum, or 0.
   */
  double updateGathered(
      MemorySegment st,
      long step,
      long stride,
      int[] idx,
      float[] vf,
      double[] vd,
      int from,
      int nnz,
      RoundScratch s,
      double g,
      double[] u);

  /** Weight read-out of coordinates {@code [0, n)} of block state into {@code out}. */
  void weightsBlock(MemorySegment st, long step, long stride, MemorySegment out, int n, double[] u);

  /**
   * A predict on one segment per field, summed in two partial sums as {@link
   * #predictBlockSeparate}: the order of every sparse predict on such state, a round's included.
   */
  double predictRows(
      MemorySegment[] f,
      int[] idx,
      float[] vf,
      double[] vd,
      int from,
      int nnz,
      RoundScratch s,
      double[] u);

  /** {@link #commitBlock} on one segment per field. */
  void commitRows(MemorySegment[] f, int[] idx, int from, int nnz, RoundScratch s);

  /** {@link #updateBlock} on one segment per field. */
  double updateRows(
      MemorySegment[] f,
      int[] idx,
      float[] vf,
      double[] vd,
      int from,
      int nnz,
      RoundScratch s,
      double g,
      double[] u);

  /** {@link #updateBlockRecompute} on one segment per field. */
  double updateRowsRecompute(
      MemorySegment[] f,
      int[] idx,
      float[] vf,
      double[] vd,
      int from,
      int nnz,
      double g,
      double[] u);

  /**
   * Dense predict of a computed weight over {@code [0, n)}: commits the predict's field values;
   * {@code w} into {@code wOut} unless null.
   */
  double predictDense(MemorySegment[] f, MemorySegment x, int n, MemorySegment wOut, double[] u);

  /** Dense update over {@code [0, n)}, recomputing the predict values it reads. */
  void updateDense(MemorySegment[] f, MemorySegment x, int n, double g, double[] u);

  /** Dense update with the weights a storing predict wrote to {@code w}. */
  void updateDenseStored(
      MemorySegment[] f, MemorySegment w, MemorySegment x, int n, double g, double[] u);

  /** Dense weight read-out over {@code [0, n)} into {@code out}. */
  void weightsDense(MemorySegment[] f, MemorySegment out, int n, double[] u);
}
