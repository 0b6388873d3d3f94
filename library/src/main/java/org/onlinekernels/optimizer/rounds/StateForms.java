package org.onlinekernels.optimizer.rounds;

import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.lanes.RoundScratch;
import org.onlinekernels.kernel.lanes.RuleForms;

/**
 * A rule's row forms bound to one {@link org.onlinekernels.optimizer.RuleOptimizer}'s state: each
 * call picks the block form (the fields in one block, planar or interleaved, at {@code step} and
 * {@code stride}) or the per-buffer form (one segment per field), so the optimizer says once what a
 * path does, not once per layout. The entries of a row are {@code idx[from..from+nnz)} with values
 * in {@code vf} or {@code vd}; {@code u} is the optimizer's uniforms array, read at every call.
 */
public final class StateForms {
  private final RuleForms forms;
  private final MemorySegment block;
  private final long step;
  private final long stride;
  private final MemorySegment[] segments;
  private final RoundScratch scratch;
  private final double[] u;

  public StateForms(RuleForms forms, RuleStorage storage, RoundScratch scratch, double[] u) {
    this.forms = forms;
    this.block = storage.block;
    this.step = storage.step;
    this.stride = storage.stride;
    this.segments = storage.segments;
    this.scratch = scratch;
    this.u = u;
  }

  /** Whether the fields live in one block. */
  public boolean isBlock() {
    return block != null;
  }

  /**
   * The predict half: the row's sum, its kept values in the scratch; {@code gathered}: the block's
   * records gathered into the scratch's arrays first (block state only).
   */
  public double predict(int[] idx, float[] vf, double[] vd, int from, int nnz, boolean gathered) {
    if (block == null) {
      return forms.predictRows(segments, idx, vf, vd, from, nnz, scratch, u);
    }
    return gathered
        ? forms.predictGathered(block, step, stride, idx, vf, vd, from, nnz, scratch, u)
        : forms.predictBlock(block, step, stride, idx, vf, vd, from, nnz, scratch, u);
  }

  /** The predict half as a separate sparse predict sums on planar block state. */
  public double predictSeparate(int[] idx, float[] vf, double[] vd, int from, int nnz) {
    return block == null
        ? forms.predictRows(segments, idx, vf, vd, from, nnz, scratch, u)
        : forms.predictBlockSeparate(block, step, stride, idx, vf, vd, from, nnz, scratch, u);
  }

  /** Writes the predict's new field values (the kept values in the scratch) to the state. */
  public void commit(int[] idx, int from, int nnz) {
    if (block == null) {
      forms.commitRows(segments, idx, from, nnz, scratch);
    } else {
      forms.commitBlock(block, step, stride, idx, from, nnz, scratch);
    }
  }

  /**
   * The update half on the kept values of the predict of the same entries; returns the rule's row
   * sum. {@code gathered}: from the scratch's record arrays (after a gathered predict).
   */
  public double update(
      int[] idx, float[] vf, double[] vd, int from, int nnz, double g, boolean gathered) {
    if (block == null) {
      return forms.updateRows(segments, idx, vf, vd, from, nnz, scratch, g, u);
    }
    return gathered
        ? forms.updateGathered(block, step, stride, idx, vf, vd, from, nnz, scratch, g, u)
        : forms.updateBlock(block, step, stride, idx, vf, vd, from, nnz, scratch, g, u);
  }

  /** The update without a predict before it: recomputes what the predict would have kept. */
  public double updateRecompute(int[] idx, float[] vf, double[] vd, int from, int nnz, double g) {
    return block == null
        ? forms.updateRowsRecompute(segments, idx, vf, vd, from, nnz, g, u)
        : forms.updateBlockRecompute(block, step, stride, idx, vf, vd, from, nnz, g, u);
  }

  /** The weights of all {@code d} coordinates into {@code into}. */
  public void weights(MemorySegment into, int d) {
    if (block == null) {
      forms.weightsDense(segments, into, d, u);
    } else {
      forms.weightsBlock(block, step, stride, into, d, u);
    }
  }
}
