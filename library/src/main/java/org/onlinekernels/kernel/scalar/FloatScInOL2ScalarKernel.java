package org.onlinekernels.kernel.scalar;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.ScInOL2Kernel;

/**
 * Scalar float ScInOL2. Source of the generated {@code Double} twin: edit only this file.
 * {@link #weight} and {@link #eta} are the per-lane rules in the evaluation order documented on
 * {@link ScInOL2Kernel}; the vector kernel performs the same operations in the same order, so both
 * agree bit for bit (no transcendental), and its tails call the range methods here.
 */
public final class FloatScInOL2ScalarKernel extends ScInOL2Kernel {
  /** The one instance. */
  public static final FloatScInOL2ScalarKernel INSTANCE = new FloatScInOL2ScalarKernel();

  private static final ValueLayout.OfFloat E = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
  private static final int V = FloatVirtualLanes.LANES;
  /** The weight's saturation bound, the largest finite element (see {@link ScInOL2Kernel}). */
  static final float W_MAX = Float.MAX_VALUE;

  private FloatScInOL2ScalarKernel() {
    super(ElementType.FLOAT);
  }

  /**
   * {@code w_i} from {@code G_i}, {@code q = S2_i + M_i*M_i} and {@code eta_i}:
   * {@code ((sgn(theta) * min(|theta|, 1)) * eta) / (2 * s)}, {@code s = sqrt(q)},
   * {@code theta = G / s}, and 0 where {@code s == 0}; clamped into {@code [-W_MAX, W_MAX]}.
   */
  public static float weight(float bigG, float q, float eta) {
    float s = (float) Math.sqrt(q);
    if (s == 0) {
      return 0;
    }
    float theta = bigG / s;
    // sgn(theta) * min(|theta|, 1) is theta clamped to [-1, 1], bit for bit (signed zeros and NaN
    // included; the vector kernel's blends say why): copySign(min(|theta|, 1), theta) keeps a NaN's
    // bits (abs and copySign move only the sign) and -0.0. Branch-free on purpose: the sign of G,
    // and whether |theta| > 1, vary from coordinate to coordinate. Measured on the fused round body
    // (ns per row, one JVM): sgn's two branches 490 against 320 for min/max (random rows, nnz 16);
    // then min/max / one branch on |theta| > 1 / this form: austen_lines 226 / 290 / 214, a Zipf
    // stream with 8 nonzeros 264 / 262 / 229, heart_scale 232 / 184 / 213. Saturation
    // (ScInOL2Kernel): a tiny s can take w past the largest finite value.
    float c = Math.copySign(Math.min(Math.abs(theta), 1f), theta);
    float w = c * eta / (2 * s);
    // Only an infinite w lies beyond W_MAX: a branch that is practically never taken costs less
    // than Java's NaN-aware min and max (measured: about 6 ns per nonzero on short rows), and gives
    // the same bits (NaN fails the compare and stays NaN).
    return Math.abs(w) > W_MAX ? Math.copySign(W_MAX, w) : w;
  }

  /**
   * New wealth {@code eta - gx * w} with {@code gx = g * x}; unchanged where {@code gx == 0}, so a
   * zero input leaves the coordinate alone even if {@code w} is infinite.
   */
  /** The wealth's saturation bound (see {@link ScInOL2Kernel}). */
  static final float WEALTH_CAP = (float) ScInOL2Kernel.FLOAT_WEALTH_CAP;

  public static float eta(float eta, float gx, float w) {
    // Saturation (ScInOL2Kernel): the wealth is clamped instead of overflowing.
    // The same bits as clamping with min and max (NaN stays NaN), as a rarely taken branch.
    if (gx == 0) {
      return eta;
    }
    float e = eta - gx * w;
    return Math.abs(e) > WEALTH_CAP ? Math.copySign(WEALTH_CAP, e) : e;
  }

  /** One coordinate of the predict: updates {@code M_i}, writes {@code w_i} to {@code wOut[wAt]} unless null; returns {@code w_i}. */
  private static float predictWeight(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, int i, float x,
      MemorySegment wOut, long wAt) {
    float mi = Math.max(m.getAtIndex(E, i), Math.abs(x));
    m.setAtIndex(E, i, mi);
    float w = weight(bigG.getAtIndex(E, i), s2.getAtIndex(E, i) + mi * mi, eta.getAtIndex(E, i));
    if (wOut != null) {
      wOut.setAtIndex(E, wAt, w);
    }
    return w;
  }

  private static float predictOne(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, int i, float x,
      MemorySegment wOut, long wAt) {
    float w = predictWeight(bigG, s2, m, eta, i, x, wOut, wAt);
    return x != 0 ? x * w : 0;
  }

  /**
   * Coordinate {@code i} of the dense predict: {@code acc + x_i w_i} with one rounding, {@code w_i}
   * taken as 0 where {@code x_i == 0} (an infinite weight must not make {@code 0 * inf}).
   */
  private static float fuseOne(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int i,
      MemorySegment wOut, float acc) {
    float xi = x.getAtIndex(E, i);
    float w = predictWeight(bigG, s2, m, eta, i, xi, wOut, i);
    return Math.fma(xi, xi != 0 ? w : 0, acc);
  }

  /**
   * Dense predict over {@code [0, n)}, writing {@code w_i} to {@code wOut[i]} unless {@code wOut}
   * is null; returns {@code yhat} summed in {@link FloatVirtualLanes}'s order with one
   * accumulator (the vector kernel's bits).
   */
  public static float predictDenseSum(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n,
      MemorySegment wOut) {
    float[] p = FloatVirtualLanes.scratch();
    FloatVirtualLanes.clear(p, 1);
    predictDenseLanes(bigG, s2, m, eta, x, 0, n, wOut, p);
    return FloatVirtualLanes.sum(p);
  }

  /**
   * Dense predict over {@code [from, to)} ({@code from} a multiple of {@code LANES}), each
   * {@code x_i w_i} fused into lane {@code p[i mod LANES]} of the one accumulator; also the
   * vector kernel's tail.
   */
  public static void predictDenseLanes(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x,
      int from, int to, MemorySegment wOut, float[] p) {
    for (int i = from; i < to; i++) {
      p[i % V] = fuseOne(bigG, s2, m, eta, x, i, wOut, p[i % V]);
    }
  }

  /** Sparse predict over entries {@code [from, to)}, writing entry {@code j}'s weight to {@code wOut[j]} unless null. */
  public static float predictSparseRange(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
      MemorySegment idx, MemorySegment val, int from, int to, MemorySegment wOut) {
    float a0 = 0, a1 = 0;
    int j = from;
    for (; j + 1 < to; j += 2) {
      a0 += predictOne(bigG, s2, m, eta, idx.getAtIndex(I, j), val.getAtIndex(E, j), wOut, j);
      a1 += predictOne(bigG, s2, m, eta, idx.getAtIndex(I, j + 1), val.getAtIndex(E, j + 1), wOut, j + 1);
    }
    for (; j < to; j++) {
      a0 += predictOne(bigG, s2, m, eta, idx.getAtIndex(I, j), val.getAtIndex(E, j), wOut, j);
    }
    return a0 + a1;
  }

  /** Update of coordinate {@code i} with {@code gx = g x_i}; {@code w} is only read when {@code gx != 0}. */
  private static void updateOne(MemorySegment bigG, MemorySegment s2, MemorySegment eta, int i, float gx, float w) {
    bigG.setAtIndex(E, i, bigG.getAtIndex(E, i) - gx);
    s2.setAtIndex(E, i, s2.getAtIndex(E, i) + gx * gx);
    eta.setAtIndex(E, i, eta(eta.getAtIndex(E, i), gx, w));
  }

  /** {@code w_i} recomputed from the current (pre-update) state. */
  private static float currentWeight(MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, int i) {
    float mi = m.getAtIndex(E, i);
    return weight(bigG.getAtIndex(E, i), s2.getAtIndex(E, i) + mi * mi, eta.getAtIndex(E, i));
  }

  /** Dense update over {@code [from, to)}, recomputing {@code w_i} (only where {@code g x_i != 0}, the only place it is used). */
  public static void updateDenseRange(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x,
      int from, int to, float g) {
    for (int i = from; i < to; i++) {
      float gx = g * x.getAtIndex(E, i);
      float w = gx != 0 ? currentWeight(bigG, s2, m, eta, i) : 0;
      updateOne(bigG, s2, eta, i, gx, w);
    }
  }

  /** Sparse update over entries {@code [from, to)}, recomputing {@code w}. */
  public static void updateSparseRange(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
      MemorySegment idx, MemorySegment val, int from, int to, float g) {
    for (int j = from; j < to; j++) {
      int i = idx.getAtIndex(I, j);
      float gx = g * val.getAtIndex(E, j);
      float w = gx != 0 ? currentWeight(bigG, s2, m, eta, i) : 0;
      updateOne(bigG, s2, eta, i, gx, w);
    }
  }

  /** Dense update over {@code [from, to)} with stored weights {@code w[i]}. */
  public static void updateDenseStoredRange(
      MemorySegment bigG, MemorySegment s2, MemorySegment eta, MemorySegment w, MemorySegment x,
      int from, int to, float g) {
    for (int i = from; i < to; i++) {
      updateOne(bigG, s2, eta, i, g * x.getAtIndex(E, i), w.getAtIndex(E, i));
    }
  }

  /** Sparse update over entries {@code [from, to)} with compact stored weights {@code w[j]}. */
  public static void updateSparseStoredRange(
      MemorySegment bigG, MemorySegment s2, MemorySegment eta, MemorySegment w,
      MemorySegment idx, MemorySegment val, int from, int to, float g) {
    for (int j = from; j < to; j++) {
      updateOne(bigG, s2, eta, idx.getAtIndex(I, j), g * val.getAtIndex(E, j), w.getAtIndex(E, j));
    }
  }

  /** Weight read-out over {@code [from, to)}. */
  public static void weightsRange(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment out, int from, int to) {
    for (int i = from; i < to; i++) {
      out.setAtIndex(E, i, currentWeight(bigG, s2, m, eta, i));
    }
  }

  @Override
  protected double predictDenseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n,
      MemorySegment wOut) {
    return predictDenseSum(bigG, s2, m, eta, x, n, wOut);
  }

  @Override
  protected double predictSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
      MemorySegment idx, MemorySegment val, int nnz, MemorySegment wOut) {
    return predictSparseRange(bigG, s2, m, eta, idx, val, 0, nnz, wOut);
  }

  @Override
  protected void updateDenseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n, double g) {
    updateDenseRange(bigG, s2, m, eta, x, 0, n, (float) g);
  }

  @Override
  protected void updateSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
      MemorySegment idx, MemorySegment val, int nnz, double g) {
    updateSparseRange(bigG, s2, m, eta, idx, val, 0, nnz, (float) g);
  }

  @Override
  protected void updateDenseStoredImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment eta, MemorySegment w, MemorySegment x, int n, double g) {
    updateDenseStoredRange(bigG, s2, eta, w, x, 0, n, (float) g);
  }

  @Override
  protected void updateSparseStoredImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment eta, MemorySegment w,
      MemorySegment idx, MemorySegment val, int nnz, double g) {
    updateSparseStoredRange(bigG, s2, eta, w, idx, val, 0, nnz, (float) g);
  }

  @Override
  protected void weightsImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment out, int n) {
    weightsRange(bigG, s2, m, eta, out, 0, n);
  }
}
