package org.onlinekernels.kernel.scalar;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.ScInOL1Kernel;

/**
 * Scalar float ScInOL1. Source of the generated {@code Double} twin: edit only this file.
 * {@link #weight} and {@link #beta} are the per-lane rules in the evaluation order documented on
 * {@link ScInOL1Kernel}; the vector kernel performs the same operations in the same order (its
 * only different operation is {@code expm1}), and its tails call the range methods here.
 */
public final class FloatScInOL1ScalarKernel extends ScInOL1Kernel {
  /** The one instance. */
  public static final FloatScInOL1ScalarKernel INSTANCE = new FloatScInOL1ScalarKernel();

  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;

  /** The saturation cap of the exponent (see {@link ScInOL1Kernel}). */
  static final float EXP_CAP = (float) ScInOL1Kernel.FLOAT_EXP_CAP;
  /** The weight's saturation bound, the largest finite element (see {@link ScInOL1Kernel}). */
  static final float W_MAX = Float.MAX_VALUE;

  private FloatScInOL1ScalarKernel() {
    super(ElementType.FLOAT);
  }

  /**
   * {@link Math#signum} written with comparisons, so that the vector kernel's two blends
   * reproduce it exactly, {@code ±0} and NaN passing through unchanged.
   */
  public static float sgn(float v) {
    return v > 0 ? 1 : v < 0 ? -1 : v;
  }

  /**
   * {@code w_i} from {@code G_i}, {@code q = S2_i + M_i*M_i} and {@code beta_i}:
   * {@code ((beta * sgn(theta)) * expm1(|theta| / 2)) / (2 * s)}, {@code s = sqrt(q)},
   * {@code theta = G / s}, the exponent capped at {@code EXP_CAP}, and 0 where {@code s == 0} (which also covers {@code 0/0} and a
   * {@code G != 0} whose squares underflowed out of {@code S2}); clamped into {@code [-W_MAX, W_MAX]}.
   */
  public static float weight(float bigG, float q, float beta) {
    float s = (float) Math.sqrt(q);
    if (s == 0) {
      return 0;
    }
    float theta = bigG / s;
    // Saturation (ScInOL1Kernel): a tiny s can take w past the largest finite value.
    return Math.max(-W_MAX, Math.min(beta * sgn(theta) * (float) Math.expm1(Math.min(Math.abs(theta) / 2, EXP_CAP)) / (2 * s), W_MAX));
  }

  /**
   * New {@code beta_i}: {@code min(beta, (epsilon * q) / (x2 * t))} with {@code x2 = x*x}, or
   * {@code beta} unchanged when {@code x2 == 0}, including an underflowed square, where the
   * literal {@code 0/0 = 0} would zero {@code beta} for good.
   */
  public static float beta(float beta, float x2, float q, float epsilon, float t) {
    return x2 != 0 ? Math.min(beta, epsilon * q / (x2 * t)) : beta;
  }

  /** One coordinate of the predict: updates {@code M_i}, {@code beta_i}; returns {@code x w_i} (0 if {@code x == 0}). */
  private static float predictOne(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, int i, float x,
      float epsilon, float t) {
    float mi = Math.max(m.getAtIndex(E, i), Math.abs(x));
    m.setAtIndex(E, i, mi);
    float q = s2.getAtIndex(E, i) + mi * mi;
    float b = beta(beta.getAtIndex(E, i), x * x, q, epsilon, t);
    beta.setAtIndex(E, i, b);
    return x != 0 ? x * weight(bigG.getAtIndex(E, i), q, b) : 0;
  }

  /**
   * Dense predict over {@code [from, to)}; returns the partial {@code yhat}. Four interleaved
   * partial sums keep the rounding chain about as long as the vector kernel's.
   */
  public static float predictDenseRange(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, MemorySegment x,
      int from, int to, float epsilon, float t) {
    float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    int i = from;
    for (; i + 3 < to; i += 4) {
      a0 += predictOne(bigG, s2, m, beta, i, x.getAtIndex(E, i), epsilon, t);
      a1 += predictOne(bigG, s2, m, beta, i + 1, x.getAtIndex(E, i + 1), epsilon, t);
      a2 += predictOne(bigG, s2, m, beta, i + 2, x.getAtIndex(E, i + 2), epsilon, t);
      a3 += predictOne(bigG, s2, m, beta, i + 3, x.getAtIndex(E, i + 3), epsilon, t);
    }
    for (; i < to; i++) {
      a0 += predictOne(bigG, s2, m, beta, i, x.getAtIndex(E, i), epsilon, t);
    }
    return (a0 + a1) + (a2 + a3);
  }

  /** Sparse predict over entries {@code [from, to)}; returns the partial {@code yhat}. */
  public static float predictSparseRange(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta,
      MemorySegment idx, MemorySegment val, int from, int to, float epsilon, float t) {
    float a0 = 0, a1 = 0;
    int j = from;
    for (; j + 1 < to; j += 2) {
      a0 += predictOne(bigG, s2, m, beta, idx.getAtIndex(I, j), val.getAtIndex(E, j), epsilon, t);
      a1 += predictOne(bigG, s2, m, beta, idx.getAtIndex(I, j + 1), val.getAtIndex(E, j + 1), epsilon, t);
    }
    for (; j < to; j++) {
      a0 += predictOne(bigG, s2, m, beta, idx.getAtIndex(I, j), val.getAtIndex(E, j), epsilon, t);
    }
    return a0 + a1;
  }

  /** Dense update over {@code [from, to)}: {@code G -= g x}, {@code S2 += (g x)^2}. */
  public static void updateDenseRange(MemorySegment bigG, MemorySegment s2, MemorySegment x, int from, int to, float g) {
    for (int i = from; i < to; i++) {
      float gx = g * x.getAtIndex(E, i);
      bigG.setAtIndex(E, i, bigG.getAtIndex(E, i) - gx);
      s2.setAtIndex(E, i, s2.getAtIndex(E, i) + gx * gx);
    }
  }

  /** Sparse update over entries {@code [from, to)}. */
  public static void updateSparseRange(
      MemorySegment bigG, MemorySegment s2, MemorySegment idx, MemorySegment val, int from, int to, float g) {
    for (int j = from; j < to; j++) {
      int i = idx.getAtIndex(I, j);
      float gx = g * val.getAtIndex(E, j);
      bigG.setAtIndex(E, i, bigG.getAtIndex(E, i) - gx);
      s2.setAtIndex(E, i, s2.getAtIndex(E, i) + gx * gx);
    }
  }

  /** Weight read-out over {@code [from, to)}. */
  public static void weightsRange(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, MemorySegment out, int from, int to) {
    for (int i = from; i < to; i++) {
      float mi = m.getAtIndex(E, i);
      float q = s2.getAtIndex(E, i) + mi * mi;
      out.setAtIndex(E, i, weight(bigG.getAtIndex(E, i), q, beta.getAtIndex(E, i)));
    }
  }

  @Override
  protected double predictDenseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, MemorySegment x, int n,
      double t, double epsilon) {
    return predictDenseRange(bigG, s2, m, beta, x, 0, n, (float) epsilon, (float) t);
  }

  @Override
  protected double predictSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta,
      MemorySegment idx, MemorySegment val, int nnz, double t, double epsilon) {
    return predictSparseRange(bigG, s2, m, beta, idx, val, 0, nnz, (float) epsilon, (float) t);
  }

  @Override
  protected void updateDenseImpl(MemorySegment bigG, MemorySegment s2, MemorySegment x, int n, double g) {
    updateDenseRange(bigG, s2, x, 0, n, (float) g);
  }

  @Override
  protected void updateSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment idx, MemorySegment val, int nnz, double g) {
    updateSparseRange(bigG, s2, idx, val, 0, nnz, (float) g);
  }

  @Override
  protected void weightsImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, MemorySegment out, int n) {
    weightsRange(bigG, s2, m, beta, out, 0, n);
  }
}
