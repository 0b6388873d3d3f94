package org.onlinekernels.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * Mixed-precision ScInOL2 (ALGORITHMS.md section 4) in recompute mode: inputs {@code x}, the
 * running maximum {@code M} and the weight read-out are {@code float}; the accumulators {@code G},
 * {@code S2} and the wealth {@code eta} are {@code double}, and so is every operation:
 *
 * <pre>
 *   predict:  M_i   = max(M_i, |x_i|)                      (float; a max is exact)
 *             m     = (double) M_i
 *             s     = sqrt(S2_i + m*m)
 *             theta = G_i / s                                             (0 where s == 0)
 *             w_i   = clamp(((sgn(theta) * min(|theta|, 1)) * eta_i) / (2 * s), +-Double.MAX_VALUE)
 *                                                                         (double; 0 where s == 0)
 *             yhat  = sum_i (double) x_i * w_i                            (double)
 *   update:   gx    = g * (double) x_i                     (g: double, not rounded to float)
 *             G_i   = G_i - gx
 *             S2_i  = S2_i + gx * gx
 *             eta_i = clamp(eta_i - gx * w_i, +-DOUBLE_WEALTH_CAP)        (unchanged where gx == 0)
 *   weights:  out_i = (float) clamp(w_i, +-Float.MAX_VALUE)  (the only rounding to float)
 * </pre>
 *
 * These are the double reference's operations on float inputs, so {@code G}, {@code S2},
 * {@code M} and {@code eta} are bit-identical to {@code ReferenceScInOL2} fed the same inputs; only
 * the order of the {@code yhat} sum differs. The wealth saturates at
 * {@link ScInOL2Kernel#DOUBLE_WEALTH_CAP} as in double, and the weights at the largest double
 * ({@link ScInOL2Kernel}); the read-out saturates at the largest float instead of becoming
 * infinite (a wealth of {@code 2^900} makes weights far beyond float's range). The weights are never stored: the update
 * recomputes them (bit-identically) from the state the predict left.
 */
public abstract class MixedScInOL2Kernel {
  private final MethodHandle predictDenseBody;
  private final MethodHandle predictSparseBody;
  private final MethodHandle updateDenseBody;
  private final MethodHandle updateSparseBody;
  private final MethodHandle weightsBody;

  /** For implementations. */
  protected MixedScInOL2Kernel() {
    Class<?> s = MemorySegment.class;
    predictDenseBody = KernelBarrier.bind(this, MixedScInOL2Kernel.class, "predictDenseImpl", MethodType.methodType(double.class, s, s, s, s, s, int.class));
    predictSparseBody = KernelBarrier.bind(this, MixedScInOL2Kernel.class, "predictSparseImpl", MethodType.methodType(double.class, s, s, s, s, s, s, int.class));
    updateDenseBody = KernelBarrier.bind(this, MixedScInOL2Kernel.class, "updateDenseImpl", MethodType.methodType(void.class, s, s, s, s, s, int.class, double.class));
    updateSparseBody = KernelBarrier.bind(this, MixedScInOL2Kernel.class, "updateSparseImpl", MethodType.methodType(void.class, s, s, s, s, s, s, int.class, double.class));
    weightsBody = KernelBarrier.bind(this, MixedScInOL2Kernel.class, "weightsImpl", MethodType.methodType(void.class, s, s, s, s, s, int.class));
  }

  /** Dense predict: updates {@code M} for {@code x} and returns {@code yhat = <w_t, x>} summed in double. */
  public final double predictDense(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n) {
    KernelChecks.count("n", n);
    checkAccumulators(bigG, s2, eta, n, false);
    KernelChecks.state("M", m, n, ElementType.FLOAT);
    KernelChecks.input("x", x, n, ElementType.FLOAT);
    try {
      return (double) predictDenseBody.invokeExact(bigG, s2, m, eta, x, n);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Sparse twin of {@link #predictDense}; O(nnz). */
  public final double predictSparse(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, int n,
      MemorySegment idx, MemorySegment val, int nnz) {
    KernelChecks.count("n", n);
    checkAccumulators(bigG, s2, eta, n, false);
    KernelChecks.state("M", m, n, ElementType.FLOAT);
    KernelChecks.sparse(idx, val, nnz, n, ElementType.FLOAT);
    try {
      return (double) predictSparseBody.invokeExact(bigG, s2, m, eta, idx, val, nnz);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Dense update (recompute mode): same {@code x} as the preceding predict, no state change between. */
  public final void updateDense(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n, double g) {
    KernelChecks.count("n", n);
    checkAccumulators(bigG, s2, eta, n, true);
    KernelChecks.input("M", m, n, ElementType.FLOAT);
    KernelChecks.input("x", x, n, ElementType.FLOAT);
    KernelChecks.finite("g", g);
    try {
      updateDenseBody.invokeExact(bigG, s2, m, eta, x, n, g);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Sparse twin of {@link #updateDense}; O(nnz). */
  public final void updateSparse(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, int n,
      MemorySegment idx, MemorySegment val, int nnz, double g) {
    KernelChecks.count("n", n);
    checkAccumulators(bigG, s2, eta, n, true);
    KernelChecks.input("M", m, n, ElementType.FLOAT);
    KernelChecks.sparse(idx, val, nnz, n, ElementType.FLOAT);
    KernelChecks.finite("g", g);
    try {
      updateSparseBody.invokeExact(bigG, s2, m, eta, idx, val, nnz, g);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Weight read-out outside a round into a float buffer: {@code (float) w_i} with {@code x = 0}. */
  public final void weights(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment out, int n) {
    KernelChecks.count("n", n);
    checkAccumulators(bigG, s2, eta, n, false);
    KernelChecks.input("M", m, n, ElementType.FLOAT);
    KernelChecks.state("out", out, n, ElementType.FLOAT);
    try {
      weightsBody.invokeExact(bigG, s2, m, eta, out, n);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  private static void checkAccumulators(MemorySegment bigG, MemorySegment s2, MemorySegment eta, int n, boolean written) {
    if (written) {
      KernelChecks.state("G", bigG, n, ElementType.DOUBLE);
      KernelChecks.state("S2", s2, n, ElementType.DOUBLE);
      KernelChecks.state("eta", eta, n, ElementType.DOUBLE);
    } else {
      KernelChecks.input("G", bigG, n, ElementType.DOUBLE);
      KernelChecks.input("S2", s2, n, ElementType.DOUBLE);
      KernelChecks.input("eta", eta, n, ElementType.DOUBLE);
    }
  }

  /** Unchecked body of {@link #predictDense}. */
  protected abstract double predictDenseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n);

  /** Unchecked body of {@link #predictSparse}. */
  protected abstract double predictSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
      MemorySegment idx, MemorySegment val, int nnz);

  /** Unchecked body of {@link #updateDense}. */
  protected abstract void updateDenseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n, double g);

  /** Unchecked body of {@link #updateSparse}. */
  protected abstract void updateSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
      MemorySegment idx, MemorySegment val, int nnz, double g);

  /** Unchecked body of {@link #weights}. */
  protected abstract void weightsImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment out, int n);
}
