package org.onlinekernels.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * Stateless DFEG update (ALGORITHMS.md section 5): {@code theta <- theta - g * x}. The weights are
 * a scalar multiple of {@code theta}, so predict needs only {@code <theta, x>} and
 * {@code ||x||^2} ({@link LinearAlgebraKernel#dotAndSumOfSquares}) and this kernel never
 * materialises {@code w} except for read-out.
 */
public abstract class DfegKernel {
  private final ElementType type;
  // Calls through non-constant handles: see KernelBarrier.
  private final MethodHandle updateDenseBody;
  private final MethodHandle updateSparseBody;
  private final MethodHandle scaleIntoBody;

  /** For implementations. */
  protected DfegKernel(ElementType type) {
    this.type = type;
    updateDenseBody = KernelBarrier.bind(this, DfegKernel.class, "updateDenseImpl", MethodType.methodType(double.class, MemorySegment.class, MemorySegment.class, int.class, double.class));
    updateSparseBody = KernelBarrier.bind(this, DfegKernel.class, "updateSparseImpl", MethodType.methodType(double.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class));
    scaleIntoBody = KernelBarrier.bind(this, DfegKernel.class, "scaleIntoImpl", MethodType.methodType(void.class, MemorySegment.class, double.class, MemorySegment.class, int.class));
  }

  /** Element type of every buffer passed to this kernel. */
  public final ElementType elementType() {
    return type;
  }

  /**
   * Dense {@code theta_i -= g x_i} for {@code i < n}.
   *
   * @return the fresh {@code ||theta||^2} after the step, summed in the same pass
   */
  public final double updateDense(MemorySegment theta, MemorySegment x, int n, double g) {
    KernelChecks.count("n", n);
    KernelChecks.state("theta", theta, n, type);
    KernelChecks.input("x", x, n, type);
    KernelChecks.finite("g", g);
    try {
      return (double) updateDenseBody.invokeExact(theta, x, n, g);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * Sparse {@code theta[idx_j] -= g val_j}; O(nnz).
   *
   * @return the change of {@code ||theta||^2}, {@code sum_j gx_j (gx_j - 2 theta_j)} with
   *     {@code gx_j = g val_j} (the difference of squares written so that it does not cancel)
   */
  public final double updateSparse(MemorySegment theta, int n, MemorySegment idx, MemorySegment val, int nnz, double g) {
    KernelChecks.count("n", n);
    KernelChecks.state("theta", theta, n, type);
    KernelChecks.sparse(idx, val, nnz, n, type);
    KernelChecks.finite("g", g);
    try {
      return (double) updateSparseBody.invokeExact(theta, idx, val, nnz, g);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** {@code out_i = c * theta_i}: weight read-out. */
  public final void scaleInto(MemorySegment theta, double c, MemorySegment out, int n) {
    KernelChecks.count("n", n);
    KernelChecks.input("theta", theta, n, type);
    KernelChecks.state("out", out, n, type);
    KernelChecks.finite("c", c);
    try {
      scaleIntoBody.invokeExact(theta, c, out, n);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Unchecked body of {@link #updateDense}. */
  protected abstract double updateDenseImpl(MemorySegment theta, MemorySegment x, int n, double g);

  /** Unchecked body of {@link #updateSparse}. */
  protected abstract double updateSparseImpl(MemorySegment theta, MemorySegment idx, MemorySegment val, int nnz, double g);

  /** Unchecked body of {@link #scaleInto}. */
  protected abstract void scaleIntoImpl(MemorySegment theta, double c, MemorySegment out, int n);
}
