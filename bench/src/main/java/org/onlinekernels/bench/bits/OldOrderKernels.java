package org.onlinekernels.bench.bits;

import static org.onlinekernels.kernel.vector.VectorConstants.FLOAT_SPECIES;
import static org.onlinekernels.kernel.vector.VectorConstants.ORDER;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.onlinekernels.kernel.DfegKernel;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.kernel.ScInOL2Kernel;
import org.onlinekernels.kernel.scalar.FloatScInOL2ScalarKernel;

/**
 * Benchmark baseline only (issue 11): the float vector reductions as they were before the
 * virtual-lane order (main at 253d4b2), behind the same public entries, so {@link BitIdentityBench}
 * can time the old summation order against the new one side by side. Accumulators of the hardware
 * width, a tree over the hardware lanes, a plain scalar tail. Not bit-identical across widths;
 * never used outside the benchmark.
 */
final class OldOrderKernels {
  private OldOrderKernels() {}

  private static final VectorSpecies<Float> S = FLOAT_SPECIES;
  private static final int L = S.length();
  private static final long VB = (long) L * Float.BYTES;
  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  /** The hardware lane count hidden from C2's constant folding, as the old VectorConstants.floatStride() was. */
  private static int stride = L;
  private static final ThreadLocal<float[]> SPILL = ThreadLocal.withInitial(() -> new float[L]);

  private static FloatVector load(MemorySegment m, long o) {
    return FloatVector.fromMemorySegment(S, m, o, ORDER);
  }

  /** The old fixed tree over the hardware lanes. */
  private static float tree(float[] lanes) {
    for (int half = lanes.length >> 1; half > 0; half >>= 1) {
      for (int k = 0; k < half; k++) {
        lanes[k] = lanes[k] + lanes[k + half];
      }
    }
    return lanes[0];
  }

  private static float dotRange(MemorySegment a, MemorySegment b, int from, int to) {
    float s = 0;
    for (int i = from; i < to; i++) {
      s += a.getAtIndex(E, i) * b.getAtIndex(E, i);
    }
    return s;
  }

  static float dotBody(MemorySegment a, MemorySegment b, int n) {
    FloatVector acc0 = FloatVector.zero(S), acc1 = acc0, acc2 = acc0, acc3 = acc0;
    int i = 0;
    int bound4 = n - n % (4 * L);
    for (; i < bound4; i += 4 * stride) {
      long o = (long) i * Float.BYTES;
      acc0 = load(a, o).fma(load(b, o), acc0);
      acc1 = load(a, o + VB).fma(load(b, o + VB), acc1);
      acc2 = load(a, o + 2 * VB).fma(load(b, o + 2 * VB), acc2);
      acc3 = load(a, o + 3 * VB).fma(load(b, o + 3 * VB), acc3);
    }
    int bound1 = S.loopBound(n);
    for (; i < bound1; i += stride) {
      long o = (long) i * Float.BYTES;
      acc0 = load(a, o).fma(load(b, o), acc0);
    }
    float[] spill = SPILL.get();
    acc0.add(acc1).add(acc2.add(acc3)).intoArray(spill, 0);
    return tree(spill) + dotRange(a, b, bound1, n);
  }

  /** The old LinearAlgebra reductions (dense only). */
  static final class LinearAlgebra extends LinearAlgebraKernel {
    LinearAlgebra() {
      super(ElementType.FLOAT);
    }

    @Override
    protected double dotImpl(MemorySegment a, MemorySegment b, int n) {
      return dotBody(a, b, n);
    }

    @Override
    protected double sumOfSquaresImpl(MemorySegment x, int n) {
      return dotBody(x, x, n);
    }

    @Override
    protected void dotAndSumOfSquaresImpl(MemorySegment a, MemorySegment x, int n, double[] out) {
      FloatVector d0 = FloatVector.zero(S), d1 = d0, s0 = d0, s1 = d0;
      int i = 0;
      int bound2 = n - n % (2 * L);
      for (; i < bound2; i += 2 * stride) {
        long o = (long) i * Float.BYTES;
        FloatVector x0 = load(x, o), x1 = load(x, o + VB);
        d0 = load(a, o).fma(x0, d0);
        d1 = load(a, o + VB).fma(x1, d1);
        s0 = x0.fma(x0, s0);
        s1 = x1.fma(x1, s1);
      }
      int bound1 = S.loopBound(n);
      for (; i < bound1; i += stride) {
        long o = (long) i * Float.BYTES;
        FloatVector x0 = load(x, o);
        d0 = load(a, o).fma(x0, d0);
        s0 = x0.fma(x0, s0);
      }
      float[] spill = SPILL.get();
      d0.add(d1).intoArray(spill, 0);
      out[0] = tree(spill) + dotRange(a, x, bound1, n);
      s0.add(s1).intoArray(spill, 0);
      out[1] = tree(spill) + dotRange(x, x, bound1, n);
    }

    @Override
    protected void gramTripleImpl(MemorySegment w, MemorySegment x, int n, double[] out) {
      FloatVector ww = FloatVector.zero(S), wx = ww, xx = ww;
      int bound1 = S.loopBound(n);
      for (int i = 0; i < bound1; i += stride) {
        long o = (long) i * Float.BYTES;
        FloatVector wv = load(w, o), xv = load(x, o);
        ww = wv.fma(wv, ww);
        wx = wv.fma(xv, wx);
        xx = xv.fma(xv, xx);
      }
      float[] spill = SPILL.get();
      ww.intoArray(spill, 0);
      out[0] = tree(spill) + dotRange(w, w, bound1, n);
      wx.intoArray(spill, 0);
      out[1] = tree(spill) + dotRange(w, x, bound1, n);
      xx.intoArray(spill, 0);
      out[2] = tree(spill) + dotRange(x, x, bound1, n);
    }

    @Override
    protected double dotSparseImpl(MemorySegment w, MemorySegment idx, MemorySegment val, int nnz) {
      throw new UnsupportedOperationException("dense baseline only");
    }

    @Override
    protected void dotAndSumOfSquaresSparseImpl(MemorySegment a, MemorySegment idx, MemorySegment val, int nnz, double[] out) {
      throw new UnsupportedOperationException("dense baseline only");
    }

    @Override
    protected double maxAbsImpl(MemorySegment x, int n) {
      throw new UnsupportedOperationException("dense baseline only");
    }
  }

  /** The old DFEG dense step with its norm (two hardware accumulators). */
  static final class Dfeg extends DfegKernel {
    Dfeg() {
      super(ElementType.FLOAT);
    }

    @Override
    protected double updateDenseImpl(MemorySegment theta, MemorySegment x, int n, double g) {
      float gf = (float) g;
      FloatVector vg = FloatVector.broadcast(S, gf);
      FloatVector acc0 = FloatVector.zero(S), acc1 = acc0;
      int i = 0;
      int bound2 = n - n % (2 * L);
      for (; i < bound2; i += 2 * L) {
        long o = (long) i * Float.BYTES;
        FloatVector a = load(theta, o).sub(vg.mul(load(x, o)));
        FloatVector b = load(theta, o + VB).sub(vg.mul(load(x, o + VB)));
        a.intoMemorySegment(theta, o, ORDER);
        b.intoMemorySegment(theta, o + VB, ORDER);
        acc0 = a.fma(a, acc0);
        acc1 = b.fma(b, acc1);
      }
      int bound1 = S.loopBound(n);
      for (; i < bound1; i += L) {
        long o = (long) i * Float.BYTES;
        FloatVector a = load(theta, o).sub(vg.mul(load(x, o)));
        a.intoMemorySegment(theta, o, ORDER);
        acc0 = a.fma(a, acc0);
      }
      float[] spill = SPILL.get();
      acc0.add(acc1).intoArray(spill, 0);
      float tail = 0;
      for (; i < n; i++) {
        float a = theta.getAtIndex(E, i) - gf * x.getAtIndex(E, i);
        theta.setAtIndex(E, i, a);
        tail += a * a;
      }
      return tree(spill) + tail;
    }

    @Override
    protected double updateSparseImpl(MemorySegment theta, MemorySegment idx, MemorySegment val, int nnz, double g) {
      throw new UnsupportedOperationException("dense baseline only");
    }

    @Override
    protected void scaleIntoImpl(MemorySegment theta, double c, MemorySegment out, int n) {
      throw new UnsupportedOperationException("dense baseline only");
    }
  }

  private static final float W_MAX = Float.MAX_VALUE;

  private static FloatVector saturate(FloatVector w) {
    return w.blend(W_MAX, w.compare(VectorOperators.GT, W_MAX)).blend(-W_MAX, w.compare(VectorOperators.LT, -W_MAX));
  }

  /** The old ScInOL2 dense predict (one register accumulator); the other entries are not baselined. */
  static final class ScInOL2 extends ScInOL2Kernel {
    ScInOL2() {
      super(ElementType.FLOAT);
    }

    @Override
    protected double predictDenseImpl(
        MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n,
        MemorySegment wOut) {
      FloatVector acc = FloatVector.zero(S);
      int bound1 = S.loopBound(n);
      for (int i = 0; i < bound1; i += L) {
        long o = (long) i * Float.BYTES;
        FloatVector xv = load(x, o);
        FloatVector mi = load(m, o).max(xv.abs());
        mi.intoMemorySegment(m, o, ORDER);
        FloatVector s = load(s2, o).add(mi.mul(mi)).lanewise(VectorOperators.SQRT);
        FloatVector theta = load(bigG, o).div(s);
        FloatVector w = saturate(theta.blend(1f, theta.compare(VectorOperators.GT, 1f)).blend(-1f, theta.compare(VectorOperators.LT, -1f)).mul(load(eta, o)).div(s.mul(2f)))
            .blend(0f, s.compare(VectorOperators.EQ, 0f));
        if (wOut != null) {
          w.intoMemorySegment(wOut, o, ORDER);
        }
        acc = xv.fma(w.blend(0f, xv.compare(VectorOperators.EQ, 0f)), acc);
      }
      float[] spill = SPILL.get();
      acc.intoArray(spill, 0);
      float tail = 0;
      for (int i = bound1; i < n; i++) {
        float xi = x.getAtIndex(E, i);
        float mi = Math.max(m.getAtIndex(E, i), Math.abs(xi));
        m.setAtIndex(E, i, mi);
        float w = FloatScInOL2ScalarKernel.weight(bigG.getAtIndex(E, i), s2.getAtIndex(E, i) + mi * mi, eta.getAtIndex(E, i));
        tail += xi != 0 ? xi * w : 0;
      }
      return tree(spill) + tail;
    }

    private static UnsupportedOperationException dense() {
      return new UnsupportedOperationException("dense predict baseline only");
    }

    @Override
    protected double predictSparseImpl(MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
        MemorySegment idx, MemorySegment val, int nnz, MemorySegment wOut) {
      throw dense();
    }

    @Override
    protected void updateDenseImpl(MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n, double g) {
      throw dense();
    }

    @Override
    protected void updateSparseImpl(MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
        MemorySegment idx, MemorySegment val, int nnz, double g) {
      throw dense();
    }

    @Override
    protected void updateDenseStoredImpl(MemorySegment bigG, MemorySegment s2, MemorySegment eta, MemorySegment w, MemorySegment x, int n, double g) {
      throw dense();
    }

    @Override
    protected void updateSparseStoredImpl(MemorySegment bigG, MemorySegment s2, MemorySegment eta, MemorySegment w,
        MemorySegment idx, MemorySegment val, int nnz, double g) {
      throw dense();
    }

    @Override
    protected void weightsImpl(MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment out, int n) {
      throw dense();
    }
  }
}
