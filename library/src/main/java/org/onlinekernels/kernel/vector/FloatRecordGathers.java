package org.onlinekernels.kernel.vector;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * A sparse row's records loaded from and stored to block state that is one heap {@code float[]}: by
 * plain array accesses through an index map, or with the vector unit's gathers and scatters ({@code
 * vgatherdps} on AVX2 and AVX-512, {@code vscatterdps} on AVX-512), where field {@code f} of a
 * vector of entries is one instruction that issues all of their loads at once. Either way the
 * gathered round's record arrays get the same values as from the entry-by-entry gather over the
 * segment, and the state the same values as from its scatter, so the rounds give the same bits.
 * Used by the generated rules' gathered rounds ({@code RoundScratch#heapFloats}) on either
 * provider: the scalar kernels' rounds run the plain loops only. Source of the generated {@code
 * Double} twin: edit only this file.
 */
public final class FloatRecordGathers {
  private FloatRecordGathers() {}

  /**
   * The species, in a holder of its own: the plain loops (the scalar kernels' gathered rounds run
   * them too) never initialize the Vector API.
   */
  private static final class Lanes {
    static final VectorSpecies<Float> S = VectorConstants.FLOAT_SPECIES;
    static final int L = S.length();
  }

  /**
   * Writes {@code map[j] = idx[from + j] * stride} for {@code j < nnz}, the element offsets of the
   * entries' records (the state is one array, so every offset fits an {@code int}); returns whether
   * the indices are strictly increasing (no entry repeats a coordinate).
   */
  public static boolean indexMap(int[] idx, int from, int nnz, long stride, int[] map) {
    int s = (int) stride;
    int previous = -1;
    boolean increasing = true;
    for (int j = 0; j < nnz; j++) {
      int i = idx[from + j];
      increasing &= i > previous;
      previous = i;
      map[j] = i * s;
    }
    return increasing;
  }

  /**
   * {@code rec[j] = a[offset + map[j]]} for {@code j < nnz}: one field of the row's records, with
   * the vector unit's gathers ({@code hardware}) or one load after another.
   */
  public static void gather(
      float[] a, long offset, int[] map, int nnz, float[] rec, boolean hardware) {
    int o = (int) offset;
    int j = 0;
    if (hardware) {
      for (int bound = Lanes.S.loopBound(nnz); j < bound; j += Lanes.L) {
        FloatVector.fromArray(Lanes.S, a, o, map, j).intoArray(rec, j);
      }
    }
    for (; j < nnz; j++) {
      rec[j] = a[o + map[j]];
    }
  }

  /**
   * {@code a[offset + map[j]] = src[j]} for {@code j < nnz}, in entry order: one field of the row's
   * records written back, with the vector unit's scatters ({@code hardware}: only for a map without
   * repeats, since a scatter does not promise which of two lanes to one element wins) or one store
   * after another.
   */
  public static void scatter(
      float[] a, long offset, int[] map, int nnz, float[] src, boolean hardware) {
    int o = (int) offset;
    int j = 0;
    if (hardware) {
      for (int bound = Lanes.S.loopBound(nnz); j < bound; j += Lanes.L) {
        FloatVector.fromArray(Lanes.S, src, j).intoArray(a, o, map, j);
      }
    }
    for (; j < nnz; j++) {
      a[o + map[j]] = src[j];
    }
  }
}
