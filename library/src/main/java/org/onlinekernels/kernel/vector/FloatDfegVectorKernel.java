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
   * with two virtual accumulators, so the norm has the scalar kernel's bits at every width: their
   * hardware parts in registers at 512 and 256 bits ({@code P <= 2}; C2 folds the branches), else
   * the lanes array, as in {@link FloatLinearAlgebraVectorKernel}.
   */
  @Override
  protected double updateDenseImpl(MemorySegment theta, MemorySegment x, int n, double g) {
    float gf = (float) g;
    FloatVector vg = FloatVector.broadcast(S, gf);
    float[] p = FloatVirtualLanes.scratch();
    int bound2 = n - n % (2 * V);
    int bound1 = n - n % V;
    if (P <= 2) {
      // The 2 P hardware partial sums in registers, spilled in address order.
      FloatVector acc0 = FloatVector.zero(S), acc1 = acc0, acc2 = acc0, acc3 = acc0;
      int i = 0;
      for (; i < bound2; i += 2 * V) {
        long o = (long) i * Float.BYTES;
        FloatVector a = load(theta, o).sub(vg.mul(load(x, o)));
        FloatVector b = load(theta, o + VB).sub(vg.mul(load(x, o + VB)));
        a.intoMemorySegment(theta, o, ORDER);
        b.intoMemorySegment(theta, o + VB, ORDER);
        acc0 = a.fma(a, acc0);
        acc1 = b.fma(b, acc1);
        if (P == 2) {
          FloatVector c = load(theta, o + 2 * VB).sub(vg.mul(load(x, o + 2 * VB)));
          FloatVector e = load(theta, o + 3 * VB).sub(vg.mul(load(x, o + 3 * VB)));
          c.intoMemorySegment(theta, o + 2 * VB, ORDER);
          e.intoMemorySegment(theta, o + 3 * VB, ORDER);
          acc2 = c.fma(c, acc2);
          acc3 = e.fma(e, acc3);
        }
      }
      for (; i < bound1; i += V) {
        long o = (long) i * Float.BYTES;
        FloatVector a = load(theta, o).sub(vg.mul(load(x, o)));
        a.intoMemorySegment(theta, o, ORDER);
        acc0 = a.fma(a, acc0);
        if (P == 2) {
          FloatVector b = load(theta, o + VB).sub(vg.mul(load(x, o + VB)));
          b.intoMemorySegment(theta, o + VB, ORDER);
          acc1 = b.fma(b, acc1);
        }
      }
      acc0.intoArray(p, 0);
      acc1.intoArray(p, L);
      if (P == 2) {
        acc2.intoArray(p, 2 * L);
        acc3.intoArray(p, 3 * L);
      }
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
