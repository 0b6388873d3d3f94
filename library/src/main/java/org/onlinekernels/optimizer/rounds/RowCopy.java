package org.onlinekernels.optimizer.rounds;

import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.ElementType;

/**
 * An optimizer's copy of the row in hand, as the row forms take it (arrays: C2's range checks on
 * int array indices need no speculation, while a segment offset that moves from row to row made its
 * profiled loop predicates deoptimize every few thousand rows), with a segment view of the values
 * for reductions. Grown to the longest row, never per call.
 */
public final class RowCopy {
  private final ElementType type;
  private int[] idx = new int[0];
  private float[] vf = new float[0];
  private double[] vd = new double[0];
  private MemorySegment idxView = MemorySegment.ofArray(idx);
  private MemorySegment valView;
  private int[] identity;

  public RowCopy(ElementType type) {
    this.type = type;
    this.valView =
        type == ElementType.FLOAT ? MemorySegment.ofArray(vf) : MemorySegment.ofArray(vd);
  }

  public void ensure(int n) {
    if (n <= idx.length) {
      return;
    }
    int cap = Math.max(Math.max(n, 16), (int) Math.min(Integer.MAX_VALUE - 8, 2L * idx.length));
    idx = new int[cap];
    idxView = MemorySegment.ofArray(idx);
    if (type == ElementType.FLOAT) {
      vf = new float[cap];
      valView = MemorySegment.ofArray(vf);
    } else {
      vd = new double[cap];
      valView = MemorySegment.ofArray(vd);
    }
  }

  /** Copies {@code nnz} indices and values given as segments (validated). */
  public void copy(MemorySegment indices, MemorySegment values, int nnz) {
    ensure(nnz);
    MemorySegment.copy(indices, 0, idxView, 0, (long) nnz * Integer.BYTES);
    values(values, nnz);
  }

  /** Copies {@code n} values of the element type. */
  public void values(MemorySegment values, int n) {
    ensure(n);
    MemorySegment.copy(values, 0, valView, 0, (long) n * type.bytes());
  }

  /**
   * Copies values {@code [from, from + nnz)} of {@code vf} or {@code vd} (by element type); none
   * when they are this copy's.
   */
  public void values(float[] vf, double[] vd, int from, int nnz) {
    ensure(nnz);
    if (type == ElementType.FLOAT) {
      if (vf != this.vf || from != 0) {
        System.arraycopy(vf, from, this.vf, 0, nnz);
      }
    } else if (vd != this.vd || from != 0) {
      System.arraycopy(vd, from, this.vd, 0, nnz);
    }
  }

  public int[] idx() {
    return idx;
  }

  public float[] vf() {
    return vf;
  }

  public double[] vd() {
    return vd;
  }

  /** The copied values as a segment. */
  public MemorySegment valueView() {
    return valView;
  }

  /**
   * The indices {@code 0 .. d-1}, made on first use: dense input on interleaved state runs the row
   * forms over it.
   */
  public int[] identity(int d) {
    if (identity == null) {
      identity = new int[d];
      for (int i = 0; i < d; i++) {
        identity[i] = i;
      }
    }
    return identity;
  }
}
