package org.onlinekernels.kernel;

import java.lang.foreign.MemorySegment;

/**
 * Reductions shared by the predict steps: dot products and squared norms over dense or sparse
 * input. Results are returned in {@code double}; float kernels accumulate in {@code float}
 * (several independent partial sums, then a tree), which the tolerance table in the README
 * accounts for.
 */
public abstract class LinearAlgebraKernel {
  private final ElementType type;

  /** For implementations. */
  protected LinearAlgebraKernel(ElementType type) {
    this.type = type;
  }

  /** Element type of the buffers this kernel reads. */
  public final ElementType elementType() {
    return type;
  }

  /** {@code sum_{i<n} a_i b_i}. */
  public final double dot(MemorySegment a, MemorySegment b, int n) {
    KernelChecks.count("n", n);
    KernelChecks.input("a", a, n, type);
    KernelChecks.input("b", b, n, type);
    return dotImpl(a, b, n);
  }

  /** {@code sum_j val_j w[idx_j]} over {@code nnz} sparse entries of a vector of dimension {@code n}. */
  public final double dotSparse(MemorySegment w, int n, MemorySegment idx, MemorySegment val, int nnz) {
    KernelChecks.count("n", n);
    KernelChecks.input("w", w, n, type);
    KernelChecks.sparse(idx, val, nnz, n, type);
    return dotSparseImpl(w, idx, val, nnz);
  }

  /** {@code sum_{i<n} x_i^2}; for sparse input pass the value segment and {@code nnz}. */
  public final double sumOfSquares(MemorySegment x, int n) {
    KernelChecks.count("n", n);
    KernelChecks.input("x", x, n, type);
    return sumOfSquaresImpl(x, n);
  }

  /**
   * Fused pass: writes {@code out[0] = <a, x>} and {@code out[1] = ||x||^2}, reading each
   * element once (DFEG's predict needs both).
   */
  public final void dotAndSumOfSquares(MemorySegment a, MemorySegment x, int n, double[] out) {
    KernelChecks.count("n", n);
    KernelChecks.input("a", a, n, type);
    KernelChecks.input("x", x, n, type);
    checkOut(out, 2);
    dotAndSumOfSquaresImpl(a, x, n, out);
  }

  /** Sparse twin of {@link #dotAndSumOfSquares}: {@code out[0] = <a, x>}, {@code out[1] = ||x||^2}. */
  public final void dotAndSumOfSquaresSparse(
      MemorySegment a, int n, MemorySegment idx, MemorySegment val, int nnz, double[] out) {
    KernelChecks.count("n", n);
    KernelChecks.input("a", a, n, type);
    KernelChecks.sparse(idx, val, nnz, n, type);
    checkOut(out, 2);
    dotAndSumOfSquaresSparseImpl(a, idx, val, nnz, out);
  }

  /**
   * Fused pass for the ball form of Adaptive OGD: {@code out[0] = ||w||^2},
   * {@code out[1] = <w, x>}, {@code out[2] = ||x||^2}.
   */
  public final void gramTriple(MemorySegment w, MemorySegment x, int n, double[] out) {
    KernelChecks.count("n", n);
    KernelChecks.input("w", w, n, type);
    KernelChecks.input("x", x, n, type);
    checkOut(out, 3);
    gramTripleImpl(w, x, n, out);
  }

  /**
   * The input scan of the optimizers' {@code CHECKED} policy: {@code max_{i<n} |x_i|}, or NaN
   * when some {@code x_i} is NaN or infinite (tested lane-wise as {@code x - x != 0}, which holds
   * exactly for the non-finite values), 0 for {@code n == 0}. One read pass, no state. For sparse
   * input pass the value segment and {@code nnz}. So {@code Double.isFinite(maxAbs(x, n))} says
   * whether every element is finite, and the value bounds the magnitude.
   */
  public final double maxAbs(MemorySegment x, int n) {
    KernelChecks.count("n", n);
    KernelChecks.input("x", x, n, type);
    return maxAbsImpl(x, n);
  }

  private static void checkOut(double[] out, int len) {
    if (out == null || out.length < len) {
      throw new IllegalArgumentException("out must be a double[] of length >= " + len);
    }
  }

  /** Unchecked body of {@link #dot}. */
  protected abstract double dotImpl(MemorySegment a, MemorySegment b, int n);

  /** Unchecked body of {@link #dotSparse}. */
  protected abstract double dotSparseImpl(MemorySegment w, MemorySegment idx, MemorySegment val, int nnz);

  /** Unchecked body of {@link #sumOfSquares}. */
  protected abstract double sumOfSquaresImpl(MemorySegment x, int n);

  /** Unchecked body of {@link #dotAndSumOfSquares}. */
  protected abstract void dotAndSumOfSquaresImpl(MemorySegment a, MemorySegment x, int n, double[] out);

  /** Unchecked body of {@link #dotAndSumOfSquaresSparse}. */
  protected abstract void dotAndSumOfSquaresSparseImpl(
      MemorySegment a, MemorySegment idx, MemorySegment val, int nnz, double[] out);

  /** Unchecked body of {@link #maxAbs}. */
  protected abstract double maxAbsImpl(MemorySegment x, int n);

  /** Unchecked body of {@link #gramTriple}. */
  protected abstract void gramTripleImpl(MemorySegment w, MemorySegment x, int n, double[] out);
}
