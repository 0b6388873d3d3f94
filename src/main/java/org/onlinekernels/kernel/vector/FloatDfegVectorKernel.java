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

  /** {@code theta - g x} at {@code o}, stored; returns {@code acc} plus its square, one rounding. */
  private static FloatVector step(MemorySegment theta, MemorySegment x, long o, FloatVector vg, FloatVector acc) {
    FloatVector a = load(theta, o).sub(vg.mul(load(x, o)));
    a.intoMemorySegment(theta, o, ORDER);
    return a.fma(a, acc);
  }

  /**
   * The step and the new squared norm in one pass, summed in {@link FloatVirtualLanes}'s order
   * with two virtual accumulators ({@code a0..a3} and {@code b0..b3} are their hardware parts;
   * the {@code if (P > 1)} branches fold away in C2), so the norm has the scalar kernel's bits at
   * every width.
   */
  @Override
  protected double updateDenseImpl(MemorySegment theta, MemorySegment x, int n, double g) {
    float gf = (float) g;
    FloatVector vg = FloatVector.broadcast(S, gf);
    FloatVector z = FloatVector.zero(S);
    FloatVector a0 = z, a1 = z, a2 = z, a3 = z, b0 = z, b1 = z, b2 = z, b3 = z;
    int i = 0;
    int bound2 = n - n % (2 * V);
    for (; i < bound2; i += 2 * V) {
      long o = (long) i * Float.BYTES;
      a0 = step(theta, x, o, vg, a0);
      if (P > 1) {
        a1 = step(theta, x, o + VB, vg, a1);
      }
      if (P > 2) {
        a2 = step(theta, x, o + 2 * VB, vg, a2);
        a3 = step(theta, x, o + 3 * VB, vg, a3);
      }
      o += (long) V * Float.BYTES;
      b0 = step(theta, x, o, vg, b0);
      if (P > 1) {
        b1 = step(theta, x, o + VB, vg, b1);
      }
      if (P > 2) {
        b2 = step(theta, x, o + 2 * VB, vg, b2);
        b3 = step(theta, x, o + 3 * VB, vg, b3);
      }
    }
    int bound1 = n - n % V;
    for (; i < bound1; i += V) {
      long o = (long) i * Float.BYTES;
      a0 = step(theta, x, o, vg, a0);
      if (P > 1) {
        a1 = step(theta, x, o + VB, vg, a1);
      }
      if (P > 2) {
        a2 = step(theta, x, o + 2 * VB, vg, a2);
        a3 = step(theta, x, o + 3 * VB, vg, a3);
      }
    }
    float[] p = FloatVirtualLanes.scratch();
    a0.add(b0).intoArray(p, 0);
    if (P > 1) {
      a1.add(b1).intoArray(p, L);
    }
    if (P > 2) {
      a2.add(b2).intoArray(p, 2 * L);
      a3.add(b3).intoArray(p, 3 * L);
    }
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
