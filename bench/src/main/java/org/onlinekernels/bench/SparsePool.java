package org.onlinekernels.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.onlinekernels.kernel.ElementType;

/**
 * A pre-generated pool of sparse vectors (strictly increasing random indices in {@code [0, d)},
 * values in {@code +-[0.25, 1]}) that the sparse benchmarks cycle through, so index generation is
 * never timed. The pool holds about {@code totalNonzeros} entries in all (at least 16 vectors):
 * with 2^20 entries over d = 2^22 the touched coordinates are spread over the whole model, as in a
 * real sparse data set, instead of a handful of vectors that would sit in L1.
 */
public final class SparsePool {
  /** Index segments (int32), one per vector, for the kernels. */
  public final MemorySegment[] idx;

  /** Value segments of the element type, one per vector. */
  public final MemorySegment[] val;

  /** The same indices as Java arrays (reference, peer). */
  public final int[][] idxArrays;

  /** The same values as Java arrays (reference, peer). */
  public final double[][] valArrays;

  private int next;

  /** Builds the pool; deterministic in {@code seed}. */
  public SparsePool(Arena arena, ElementType t, int d, int nnz, int totalNonzeros, long seed) {
    if (nnz > d) throw new IllegalArgumentException("nnz " + nnz + " > d " + d);
    int count = Math.max(16, totalNonzeros / nnz);
    idx = new MemorySegment[count];
    val = new MemorySegment[count];
    idxArrays = new int[count][];
    valArrays = new double[count][];
    SplittableRandom r = new SplittableRandom(seed);
    MemorySegment idxAll = arena.allocate((long) count * nnz * 4, 64);
    MemorySegment valAll = arena.allocate((long) count * nnz * t.bytes(), 64);
    for (int k = 0; k < count; k++) {
      int[] ix = distinctSorted(r, d, nnz);
      double[] vx = new double[nnz];
      MemorySegment is = idxAll.asSlice((long) k * nnz * 4, (long) nnz * 4);
      MemorySegment vs = valAll.asSlice((long) k * nnz * t.bytes(), (long) nnz * t.bytes());
      for (int j = 0; j < nnz; j++) {
        double m = 0.25 + 0.75 * r.nextDouble();
        vx[j] =
            t == ElementType.FLOAT
                ? (float) (r.nextBoolean() ? m : -m)
                : (r.nextBoolean() ? m : -m);
        is.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, j, ix[j]);
        BenchData.set(vs, t, j, vx[j]);
      }
      idx[k] = is;
      val[k] = vs;
      idxArrays[k] = ix;
      valArrays[k] = vx;
    }
  }

  /** Index of the vector to use next; cycles through the pool. */
  public int next() {
    int k = next;
    next = k + 1 == idx.length ? 0 : k + 1;
    return k;
  }

  /** Restarts the cycle (so every iteration and every implementation sees the same sequence). */
  public void rewind() {
    next = 0;
  }

  private static int[] distinctSorted(SplittableRandom r, int d, int nnz) {
    int[] a = new int[nnz];
    int have = 0;
    while (have < nnz) {
      for (int j = have; j < nnz; j++) a[j] = r.nextInt(d);
      Arrays.sort(a);
      int u = 0;
      for (int j = 0; j < nnz; j++) {
        if (j == 0 || a[j] != a[u - 1]) a[u++] = a[j];
      }
      have = u;
    }
    return a;
  }
}
