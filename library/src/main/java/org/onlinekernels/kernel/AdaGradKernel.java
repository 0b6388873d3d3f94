package org.onlinekernels.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * Stateless AdaGrad-family update (ALGORITHMS.md section 1) over caller-owned buffers:
 *
 * <pre>
 *   g_i  = scale * x_i
 *   Q_i  = Q_i + g_i^2
 *   w_i  = clamp(w_i - (eta_i * g_i) / (delta + sqrt(Q_i)), a_i, b_i)   (unchanged if the denominator is 0)
 * </pre>
 *
 * The gradient form is {@code scale = 1} with {@code x = g} (exact: {@code 1 * g_i = g_i}); the
 * linear-model form passes the instance {@code x} and {@code scale = dLoss/dyhat}. Scalars are
 * rounded to the element type once per call. Box bounds may be infinite (no box).
 */
public abstract class AdaGradKernel {
  private final ElementType type;
  // Calls through non-constant handles: see KernelBarrier.
  private final MethodHandle updateDenseBody;
  private final MethodHandle updateDenseBoxedBody;
  private final MethodHandle updateSparseBody;
  private final MethodHandle updateSparseBoxedBody;

  /** For implementations. */
  protected AdaGradKernel(ElementType type) {
    this.type = type;
    updateDenseBody = KernelBarrier.bind(this, AdaGradKernel.class, "updateDenseImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class, double.class, double.class, double.class, double.class));
    updateDenseBoxedBody = KernelBarrier.bind(this, AdaGradKernel.class, "updateDenseBoxedImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class, double.class, boolean.class, double.class));
    updateSparseBody = KernelBarrier.bind(this, AdaGradKernel.class, "updateSparseImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class, double.class, double.class, double.class, double.class));
    updateSparseBoxedBody = KernelBarrier.bind(this, AdaGradKernel.class, "updateSparseBoxedImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class, double.class, boolean.class, double.class));
  }

  /** Element type of every buffer passed to this kernel. */
  public final ElementType elementType() {
    return type;
  }

  /** Dense update of {@code n} coordinates with a scalar rate and one box {@code [lo, hi]} for all. */
  public final void updateDense(
      MemorySegment w, MemorySegment q, MemorySegment x, int n,
      double scale, double eta, double delta, double lo, double hi) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, type);
    KernelChecks.state("q", q, n, type);
    KernelChecks.input("x", x, n, type);
    checkScalars(scale, eta, delta);
    KernelChecks.box(lo, hi);
    try {
      updateDenseBody.invokeExact(w, q, x, n, scale, eta, delta, lo, hi);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * Dense update with a per-coordinate box {@code [lo_i, hi_i]}; {@code eta_i = rate * (hi_i - lo_i)}
   * when {@code rateFromWidth}, else {@code rate}.
   */
  public final void updateDenseBoxed(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi, MemorySegment x, int n,
      double scale, double rate, boolean rateFromWidth, double delta) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, type);
    KernelChecks.state("q", q, n, type);
    KernelChecks.input("lo", lo, n, type);
    KernelChecks.input("hi", hi, n, type);
    KernelChecks.input("x", x, n, type);
    checkScalars(scale, rate, delta);
    try {
      updateDenseBoxedBody.invokeExact(w, q, lo, hi, x, n, scale, rate, rateFromWidth, delta);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Sparse update: only the {@code nnz} listed coordinates of a model of dimension {@code n}; O(nnz). */
  public final void updateSparse(
      MemorySegment w, MemorySegment q, int n, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double eta, double delta, double lo, double hi) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, type);
    KernelChecks.state("q", q, n, type);
    KernelChecks.sparse(idx, val, nnz, n, type);
    checkScalars(scale, eta, delta);
    KernelChecks.box(lo, hi);
    try {
      updateSparseBody.invokeExact(w, q, idx, val, nnz, scale, eta, delta, lo, hi);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Sparse update with a per-coordinate box; see {@link #updateDenseBoxed}. */
  public final void updateSparseBoxed(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi, int n,
      MemorySegment idx, MemorySegment val, int nnz,
      double scale, double rate, boolean rateFromWidth, double delta) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, type);
    KernelChecks.state("q", q, n, type);
    KernelChecks.input("lo", lo, n, type);
    KernelChecks.input("hi", hi, n, type);
    KernelChecks.sparse(idx, val, nnz, n, type);
    checkScalars(scale, rate, delta);
    try {
      updateSparseBoxedBody.invokeExact(w, q, lo, hi, idx, val, nnz, scale, rate, rateFromWidth, delta);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  private static void checkScalars(double scale, double rate, double delta) {
    KernelChecks.finite("scale (the gradient g)", scale);
    KernelChecks.positive("eta", rate);
    KernelChecks.nonNegative("delta", delta);
  }

  /** Unchecked body of {@link #updateDense}. */
  protected abstract void updateDenseImpl(
      MemorySegment w, MemorySegment q, MemorySegment x, int n,
      double scale, double eta, double delta, double lo, double hi);

  /** Unchecked body of {@link #updateDenseBoxed}. */
  protected abstract void updateDenseBoxedImpl(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi, MemorySegment x, int n,
      double scale, double rate, boolean rateFromWidth, double delta);

  /** Unchecked body of {@link #updateSparse}. */
  protected abstract void updateSparseImpl(
      MemorySegment w, MemorySegment q, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double eta, double delta, double lo, double hi);

  /** Unchecked body of {@link #updateSparseBoxed}. */
  protected abstract void updateSparseBoxedImpl(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi,
      MemorySegment idx, MemorySegment val, int nnz,
      double scale, double rate, boolean rateFromWidth, double delta);
}
