package org.onlinekernels.kernel.vector;

import static org.onlinekernels.kernel.vector.VectorConstants.FLOAT_SPECIES;
import static org.onlinekernels.kernel.vector.VectorConstants.ORDER;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;
import org.onlinekernels.kernel.DfegKernel;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.scalar.FloatDfegScalarKernel;
import org.onlinekernels.kernel.scalar.FloatVirtualLanes;

/**
 * Vector float DFEG: the dense step and the fresh squared norm in one pass (two accumulators,
 * so the norm costs no extra memory traffic); the state and the norm are the scalar kernel's bits. Source of the generated {@code Double} twin.
 */
public final class FloatDfegVectorKernel extends DfegKernel {
  /** The one instance. */
  public static final FloatDfegVectorKernel INSTANCE = new FloatDfegVectorKernel();

  private static final VectorSpecies<Float> S = FLOAT_SPECIES;
  private static final int L = S.length();
  private static final int P = VectorConstants.PARTS;
  private static final int V = FloatVirtualLanes.LANES;
  private static final long VB = (long) L * Float.BYTES;
  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

  private FloatDfegVectorKernel() {
    super(ElementType.FLOAT);
  }

  private static FloatVector load(MemorySegment m, long byteOffset) {
    return FloatVector.fromMemorySegment(S, m, byteOffset, ORDER);
  }

  /**
   * The step and the new squared norm in one pass, summed in {@link FloatVirtualLanes}'s order
   * with two virtual accumulators, so the norm has the scalar kernel's bits at every width: two
   * registers at 512 bits ({@code P == 1}; C2 folds the branch), else the lanes array, as in
   * {@link FloatLinearAlgebraVectorKernel}.
   */
  @Override
  protected double updateDenseImpl(MemorySegment theta, MemorySegment x, int n, double g) {
    float gf = (float) g;
    FloatVector vg = FloatVector.broadcast(S, gf);
    float[] p = FloatVirtualLanes.scratch();
    int bound2 = n - n % (2 * V);
    int bound1 = n - n % V;
    if (P == 1) {
      FloatVector acc0 = FloatVector.zero(S), acc1 = acc0;
      int i = 0;
      for (; i < bound2; i += 2 * L) {
        long o = (long) i * Float.BYTES;
        FloatVector a = load(theta, o).sub(vg.mul(load(x, o)));
        FloatVector b = load(theta, o + VB).sub(vg.mul(load(x, o + VB)));
        a.intoMemorySegment(theta, o, ORDER);
        b.intoMemorySegment(theta, o + VB, ORDER);
        acc0 = a.fma(a, acc0);
        acc1 = b.fma(b, acc1);
      }
      for (; i < bound1; i += L) {
        long o = (long) i * Float.BYTES;
        FloatVector a = load(theta, o).sub(vg.mul(load(x, o)));
        a.intoMemorySegment(theta, o, ORDER);
        acc0 = a.fma(a, acc0);
      }
      acc0.intoArray(p, 0);
      acc1.intoArray(p, V);
    } else {
      FloatVirtualLanes.clear(p, 2);
      for (int i = 0; i < bound1; i += L) {
        int c = i < bound2 ? i % (2 * V) : i % V;
        long o = (long) i * Float.BYTES;
        FloatVector a = load(theta, o).sub(vg.mul(load(x, o)));
        a.intoMemorySegment(theta, o, ORDER);
        a.fma(a, FloatVector.fromArray(S, p, c)).intoArray(p, c);
      }
    }
    FloatVirtualLanes.combine(p, 2);
    FloatDfegScalarKernel.denseTail(theta, x, bound1, n, gf, p);
    return FloatVirtualLanes.sum(p);
  }

  /**
   * Sparse rows run the scalar kernel's loop, as ScInOL's and AdaGrad's do: the lane gather costs
   * more than it saves on random coordinates, and the gathered loop boxed a vector in one JIT
   * order (allocation probe, FLOAT then DOUBLE: 96 bytes per call).
   */
  @Override
  protected double updateSparseImpl(MemorySegment theta, MemorySegment idx, MemorySegment val, int nnz, double g) {
    return FloatDfegScalarKernel.sparseRange(theta, idx, val, 0, nnz, (float) g);
  }

  @Override
  protected void scaleIntoImpl(MemorySegment theta, double c, MemorySegment out, int n) {
    float cf = (float) c;
    FloatVector vc = FloatVector.broadcast(S, cf);
    int bound = S.loopBound(n);
    for (int i = 0; i < bound; i += L) {
      long o = (long) i * Float.BYTES;
      vc.mul(load(theta, o)).intoMemorySegment(out, o, ORDER);
    }
    FloatDfegScalarKernel.scaleRange(theta, cf, out, bound, n);
  }
}
