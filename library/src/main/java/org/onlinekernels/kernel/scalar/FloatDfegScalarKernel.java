package org.onlinekernels.kernel.scalar;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.DfegKernel;
import org.onlinekernels.kernel.ElementType;

/** Scalar float DFEG. Source of the generated {@code Double} twin: edit only this file. */
public final class FloatDfegScalarKernel extends DfegKernel {
  /** The one instance. */
  public static final FloatDfegScalarKernel INSTANCE = new FloatDfegScalarKernel();

  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

  private FloatDfegScalarKernel() {
    super(ElementType.FLOAT);
  }

  /** Coordinate {@code i}'s step {@code theta_i - g x_i}, stored and returned. */
  private static float stepOne(MemorySegment theta, MemorySegment x, int i, float g) {
    float a = theta.getAtIndex(E, i) - g * x.getAtIndex(E, i);
    theta.setAtIndex(E, i, a);
    return a;
  }

  /**
   * Dense step over {@code [0, n)}; returns the new squared norm, summed in
   * {@link FloatVirtualLanes}'s order with two accumulators (the vector kernel's bits).
   */
  public static float dense(MemorySegment theta, MemorySegment x, int n, float g) {
    int v = FloatVirtualLanes.LANES;
    float[] p = FloatVirtualLanes.scratch();
    FloatVirtualLanes.clear(p, 2);
    int i = 0;
    for (int bound = n - n % (2 * v); i < bound; i += 2 * v) {
      for (int c = 0; c < 2 * v; c++) {
        float a = stepOne(theta, x, i + c, g);
        p[c] = Math.fma(a, a, p[c]);
      }
    }
    int bound1 = n - n % v;
    for (; i < bound1; i += v) {
      for (int l = 0; l < v; l++) {
        float a = stepOne(theta, x, i + l, g);
        p[l] = Math.fma(a, a, p[l]);
      }
    }
    FloatVirtualLanes.combine(p, 2);
    denseTail(theta, x, bound1, n, g, p);
    return FloatVirtualLanes.sum(p);
  }

  /**
   * Dense step over the tail {@code [from, to)} ({@code to - from < LANES}), each new square fused
   * into lane {@code p[i - from]}; also the vector kernel's tail.
   */
  public static void denseTail(MemorySegment theta, MemorySegment x, int from, int to, float g, float[] p) {
    for (int i = from; i < to; i++) {
      float a = stepOne(theta, x, i, g);
      p[i - from] = Math.fma(a, a, p[i - from]);
    }
  }

  /** Sparse step over entries {@code [from, to)}; returns the change of the squared norm. */
  public static float sparseRange(MemorySegment theta, MemorySegment idx, MemorySegment val, int from, int to, float g) {
    float delta = 0;
    for (int j = from; j < to; j++) {
      int i = idx.getAtIndex(I, j);
      float old = theta.getAtIndex(E, i);
      float gx = g * val.getAtIndex(E, j);
      theta.setAtIndex(E, i, old - gx);
      delta += gx * (gx - 2 * old);
    }
    return delta;
  }

  /** {@code out = c * theta} over {@code [from, to)}. */
  public static void scaleRange(MemorySegment theta, float c, MemorySegment out, int from, int to) {
    for (int i = from; i < to; i++) {
      out.setAtIndex(E, i, c * theta.getAtIndex(E, i));
    }
  }

  @Override
  protected double updateDenseImpl(MemorySegment theta, MemorySegment x, int n, double g) {
    return dense(theta, x, n, (float) g);
  }

  @Override
  protected double updateSparseImpl(MemorySegment theta, MemorySegment idx, MemorySegment val, int nnz, double g) {
    return sparseRange(theta, idx, val, 0, nnz, (float) g);
  }

  @Override
  protected void scaleIntoImpl(MemorySegment theta, double c, MemorySegment out, int n) {
    scaleRange(theta, (float) c, out, 0, n);
  }
}
