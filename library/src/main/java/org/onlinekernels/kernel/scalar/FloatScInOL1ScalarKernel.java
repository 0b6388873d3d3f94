package org.onlinekernels.kernel.scalar;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.ScInOL1Kernel;

/**
 * Scalar float ScInOL1. Source of the generated {@code Double} twin: edit only this file.
 * {@link #weight} and {@link #beta} are the per-lane rules in the evaluation order documented on
 * {@link ScInOL1Kernel}; the vector kernel performs the same operations in the same order,
 * {@code expm1} included ({@link #expm1}, not {@link Math#expm1}), and its tails call the range
 * methods here, so both agree bit for bit.
 */
public final class FloatScInOL1ScalarKernel extends ScInOL1Kernel {
  /** The one instance. */
  public static final FloatScInOL1ScalarKernel INSTANCE = new FloatScInOL1ScalarKernel();

  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
  private static final int V = FloatVirtualLanes.LANES;

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
    return Math.max(-W_MAX, Math.min(beta * sgn(theta) * expm1(Math.min(Math.abs(theta) / 2, EXP_CAP)) / (2 * s), W_MAX));
  }

  private static final float[] COEFFS = Expm1Constants.FLOAT_COEFFS;

  /**
   * {@code expm1(h)} for {@code 0 <= h <= EXP_CAP} (or NaN) by the polynomial of
   * {@link Expm1Constants}, with the vector kernel's operations and fused multiply-adds in the same
   * order, so both return the same bits (within 2 ulps of {@link Math#expm1}: VectorExpm1Test).
   */
  public static float expm1(float h) {
    float kr = Math.fma(h, Expm1Constants.FLOAT_LOG2E, Expm1Constants.FLOAT_ROUNDER);
    float nk = -(kr - Expm1Constants.FLOAT_ROUNDER);
    float r = Math.fma(nk, Expm1Constants.FLOAT_LN2_LO, Math.fma(nk, Expm1Constants.FLOAT_LN2_HI, h));
    float p = COEFFS[0];
    for (int c = 1; c < COEFFS.length; c++) {
      p = Math.fma(p, r, COEFFS[c]);
    }
    float twoK = Expm1Constants.floatPow2(kr);
    return Math.fma(Math.fma(r * r, p, r), twoK, twoK - 1);
  }

  /**
   * New {@code beta_i}: {@code min(beta, (epsilon * q) / (x2 * t))} with {@code x2 = x*x}, or
   * {@code beta} unchanged when {@code x2 == 0}, including an underflowed square, where the
   * literal {@code 0/0 = 0} would zero {@code beta} for good.
   */
  public static float beta(float beta, float x2, float q, float epsilon, float t) {
    return x2 != 0 ? Math.min(beta, epsilon * q / (x2 * t)) : beta;
  }

  /** One coordinate of the predict: updates {@code M_i}, {@code beta_i}; returns {@code w_i}. */
  private static float predictWeight(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, int i, float x,
      float epsilon, float t) {
    float mi = Math.max(m.getAtIndex(E, i), Math.abs(x));
    m.setAtIndex(E, i, mi);
    float q = s2.getAtIndex(E, i) + mi * mi;
    float b = beta(beta.getAtIndex(E, i), x * x, q, epsilon, t);
    beta.setAtIndex(E, i, b);
    return weight(bigG.getAtIndex(E, i), q, b);
  }

  /** One coordinate of the sparse predict: returns {@code x w_i} (0 if {@code x == 0}). */
  private static float predictOne(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, int i, float x,
      float epsilon, float t) {
    float w = predictWeight(bigG, s2, m, beta, i, x, epsilon, t);
    return x != 0 ? x * w : 0;
  }

  /** Coordinate {@code i} of the dense predict: {@code acc + x_i w_i}, one rounding, {@code w_i} taken as 0 where {@code x_i == 0}. */
  private static float fuseOne(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, MemorySegment x, int i,
      float epsilon, float t, float acc) {
    float xi = x.getAtIndex(E, i);
    float w = predictWeight(bigG, s2, m, beta, i, xi, epsilon, t);
    return Math.fma(xi, xi != 0 ? w : 0, acc);
  }

  /**
   * Dense predict over {@code [0, n)}; returns {@code yhat} summed in {@link FloatVirtualLanes}'s
   * order with one accumulator (the vector kernel's bits).
   */
  public static float predictDenseSum(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, MemorySegment x,
      int n, float epsilon, float t) {
    float[] p = FloatVirtualLanes.scratch();
    FloatVirtualLanes.clear(p, 1);
    predictDenseLanes(bigG, s2, m, beta, x, 0, n, epsilon, t, p);
    return FloatVirtualLanes.sum(p);
  }

  /**
   * Dense predict over {@code [from, to)} ({@code from} a multiple of {@code LANES}), each
   * {@code x_i w_i} fused into lane {@code p[i mod LANES]} of the one accumulator; also the
   * vector kernel's tail.
   */
  public static void predictDenseLanes(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, MemorySegment x,
      int from, int to, float epsilon, float t, float[] p) {
    for (int i = from; i < to; i++) {
      p[i % V] = fuseOne(bigG, s2, m, beta, x, i, epsilon, t, p[i % V]);
    }
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
    return predictDenseSum(bigG, s2, m, beta, x, n, (float) epsilon, (float) t);
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
