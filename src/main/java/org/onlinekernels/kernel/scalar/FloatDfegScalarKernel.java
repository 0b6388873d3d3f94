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

  /** Dense step over {@code [from, to)}; returns the sum of the new squares there. */
  public static float denseRange(MemorySegment theta, MemorySegment x, int from, int to, float g) {
    float s0 = 0, s1 = 0;
    int i = from;
    for (; i + 1 < to; i += 2) {
      float a = theta.getAtIndex(E, i) - g * x.getAtIndex(E, i);
      float b = theta.getAtIndex(E, i + 1) - g * x.getAtIndex(E, i + 1);
      theta.setAtIndex(E, i, a);
      theta.setAtIndex(E, i + 1, b);
      s0 += a * a;
      s1 += b * b;
    }
    for (; i < to; i++) {
      float a = theta.getAtIndex(E, i) - g * x.getAtIndex(E, i);
      theta.setAtIndex(E, i, a);
      s0 += a * a;
    }
    return s0 + s1;
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
    return denseRange(theta, x, 0, n, (float) g);
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
