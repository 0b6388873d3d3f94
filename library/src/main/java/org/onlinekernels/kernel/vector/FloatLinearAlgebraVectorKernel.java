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
import org.onlinekernels.kernel.lanes.FloatVirtualLanes;
import org.onlinekernels.kernel.scalar.FloatLinearAlgebraScalarKernel;

/**
 * Vector float reductions in {@link FloatVirtualLanes}'s order, so they return the scalar kernel's
 * bits at every vector width: {@code A} accumulators of one 512-bit virtual vector each (four in
 * dot and sum of squares to hide the FMA latency, two in the fused pair, one in the Gram triple), a
 * main loop over {@code A} virtual vectors, a one-virtual-vector loop, the accumulators combined
 * and spilled, the scalar kernel's tail fused into the spilled lanes, and the fixed tree. At 512
 * bits ({@code P == 1}; C2 folds the branches) an accumulator is a register, and at 256 bits its
 * two hardware parts are two registers (the {@code A P} hardware partial sums in address order are
 * the virtual lanes' layout, spilled in order). At 128 bits an accumulator is {@link
 * VectorConstants#PARTS} hardware vectors kept in the lanes array: the vector at {@code i} adds
 * into lanes {@code i mod (A V)} (main loop) or {@code i mod V}, and the {@code 2 A} or more
 * independent chains hide part of the store-to-load latency (measured against the register loops in
 * cache at 256 bits: bench-report/bit-identity.md). Sparse dot products run the scalar kernel's
 * loop. Source of the generated {@code Double} twin: edit only this file.
 */
public final class FloatLinearAlgebraVectorKernel extends LinearAlgebraKernel {
  /** The one instance. */
  public static final FloatLinearAlgebraVectorKernel INSTANCE =
      new FloatLinearAlgebraVectorKernel();

  private static final VectorSpecies<Float> S = FLOAT_SPECIES;
  private static final int L = S.length();
  private static final int P = VectorConstants.PARTS;
  private static final int V = FloatVirtualLanes.LANES;
  private static final long VB = (long) L * Float.BYTES;

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

  /**
   * {@code <a, b>} over {@code [0, n)} with four virtual accumulators. At 512 and 256 bits they are
   * registers: the main loop's {@code 4 P} hardware vectors in address order are its {@code 4 P}
   * partial sums, {@code h0..h7} (at 256 bits {@code h0, h1} are accumulator 0, and so on), so
   * spilling them in order lays out {@link FloatVirtualLanes}'s partial sums. At 128 bits they live
   * in the lanes array.
   */
  static float dotBody(MemorySegment a, MemorySegment b, int n) {
    float[] p = FloatVirtualLanes.scratch();
    int bound4 = n - n % (4 * V);
    int bound1 = n - n % V;
    if (P <= 2) {
      FloatVector h0 = FloatVector.zero(S),
          h1 = h0,
          h2 = h0,
          h3 = h0,
          h4 = h0,
          h5 = h0,
          h6 = h0,
          h7 = h0;
      int i = 0;
      for (; i < bound4; i += 4 * VectorConstants.floatStride()) {
        long o = (long) i * Float.BYTES;
        h0 = load(a, o).fma(load(b, o), h0);
        h1 = load(a, o + VB).fma(load(b, o + VB), h1);
        h2 = load(a, o + 2 * VB).fma(load(b, o + 2 * VB), h2);
        h3 = load(a, o + 3 * VB).fma(load(b, o + 3 * VB), h3);
        if (P == 2) {
          h4 = load(a, o + 4 * VB).fma(load(b, o + 4 * VB), h4);
          h5 = load(a, o + 5 * VB).fma(load(b, o + 5 * VB), h5);
          h6 = load(a, o + 6 * VB).fma(load(b, o + 6 * VB), h6);
          h7 = load(a, o + 7 * VB).fma(load(b, o + 7 * VB), h7);
        }
      }
      for (; i < bound1; i += VectorConstants.floatStride()) {
        long o = (long) i * Float.BYTES;
        h0 = load(a, o).fma(load(b, o), h0);
        if (P == 2) {
          h1 = load(a, o + VB).fma(load(b, o + VB), h1);
        }
      }
      if (P == 1) {
        h0.add(h1).add(h2.add(h3)).intoArray(p, 0);
      } else {
        h0.intoArray(p, 0);
        h1.intoArray(p, L);
        h2.intoArray(p, 2 * L);
        h3.intoArray(p, 3 * L);
        h4.intoArray(p, 4 * L);
        h5.intoArray(p, 5 * L);
        h6.intoArray(p, 6 * L);
        h7.intoArray(p, 7 * L);
        FloatVirtualLanes.combine(p, 4);
      }
    } else {
      FloatVirtualLanes.clear(p, 4);
      for (int i = 0; i < bound1; i += L) {
        int c = i < bound4 ? i % (4 * V) : i % V;
        long o = (long) i * Float.BYTES;
        load(a, o).fma(load(b, o), FloatVector.fromArray(S, p, c)).intoArray(p, c);
      }
      FloatVirtualLanes.combine(p, 4);
    }
    FloatLinearAlgebraScalarKernel.dotTail(a, b, bound1, n, p);
    return FloatVirtualLanes.sum(p);
  }

  @Override
  protected double dotImpl(MemorySegment a, MemorySegment b, int n) {
    return n < 4 * V ? FloatLinearAlgebraScalarKernel.dot(a, b, n, 4) : dotBody(a, b, n);
  }

  @Override
  protected double dotSparseImpl(MemorySegment w, MemorySegment idx, MemorySegment val, int nnz) {
    return FloatLinearAlgebraScalarKernel.dotSparseRange(w, idx, val, 0, nnz);
  }

  @Override
  protected double sumOfSquaresImpl(MemorySegment x, int n) {
    // Shorter than one block of the main loop (a sparse row's values, typically): the plain-Java
    // loop, the same bits. With its loops never entered, C2 kept a vector accumulator of dotBody
    // boxed on the heap in one JIT order (128 B per call, AllocationFreeTest); the guard stays out
    // of dotBody itself, whose size decides how C2 inlines its vector code.
    return n < 4 * V ? FloatLinearAlgebraScalarKernel.dot(x, x, n, 4) : dotBody(x, x, n);
  }

  @Override
  protected void dotAndSumOfSquaresImpl(MemorySegment a, MemorySegment x, int n, double[] out) {
    if (n < 2 * V) {
      // Shorter than one block: the plain-Java loops, the same bits (see dotBody).
      out[0] = FloatLinearAlgebraScalarKernel.dot(a, x, n, 2);
      out[1] = FloatLinearAlgebraScalarKernel.dot(x, x, n, 2);
      return;
    }
    float[] p = FloatVirtualLanes.scratch();
    int bound2 = n - n % (2 * V);
    int bound1 = n - n % V;
    if (P <= 2) {
      // The 2 P hardware partial sums of each sum in registers, spilled in address order.
      FloatVector d0 = FloatVector.zero(S),
          d1 = d0,
          d2 = d0,
          d3 = d0,
          s0 = d0,
          s1 = d0,
          s2 = d0,
          s3 = d0;
      int i = 0;
      for (; i < bound2; i += 2 * VectorConstants.floatStride()) {
        long o = (long) i * Float.BYTES;
        FloatVector x0 = load(x, o), x1 = load(x, o + VB);
        d0 = load(a, o).fma(x0, d0);
        d1 = load(a, o + VB).fma(x1, d1);
        s0 = x0.fma(x0, s0);
        s1 = x1.fma(x1, s1);
        if (P == 2) {
          FloatVector x2 = load(x, o + 2 * VB), x3 = load(x, o + 3 * VB);
          d2 = load(a, o + 2 * VB).fma(x2, d2);
          d3 = load(a, o + 3 * VB).fma(x3, d3);
          s2 = x2.fma(x2, s2);
          s3 = x3.fma(x3, s3);
        }
      }
      for (; i < bound1; i += VectorConstants.floatStride()) {
        long o = (long) i * Float.BYTES;
        FloatVector x0 = load(x, o);
        d0 = load(a, o).fma(x0, d0);
        s0 = x0.fma(x0, s0);
        if (P == 2) {
          FloatVector x1 = load(x, o + VB);
          d1 = load(a, o + VB).fma(x1, d1);
          s1 = x1.fma(x1, s1);
        }
      }
      d0.intoArray(p, 0);
      d1.intoArray(p, L);
      s0.intoArray(p, 2 * V);
      s1.intoArray(p, 2 * V + L);
      if (P == 2) {
        d2.intoArray(p, 2 * L);
        d3.intoArray(p, 3 * L);
        s2.intoArray(p, 2 * V + 2 * L);
        s3.intoArray(p, 2 * V + 3 * L);
      }
    } else {
      // <a, x>'s two accumulators in p[0, 2V), ||x||^2's in p[2V, 4V).
      FloatVirtualLanes.clear(p, 4);
      for (int i = 0; i < bound1; i += L) {
        int c = i < bound2 ? i % (2 * V) : i % V;
        long o = (long) i * Float.BYTES;
        FloatVector xv = load(x, o);
        load(a, o).fma(xv, FloatVector.fromArray(S, p, c)).intoArray(p, c);
        xv.fma(xv, FloatVector.fromArray(S, p, 2 * V + c)).intoArray(p, 2 * V + c);
      }
    }
    FloatVirtualLanes.combine(p, 2);
    FloatLinearAlgebraScalarKernel.dotTail(a, x, bound1, n, p);
    out[0] = FloatVirtualLanes.sum(p);
    FloatVirtualLanes.combine(p, 2 * V, 2);
    FloatLinearAlgebraScalarKernel.dotTail(x, x, bound1, n, p);
    out[1] = FloatVirtualLanes.sum(p);
  }

  @Override
  protected void dotAndSumOfSquaresSparseImpl(
      MemorySegment a, MemorySegment idx, MemorySegment val, int nnz, double[] out) {
    out[0] = FloatLinearAlgebraScalarKernel.dotSparseRange(a, idx, val, 0, nnz);
    out[1] =
        nnz < 4 * V ? FloatLinearAlgebraScalarKernel.dot(val, val, nnz, 4) : dotBody(val, val, nnz);
  }

  @Override
  protected void gramTripleImpl(MemorySegment w, MemorySegment x, int n, double[] out) {
    if (n < V) {
      // Shorter than one virtual vector: the plain-Java loops, the same bits (see dotBody).
      out[0] = FloatLinearAlgebraScalarKernel.dot(w, w, n, 1);
      out[1] = FloatLinearAlgebraScalarKernel.dot(w, x, n, 1);
      out[2] = FloatLinearAlgebraScalarKernel.dot(x, x, n, 1);
      return;
    }
    // One virtual accumulator per sum, spilled to p[0, V), p[V, 2V), p[2V, 3V).
    float[] p = FloatVirtualLanes.scratch();
    int bound1 = n - n % V;
    if (P <= 2) {
      FloatVector ww = FloatVector.zero(S), wx = ww, xx = ww, ww1 = ww, wx1 = ww, xx1 = ww;
      for (int i = 0; i < bound1; i += VectorConstants.floatStride()) {
        long o = (long) i * Float.BYTES;
        FloatVector wv = load(w, o), xv = load(x, o);
        ww = wv.fma(wv, ww);
        wx = wv.fma(xv, wx);
        xx = xv.fma(xv, xx);
        if (P == 2) {
          FloatVector wv1 = load(w, o + VB), xv1 = load(x, o + VB);
          ww1 = wv1.fma(wv1, ww1);
          wx1 = wv1.fma(xv1, wx1);
          xx1 = xv1.fma(xv1, xx1);
        }
      }
      ww.intoArray(p, 0);
      wx.intoArray(p, V);
      xx.intoArray(p, 2 * V);
      if (P == 2) {
        ww1.intoArray(p, L);
        wx1.intoArray(p, V + L);
        xx1.intoArray(p, 2 * V + L);
      }
    } else {
      FloatVirtualLanes.clear(p, 3);
      for (int i = 0; i < bound1; i += L) {
        int c = i % V;
        long o = (long) i * Float.BYTES;
        FloatVector wv = load(w, o), xv = load(x, o);
        wv.fma(wv, FloatVector.fromArray(S, p, c)).intoArray(p, c);
        wv.fma(xv, FloatVector.fromArray(S, p, V + c)).intoArray(p, V + c);
        xv.fma(xv, FloatVector.fromArray(S, p, 2 * V + c)).intoArray(p, 2 * V + c);
      }
    }
    FloatLinearAlgebraScalarKernel.dotTail(w, w, bound1, n, p);
    out[0] = FloatVirtualLanes.sum(p);
    FloatVirtualLanes.combine(p, V, 1);
    FloatLinearAlgebraScalarKernel.dotTail(w, x, bound1, n, p);
    out[1] = FloatVirtualLanes.sum(p);
    FloatVirtualLanes.combine(p, 2 * V, 1);
    FloatLinearAlgebraScalarKernel.dotTail(x, x, bound1, n, p);
    out[2] = FloatVirtualLanes.sum(p);
  }

  /**
   * Vector {@code max |x_i|}: a running lane-wise maximum and a running mask of lanes where {@code
   * v - v != 0} (NaN or infinite); the mask decides, so the result does not depend on how the
   * lane-wise maximum treats NaN.
   */
  @Override
  protected double maxAbsImpl(MemorySegment x, int n) {
    if (n < V) {
      // Shorter than one virtual vector (a sparse row's values, typically): the plain-Java loop.
      return FloatLinearAlgebraScalarKernel.maxAbsRange(x, 0, n);
    }
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

  @Override
  protected double dotMixedImpl(MemorySegment w, MemorySegment x, int n) {
    return MixedDotVector.dot(w, x, n);
  }

  // The Double twin (generated by renaming) casts a double to double here.
  @SuppressWarnings("cast")
  @Override
  protected void scaleImpl(MemorySegment x, double c, MemorySegment out, int n) {
    float cf = (float) c;
    FloatVector vc = FloatVector.broadcast(S, cf);
    int bound = S.loopBound(n);
    for (int i = 0; i < bound; i += L) {
      long o = (long) i * Float.BYTES;
      vc.mul(load(x, o)).intoMemorySegment(out, o, ORDER);
    }
    FloatLinearAlgebraScalarKernel.scaleRange(x, cf, out, bound, n);
  }
}
