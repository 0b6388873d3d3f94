package org.onlinekernels.kernel.vector;

import static org.onlinekernels.kernel.vector.VectorConstants.FLOAT_SPECIES;
import static org.onlinekernels.kernel.vector.VectorConstants.ORDER;

import java.lang.foreign.MemorySegment;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.kernel.scalar.FloatLinearAlgebraScalarKernel;
import org.onlinekernels.kernel.scalar.FloatVirtualLanes;

/**
 * Vector float reductions in {@link FloatVirtualLanes}'s order, so they return the scalar
 * kernel's bits at every vector width: accumulators of one 512-bit virtual vector each
 * ({@link VectorConstants#PARTS} hardware vectors: registers {@code a0..a3} are the parts of
 * accumulator {@code a}; the {@code if (P > 1)} branches fold away in C2), a main loop over
 * {@code A} virtual vectors (four in dot and sum of squares to hide the FMA latency, two in the
 * fused pair, one in the Gram triple), a one-virtual-vector loop, the accumulators combined and
 * spilled, the scalar kernel's tail fused into the spilled lanes, and the fixed tree. Sparse dot
 * products run the scalar kernel's loop. Source of the generated {@code Double} twin: edit only
 * this file.
 */
public final class FloatLinearAlgebraVectorKernel extends LinearAlgebraKernel {
  /** The one instance. */
  public static final FloatLinearAlgebraVectorKernel INSTANCE = new FloatLinearAlgebraVectorKernel();

  private static final VectorSpecies<Float> S = FLOAT_SPECIES;
  private static final int L = S.length();
  private static final int P = VectorConstants.PARTS;
  private static final int V = FloatVirtualLanes.LANES;
  private static final long VB = (long) L * Float.BYTES;
  /** Bytes of a virtual vector. */
  private static final long VVB = (long) V * Float.BYTES;

  static {
    if (P * L != V) {
      throw new AssertionError("virtual vector of " + V + " lanes is not " + P + " x " + L);
    }
  }

  private FloatLinearAlgebraVectorKernel() {
    super(ElementType.FLOAT);
  }

  private static FloatVector load(MemorySegment m, long byteOffset) {
    return FloatVector.fromMemorySegment(S, m, byteOffset, ORDER);
  }

  /** {@code acc + a[o] * b[o]} lane-wise, one rounding. */
  private static FloatVector fma(MemorySegment a, MemorySegment b, long o, FloatVector acc) {
    return load(a, o).fma(load(b, o), acc);
  }

  /** Spills hardware part {@code q} of a combined virtual vector into its lanes of {@code p}. */
  private static void spill(FloatVector v, float[] p, int q) {
    v.intoArray(p, q * L);
  }

  /** {@code <a, b>} over {@code [0, n)} with four virtual accumulators. */
  static float dotBody(MemorySegment a, MemorySegment b, int n) {
    FloatVector z = FloatVector.zero(S);
    FloatVector a0 = z, a1 = z, a2 = z, a3 = z, b0 = z, b1 = z, b2 = z, b3 = z;
    FloatVector c0 = z, c1 = z, c2 = z, c3 = z, d0 = z, d1 = z, d2 = z, d3 = z;
    int i = 0;
    int bound4 = n - n % (4 * V);
    for (; i < bound4; i += 4 * VectorConstants.floatStride()) {
      long o = (long) i * Float.BYTES;
      a0 = fma(a, b, o, a0);
      if (P > 1) {
        a1 = fma(a, b, o + VB, a1);
      }
      if (P > 2) {
        a2 = fma(a, b, o + 2 * VB, a2);
        a3 = fma(a, b, o + 3 * VB, a3);
      }
      o += VVB;
      b0 = fma(a, b, o, b0);
      if (P > 1) {
        b1 = fma(a, b, o + VB, b1);
      }
      if (P > 2) {
        b2 = fma(a, b, o + 2 * VB, b2);
        b3 = fma(a, b, o + 3 * VB, b3);
      }
      o += VVB;
      c0 = fma(a, b, o, c0);
      if (P > 1) {
        c1 = fma(a, b, o + VB, c1);
      }
      if (P > 2) {
        c2 = fma(a, b, o + 2 * VB, c2);
        c3 = fma(a, b, o + 3 * VB, c3);
      }
      o += VVB;
      d0 = fma(a, b, o, d0);
      if (P > 1) {
        d1 = fma(a, b, o + VB, d1);
      }
      if (P > 2) {
        d2 = fma(a, b, o + 2 * VB, d2);
        d3 = fma(a, b, o + 3 * VB, d3);
      }
    }
    int bound1 = n - n % V;
    for (; i < bound1; i += VectorConstants.floatStride()) {
      long o = (long) i * Float.BYTES;
      a0 = fma(a, b, o, a0);
      if (P > 1) {
        a1 = fma(a, b, o + VB, a1);
      }
      if (P > 2) {
        a2 = fma(a, b, o + 2 * VB, a2);
        a3 = fma(a, b, o + 3 * VB, a3);
      }
    }
    float[] p = FloatVirtualLanes.scratch();
    spill(a0.add(b0).add(c0.add(d0)), p, 0);
    if (P > 1) {
      spill(a1.add(b1).add(c1.add(d1)), p, 1);
    }
    if (P > 2) {
      spill(a2.add(b2).add(c2.add(d2)), p, 2);
      spill(a3.add(b3).add(c3.add(d3)), p, 3);
    }
    FloatLinearAlgebraScalarKernel.dotTail(a, b, bound1, n, p);
    return FloatVirtualLanes.sum(p);
  }

  @Override
  protected double dotImpl(MemorySegment a, MemorySegment b, int n) {
    return dotBody(a, b, n);
  }

  @Override
  protected double dotSparseImpl(MemorySegment w, MemorySegment idx, MemorySegment val, int nnz) {
    return FloatLinearAlgebraScalarKernel.dotSparseRange(w, idx, val, 0, nnz);
  }

  @Override
  protected double sumOfSquaresImpl(MemorySegment x, int n) {
    return dotBody(x, x, n);
  }

  @Override
  protected void dotAndSumOfSquaresImpl(MemorySegment a, MemorySegment x, int n, double[] out) {
    // Two virtual accumulators per sum: d for <a, x>, s for ||x||^2; d0..d3 are the parts of the first.
    FloatVector z = FloatVector.zero(S);
    FloatVector d0 = z, d1 = z, d2 = z, d3 = z, e0 = z, e1 = z, e2 = z, e3 = z;
    FloatVector s0 = z, s1 = z, s2 = z, s3 = z, t0 = z, t1 = z, t2 = z, t3 = z;
    int i = 0;
    int bound2 = n - n % (2 * V);
    for (; i < bound2; i += 2 * VectorConstants.floatStride()) {
      long o = (long) i * Float.BYTES;
      FloatVector x0 = load(x, o);
      d0 = load(a, o).fma(x0, d0);
      s0 = x0.fma(x0, s0);
      if (P > 1) {
        FloatVector x1 = load(x, o + VB);
        d1 = load(a, o + VB).fma(x1, d1);
        s1 = x1.fma(x1, s1);
      }
      if (P > 2) {
        FloatVector x2 = load(x, o + 2 * VB), x3 = load(x, o + 3 * VB);
        d2 = load(a, o + 2 * VB).fma(x2, d2);
        s2 = x2.fma(x2, s2);
        d3 = load(a, o + 3 * VB).fma(x3, d3);
        s3 = x3.fma(x3, s3);
      }
      o += VVB;
      FloatVector y0 = load(x, o);
      e0 = load(a, o).fma(y0, e0);
      t0 = y0.fma(y0, t0);
      if (P > 1) {
        FloatVector y1 = load(x, o + VB);
        e1 = load(a, o + VB).fma(y1, e1);
        t1 = y1.fma(y1, t1);
      }
      if (P > 2) {
        FloatVector y2 = load(x, o + 2 * VB), y3 = load(x, o + 3 * VB);
        e2 = load(a, o + 2 * VB).fma(y2, e2);
        t2 = y2.fma(y2, t2);
        e3 = load(a, o + 3 * VB).fma(y3, e3);
        t3 = y3.fma(y3, t3);
      }
    }
    int bound1 = n - n % V;
    for (; i < bound1; i += VectorConstants.floatStride()) {
      long o = (long) i * Float.BYTES;
      FloatVector x0 = load(x, o);
      d0 = load(a, o).fma(x0, d0);
      s0 = x0.fma(x0, s0);
      if (P > 1) {
        FloatVector x1 = load(x, o + VB);
        d1 = load(a, o + VB).fma(x1, d1);
        s1 = x1.fma(x1, s1);
      }
      if (P > 2) {
        FloatVector x2 = load(x, o + 2 * VB), x3 = load(x, o + 3 * VB);
        d2 = load(a, o + 2 * VB).fma(x2, d2);
        s2 = x2.fma(x2, s2);
        d3 = load(a, o + 3 * VB).fma(x3, d3);
        s3 = x3.fma(x3, s3);
      }
    }
    float[] p = FloatVirtualLanes.scratch();
    spill(d0.add(e0), p, 0);
    if (P > 1) {
      spill(d1.add(e1), p, 1);
    }
    if (P > 2) {
      spill(d2.add(e2), p, 2);
      spill(d3.add(e3), p, 3);
    }
    FloatLinearAlgebraScalarKernel.dotTail(a, x, bound1, n, p);
    out[0] = FloatVirtualLanes.sum(p);
    spill(s0.add(t0), p, 0);
    if (P > 1) {
      spill(s1.add(t1), p, 1);
    }
    if (P > 2) {
      spill(s2.add(t2), p, 2);
      spill(s3.add(t3), p, 3);
    }
    FloatLinearAlgebraScalarKernel.dotTail(x, x, bound1, n, p);
    out[1] = FloatVirtualLanes.sum(p);
  }

  @Override
  protected void dotAndSumOfSquaresSparseImpl(
      MemorySegment a, MemorySegment idx, MemorySegment val, int nnz, double[] out) {
    out[0] = FloatLinearAlgebraScalarKernel.dotSparseRange(a, idx, val, 0, nnz);
    out[1] = dotBody(val, val, nnz);
  }

  @Override
  protected void gramTripleImpl(MemorySegment w, MemorySegment x, int n, double[] out) {
    // One virtual accumulator per sum; ww0..ww3 are the parts of ||w||^2's.
    FloatVector z = FloatVector.zero(S);
    FloatVector ww0 = z, ww1 = z, ww2 = z, ww3 = z, wx0 = z, wx1 = z, wx2 = z, wx3 = z;
    FloatVector xx0 = z, xx1 = z, xx2 = z, xx3 = z;
    int bound1 = n - n % V;
    for (int i = 0; i < bound1; i += VectorConstants.floatStride()) {
      long o = (long) i * Float.BYTES;
      FloatVector w0 = load(w, o), x0 = load(x, o);
      ww0 = w0.fma(w0, ww0);
      wx0 = w0.fma(x0, wx0);
      xx0 = x0.fma(x0, xx0);
      if (P > 1) {
        FloatVector w1 = load(w, o + VB), x1 = load(x, o + VB);
        ww1 = w1.fma(w1, ww1);
        wx1 = w1.fma(x1, wx1);
        xx1 = x1.fma(x1, xx1);
      }
      if (P > 2) {
        FloatVector w2 = load(w, o + 2 * VB), x2 = load(x, o + 2 * VB);
        ww2 = w2.fma(w2, ww2);
        wx2 = w2.fma(x2, wx2);
        xx2 = x2.fma(x2, xx2);
        FloatVector w3 = load(w, o + 3 * VB), x3 = load(x, o + 3 * VB);
        ww3 = w3.fma(w3, ww3);
        wx3 = w3.fma(x3, wx3);
        xx3 = x3.fma(x3, xx3);
      }
    }
    float[] p = FloatVirtualLanes.scratch();
    out[0] = spilledSum(ww0, ww1, ww2, ww3, w, w, bound1, n, p);
    out[1] = spilledSum(wx0, wx1, wx2, wx3, w, x, bound1, n, p);
    out[2] = spilledSum(xx0, xx1, xx2, xx3, x, x, bound1, n, p);
  }

  /** One virtual accumulator's parts spilled, the tail {@code a_i b_i} fused in, summed. */
  private static float spilledSum(
      FloatVector v0, FloatVector v1, FloatVector v2, FloatVector v3,
      MemorySegment a, MemorySegment b, int from, int to, float[] p) {
    spill(v0, p, 0);
    if (P > 1) {
      spill(v1, p, 1);
    }
    if (P > 2) {
      spill(v2, p, 2);
      spill(v3, p, 3);
    }
    FloatLinearAlgebraScalarKernel.dotTail(a, b, from, to, p);
    return FloatVirtualLanes.sum(p);
  }

  /**
   * Vector {@code max |x_i|}: a running lane-wise maximum and a running mask of lanes where
   * {@code v - v != 0} (NaN or infinite); the mask decides, so the result does not depend on how
   * the lane-wise maximum treats NaN.
   */
  @Override
  protected double maxAbsImpl(MemorySegment x, int n) {
    FloatVector acc = FloatVector.zero(S);
    VectorMask<Float> bad = S.maskAll(false);
    int bound1 = n - n % V;
    for (int i = 0; i < bound1; i += VectorConstants.floatStride()) {
      // A maximum is exact in any order: the parts may share one accumulator.
      for (int q = 0; q < P; q++) {
        FloatVector v = load(x, (long) i * Float.BYTES + q * VB);
        bad = bad.or(v.sub(v).compare(VectorOperators.NE, 0f));
        acc = acc.max(v.abs());
      }
    }
    float tail = FloatLinearAlgebraScalarKernel.maxAbsRange(x, bound1, n);
    if (bad.anyTrue() || tail != tail) {
      return Double.NaN;
    }
    return Math.max(acc.reduceLanes(VectorOperators.MAX), tail);
  }
}
