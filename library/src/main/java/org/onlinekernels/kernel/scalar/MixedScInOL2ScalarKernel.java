package org.onlinekernels.kernel.scalar;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.kernel.MixedScInOL2Kernel;
import org.onlinekernels.kernel.ScInOL2Kernel;

/**
 * Scalar mixed-precision ScInOL2 (float {@code x}, {@code M}; double {@code G}, {@code S2},
 * {@code eta} and arithmetic). {@link #weight} and {@link #eta} are the per-lane rules of
 * {@link MixedScInOL2Kernel}; the vector kernel performs the same operations in the same order, so
 * the state agrees bit for bit. Not a {@code Float*} file: no generated twin.
 */
public final class MixedScInOL2ScalarKernel extends MixedScInOL2Kernel {
  /** The one instance. */
  public static final MixedScInOL2ScalarKernel INSTANCE = new MixedScInOL2ScalarKernel();

  private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;
  private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
  private static final int V = DoubleVirtualLanes.LANES;
  static final double WEALTH_CAP = ScInOL2Kernel.DOUBLE_WEALTH_CAP;

  private MixedScInOL2ScalarKernel() {}

  /** {@code w_i} in double from {@code G_i}, {@code q = S2_i + m*m} and {@code eta_i}; 0 where {@code s == 0}. */
  public static double weight(double bigG, double q, double eta) {
    double s = Math.sqrt(q);
    if (s == 0) {
      return 0;
    }
    double theta = bigG / s;
    // Saturation as in double (ScInOL2Kernel).
    return Math.max(-Double.MAX_VALUE, Math.min(DoubleScInOL1ScalarKernel.sgn(theta) * Math.min(Math.abs(theta), 1) * eta / (2 * s), Double.MAX_VALUE));
  }

  /** New wealth {@code clamp(eta - gx w)}, unchanged where {@code gx == 0}. */
  public static double eta(double eta, double gx, double w) {
    return gx != 0 ? Math.max(-WEALTH_CAP, Math.min(eta - gx * w, WEALTH_CAP)) : eta;
  }

  /** One coordinate of the predict: updates {@code M_i}; returns {@code w_i}. */
  private static double predictWeight(MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, int i, float x) {
    float mi = Math.max(m.getAtIndex(F, i), Math.abs(x));
    m.setAtIndex(F, i, mi);
    double md = mi;
    return weight(bigG.getAtIndex(D, i), s2.getAtIndex(D, i) + md * md, eta.getAtIndex(D, i));
  }

  private static double predictOne(MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, int i, float x) {
    double w = predictWeight(bigG, s2, m, eta, i, x);
    return x != 0 ? (double) x * w : 0;
  }

  /** Coordinate {@code i} of the dense predict: {@code acc + x_i w_i}, one rounding, {@code w_i} taken as 0 where {@code x_i == 0}. */
  private static double fuseOne(MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int i, double acc) {
    float xi = x.getAtIndex(F, i);
    double w = predictWeight(bigG, s2, m, eta, i, xi);
    return Math.fma(xi, xi != 0 ? w : 0, acc);
  }

  /**
   * Dense predict over {@code [0, n)}, summed in {@link DoubleVirtualLanes}'s order with one
   * accumulator (the vector kernel's bits).
   */
  public static double predictDenseSum(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n) {
    double[] p = DoubleVirtualLanes.scratch();
    DoubleVirtualLanes.clear(p, 1);
    predictDenseLanes(bigG, s2, m, eta, x, 0, n, p);
    return DoubleVirtualLanes.sum(p);
  }

  /** {@link #predictDenseSum} over {@code [from, to)} ({@code from} a multiple of {@code LANES}), fused into lanes {@code p[i mod LANES]}; also the vector kernel's tail. */
  public static void predictDenseLanes(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int from, int to, double[] p) {
    for (int i = from; i < to; i++) {
      p[i % V] = fuseOne(bigG, s2, m, eta, x, i, p[i % V]);
    }
  }

  /** Sparse predict over entries {@code [from, to)}. */
  public static double predictSparseRange(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
      MemorySegment idx, MemorySegment val, int from, int to) {
    double a0 = 0, a1 = 0;
    int j = from;
    for (; j + 1 < to; j += 2) {
      a0 += predictOne(bigG, s2, m, eta, idx.getAtIndex(I, j), val.getAtIndex(F, j));
      a1 += predictOne(bigG, s2, m, eta, idx.getAtIndex(I, j + 1), val.getAtIndex(F, j + 1));
    }
    for (; j < to; j++) {
      a0 += predictOne(bigG, s2, m, eta, idx.getAtIndex(I, j), val.getAtIndex(F, j));
    }
    return a0 + a1;
  }

  static double currentWeight(MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, int i) {
    double md = m.getAtIndex(F, i);
    return weight(bigG.getAtIndex(D, i), s2.getAtIndex(D, i) + md * md, eta.getAtIndex(D, i));
  }

  private static void updateOne(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, int i, double gx) {
    double w = gx != 0 ? currentWeight(bigG, s2, m, eta, i) : 0;
    bigG.setAtIndex(D, i, bigG.getAtIndex(D, i) - gx);
    s2.setAtIndex(D, i, s2.getAtIndex(D, i) + gx * gx);
    eta.setAtIndex(D, i, eta(eta.getAtIndex(D, i), gx, w));
  }

  /** Dense update over {@code [from, to)}, recomputing {@code w_i} where {@code g x_i != 0}. */
  public static void updateDenseRange(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int from, int to, double g) {
    for (int i = from; i < to; i++) {
      updateOne(bigG, s2, m, eta, i, g * (double) x.getAtIndex(F, i));
    }
  }

  /** Sparse update over entries {@code [from, to)}. */
  public static void updateSparseRange(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
      MemorySegment idx, MemorySegment val, int from, int to, double g) {
    for (int j = from; j < to; j++) {
      updateOne(bigG, s2, m, eta, idx.getAtIndex(I, j), g * (double) val.getAtIndex(F, j));
    }
  }

  /** Weight read-out over {@code [from, to)}, rounded to float. */
  public static void weightsRange(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment out, int from, int to) {
    for (int i = from; i < to; i++) {
      // Read-out saturates at float's largest finite value (MixedScInOL2Kernel).
      out.setAtIndex(F, i, (float) Math.max(-Float.MAX_VALUE, Math.min(currentWeight(bigG, s2, m, eta, i), Float.MAX_VALUE)));
    }
  }

  @Override
  protected double predictDenseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n) {
    return predictDenseSum(bigG, s2, m, eta, x, n);
  }

  @Override
  protected double predictSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
      MemorySegment idx, MemorySegment val, int nnz) {
    return predictSparseRange(bigG, s2, m, eta, idx, val, 0, nnz);
  }

  @Override
  protected void updateDenseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n, double g) {
    updateDenseRange(bigG, s2, m, eta, x, 0, n, g);
  }

  @Override
  protected void updateSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
      MemorySegment idx, MemorySegment val, int nnz, double g) {
    updateSparseRange(bigG, s2, m, eta, idx, val, 0, nnz, g);
  }

  @Override
  protected void weightsImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment out, int n) {
    weightsRange(bigG, s2, m, eta, out, 0, n);
  }
}
