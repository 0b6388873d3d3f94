package org.onlinekernels.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * Stateless update of the global-rate AdaGrad variant (ALGORITHMS.md section 1, end; Streeter and
 * McMahan 2010, Theorem 2) over caller-owned buffers:
 *
 * <pre>
 *   g_i = scale * x_i
 *   w_i = clamp(w_i - eta * g_i, a_i, b_i)
 * </pre>
 *
 * The rate {@code eta_t = alpha D / (delta + sqrt(2 sum_s ||g_s||^2))} is one {@code double} for
 * all coordinates and needs a reduction over the whole gradient, so the caller (the optimizer)
 * computes it with {@link LinearAlgebraKernel#sumOfSquares} and passes it in; the kernel only does
 * the element-wise pass. As in {@link AdaGradKernel}, the gradient form is {@code scale = 1},
 * {@code x = g}, and scalars are rounded to the element type once per call. Box bounds may be
 * infinite.
 */
public abstract class GlobalAdaGradKernel {
  private final ElementType type;
  // Calls through non-constant handles: see KernelBarrier.
  private final MethodHandle updateDenseBody;
  private final MethodHandle updateDenseBoxedBody;
  private final MethodHandle updateSparseBody;
  private final MethodHandle updateSparseBoxedBody;

  /** For implementations. */
  protected GlobalAdaGradKernel(ElementType type) {
    this.type = type;
    updateDenseBody = KernelBarrier.bind(this, GlobalAdaGradKernel.class, "updateDenseImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, int.class, double.class, double.class, double.class, double.class));
    updateDenseBoxedBody = KernelBarrier.bind(this, GlobalAdaGradKernel.class, "updateDenseBoxedImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class, double.class));
    updateSparseBody = KernelBarrier.bind(this, GlobalAdaGradKernel.class, "updateSparseImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class, double.class, double.class, double.class));
    updateSparseBoxedBody = KernelBarrier.bind(this, GlobalAdaGradKernel.class, "updateSparseBoxedImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class, double.class));
  }

  /** Element type of every buffer passed to this kernel. */
  public final ElementType elementType() {
    return type;
  }

  /** Dense step over {@code n} coordinates with one box {@code [lo, hi]} for all. */
  public final void updateDense(
      MemorySegment w, MemorySegment x, int n, double scale, double eta, double lo, double hi) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, type);
    KernelChecks.input("x", x, n, type);
    checkScalars(scale, eta);
    KernelChecks.box(lo, hi);
    try {
      updateDenseBody.invokeExact(w, x, n, scale, eta, lo, hi);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Dense step with a per-coordinate box {@code [lo_i, hi_i]}. */
  public final void updateDenseBoxed(
      MemorySegment w, MemorySegment lo, MemorySegment hi, MemorySegment x, int n, double scale, double eta) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, type);
    KernelChecks.input("lo", lo, n, type);
    KernelChecks.input("hi", hi, n, type);
    KernelChecks.input("x", x, n, type);
    checkScalars(scale, eta);
    try {
      updateDenseBoxedBody.invokeExact(w, lo, hi, x, n, scale, eta);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * Sparse step: only the {@code nnz} listed coordinates of a model of dimension {@code n} move;
   * O(nnz). Equal to the dense step with zeros elsewhere, because {@code w_i - eta * 0 = w_i}
   * and {@code w_i} already lies in its box.
   */
  public final void updateSparse(
      MemorySegment w, int n, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double eta, double lo, double hi) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, type);
    KernelChecks.sparse(idx, val, nnz, n, type);
    checkScalars(scale, eta);
    KernelChecks.box(lo, hi);
    try {
      updateSparseBody.invokeExact(w, idx, val, nnz, scale, eta, lo, hi);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Sparse step with a per-coordinate box; see {@link #updateSparse}. */
  public final void updateSparseBoxed(
      MemorySegment w, MemorySegment lo, MemorySegment hi, int n,
      MemorySegment idx, MemorySegment val, int nnz, double scale, double eta) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, type);
    KernelChecks.input("lo", lo, n, type);
    KernelChecks.input("hi", hi, n, type);
    KernelChecks.sparse(idx, val, nnz, n, type);
    checkScalars(scale, eta);
    try {
      updateSparseBoxedBody.invokeExact(w, lo, hi, idx, val, nnz, scale, eta);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  private static void checkScalars(double scale, double eta) {
    KernelChecks.finite("scale (the gradient g)", scale);
    // eta = 0 is a legal (if useless) rate; an infinite one would write +-inf or NaN into w.
    KernelChecks.nonNegative("eta", eta);
  }

  /** Unchecked body of {@link #updateDense}. */
  protected abstract void updateDenseImpl(
      MemorySegment w, MemorySegment x, int n, double scale, double eta, double lo, double hi);

  /** Unchecked body of {@link #updateDenseBoxed}. */
  protected abstract void updateDenseBoxedImpl(
      MemorySegment w, MemorySegment lo, MemorySegment hi, MemorySegment x, int n, double scale, double eta);

  /** Unchecked body of {@link #updateSparse}. */
  protected abstract void updateSparseImpl(
      MemorySegment w, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double eta, double lo, double hi);

  /** Unchecked body of {@link #updateSparseBoxed}. */
  protected abstract void updateSparseBoxedImpl(
      MemorySegment w, MemorySegment lo, MemorySegment hi,
      MemorySegment idx, MemorySegment val, int nnz, double scale, double eta);
}
