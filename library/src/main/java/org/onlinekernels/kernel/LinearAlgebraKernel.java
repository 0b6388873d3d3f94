package org.onlinekernels.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * Reductions shared by the predict steps: dot products and squared norms over dense or sparse
 * input. Results are returned in {@code double}; float kernels accumulate in {@code float} (several
 * independent partial sums, then a tree), which the tolerance table in docs/TESTKIT.md accounts
 * for.
 */
public abstract class LinearAlgebraKernel {
  private final ElementType type;
  // Calls through non-constant handles: see KernelBarrier.
  private final MethodHandle dotBody;
  private final MethodHandle dotSparseBody;
  private final MethodHandle sumOfSquaresBody;
  private final MethodHandle dotAndSumOfSquaresBody;
  private final MethodHandle dotAndSumOfSquaresSparseBody;
  private final MethodHandle maxAbsBody;
  private final MethodHandle gramTripleBody;
  private final MethodHandle dotMixedBody;
  private final MethodHandle scaleBody;

  /**
   * For implementations. Binds each body's handle to this instance (the "this-escape" javac
   * reports); the handles are called only once the instance is built.
   */
  @SuppressWarnings("this-escape")
  protected LinearAlgebraKernel(ElementType type) {
    this.type = type;
    dotBody =
        KernelBarrier.bind(
            this,
            LinearAlgebraKernel.class,
            "dotImpl",
            MethodType.methodType(
                double.class, MemorySegment.class, MemorySegment.class, int.class));
    dotSparseBody =
        KernelBarrier.bind(
            this,
            LinearAlgebraKernel.class,
            "dotSparseImpl",
            MethodType.methodType(
                double.class,
                MemorySegment.class,
                MemorySegment.class,
                MemorySegment.class,
                int.class));
    sumOfSquaresBody =
        KernelBarrier.bind(
            this,
            LinearAlgebraKernel.class,
            "sumOfSquaresImpl",
            MethodType.methodType(double.class, MemorySegment.class, int.class));
    dotAndSumOfSquaresBody =
        KernelBarrier.bind(
            this,
            LinearAlgebraKernel.class,
            "dotAndSumOfSquaresImpl",
            MethodType.methodType(
                void.class, MemorySegment.class, MemorySegment.class, int.class, double[].class));
    dotAndSumOfSquaresSparseBody =
        KernelBarrier.bind(
            this,
            LinearAlgebraKernel.class,
            "dotAndSumOfSquaresSparseImpl",
            MethodType.methodType(
                void.class,
                MemorySegment.class,
                MemorySegment.class,
                MemorySegment.class,
                int.class,
                double[].class));
    maxAbsBody =
        KernelBarrier.bind(
            this,
            LinearAlgebraKernel.class,
            "maxAbsImpl",
            MethodType.methodType(double.class, MemorySegment.class, int.class));
    gramTripleBody =
        KernelBarrier.bind(
            this,
            LinearAlgebraKernel.class,
            "gramTripleImpl",
            MethodType.methodType(
                void.class, MemorySegment.class, MemorySegment.class, int.class, double[].class));
    dotMixedBody =
        KernelBarrier.bind(
            this,
            LinearAlgebraKernel.class,
            "dotMixedImpl",
            MethodType.methodType(
                double.class, MemorySegment.class, MemorySegment.class, int.class));
    scaleBody =
        KernelBarrier.bind(
            this,
            LinearAlgebraKernel.class,
            "scaleImpl",
            MethodType.methodType(
                void.class, MemorySegment.class, double.class, MemorySegment.class, int.class));
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
    try {
      return (double) dotBody.invokeExact(a, b, n);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * {@code sum_j val_j w[idx_j]} over {@code nnz} sparse entries of a vector of dimension {@code
   * n}.
   */
  public final double dotSparse(
      MemorySegment w, int n, MemorySegment idx, MemorySegment val, int nnz) {
    KernelChecks.count("n", n);
    KernelChecks.input("w", w, n, type);
    KernelChecks.sparse(idx, val, nnz, n, type);
    try {
      return (double) dotSparseBody.invokeExact(w, idx, val, nnz);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** {@code sum_{i<n} x_i^2}; for sparse input pass the value segment and {@code nnz}. */
  public final double sumOfSquares(MemorySegment x, int n) {
    KernelChecks.count("n", n);
    KernelChecks.input("x", x, n, type);
    try {
      return (double) sumOfSquaresBody.invokeExact(x, n);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * Fused pass: writes {@code out[0] = <a, x>} and {@code out[1] = ||x||^2}, reading each element
   * once (DFEG's predict needs both).
   */
  public final void dotAndSumOfSquares(MemorySegment a, MemorySegment x, int n, double[] out) {
    KernelChecks.count("n", n);
    KernelChecks.input("a", a, n, type);
    KernelChecks.input("x", x, n, type);
    checkOut(out, 2);
    try {
      dotAndSumOfSquaresBody.invokeExact(a, x, n, out);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * Sparse twin of {@link #dotAndSumOfSquares}: {@code out[0] = <a, x>}, {@code out[1] = ||x||^2}.
   */
  public final void dotAndSumOfSquaresSparse(
      MemorySegment a, int n, MemorySegment idx, MemorySegment val, int nnz, double[] out) {
    KernelChecks.count("n", n);
    KernelChecks.input("a", a, n, type);
    KernelChecks.sparse(idx, val, nnz, n, type);
    checkOut(out, 2);
    try {
      dotAndSumOfSquaresSparseBody.invokeExact(a, idx, val, nnz, out);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * Fused pass for the ball form of Adaptive OGD: {@code out[0] = ||w||^2}, {@code out[1] = <w,
   * x>}, {@code out[2] = ||x||^2}.
   */
  public final void gramTriple(MemorySegment w, MemorySegment x, int n, double[] out) {
    KernelChecks.count("n", n);
    KernelChecks.input("w", w, n, type);
    KernelChecks.input("x", x, n, type);
    checkOut(out, 3);
    try {
      gramTripleBody.invokeExact(w, x, n, out);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * The input scan of the optimizers' {@code CHECKED} policy: {@code max_{i<n} |x_i|}, or NaN when
   * some {@code x_i} is NaN or infinite (tested lane-wise as {@code x - x != 0}, which holds
   * exactly for the non-finite values), 0 for {@code n == 0}. One read pass, no state. For sparse
   * input pass the value segment and {@code nnz}. So {@code Double.isFinite(maxAbs(x, n))} says
   * whether every element is finite, and the value bounds the magnitude.
   */
  public final double maxAbs(MemorySegment x, int n) {
    KernelChecks.count("n", n);
    KernelChecks.input("x", x, n, type);
    try {
      return (double) maxAbsBody.invokeExact(x, n);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * {@code sum_{i<n} w_i x_i} of two float vectors summed in double (two accumulators in the double
   * virtual lanes' order): the prediction of a mixed-precision rule whose weights are float. Both
   * segments hold floats, whatever this kernel's element type.
   */
  public final double dotMixed(MemorySegment w, MemorySegment x, int n) {
    KernelChecks.count("n", n);
    KernelChecks.input("w", w, n, ElementType.FLOAT);
    KernelChecks.input("x", x, n, ElementType.FLOAT);
    try {
      return (double) dotMixedBody.invokeExact(w, x, n);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * {@code out_i = c * x_i} for {@code i < n}, {@code c} rounded to the element type once (a weight
   * read-out).
   */
  public final void scale(MemorySegment x, double c, MemorySegment out, int n) {
    KernelChecks.count("n", n);
    KernelChecks.input("x", x, n, type);
    KernelChecks.state("out", out, n, type);
    KernelChecks.finite("c", c);
    try {
      scaleBody.invokeExact(x, c, out, n);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  private static void checkOut(double[] out, int len) {
    if (out == null || out.length < len) {
      throw new IllegalArgumentException("out must be a double[] of length >= " + len);
    }
  }

  /** Unchecked body of {@link #dot}. */
  protected abstract double dotImpl(MemorySegment a, MemorySegment b, int n);

  /** Unchecked body of {@link #dotSparse}. */
  protected abstract double dotSparseImpl(
      MemorySegment w, MemorySegment idx, MemorySegment val, int nnz);

  /** Unchecked body of {@link #sumOfSquares}. */
  protected abstract double sumOfSquaresImpl(MemorySegment x, int n);

  /** Unchecked body of {@link #dotAndSumOfSquares}. */
  protected abstract void dotAndSumOfSquaresImpl(
      MemorySegment a, MemorySegment x, int n, double[] out);

  /** Unchecked body of {@link #dotAndSumOfSquaresSparse}. */
  protected abstract void dotAndSumOfSquaresSparseImpl(
      MemorySegment a, MemorySegment idx, MemorySegment val, int nnz, double[] out);

  /** Unchecked body of {@link #maxAbs}. */
  protected abstract double maxAbsImpl(MemorySegment x, int n);

  /** Unchecked body of {@link #gramTriple}. */
  protected abstract void gramTripleImpl(MemorySegment w, MemorySegment x, int n, double[] out);

  /** Unchecked body of {@link #dotMixed}. */
  protected abstract double dotMixedImpl(MemorySegment w, MemorySegment x, int n);

  /** Unchecked body of {@link #scale}. */
  protected abstract void scaleImpl(MemorySegment x, double c, MemorySegment out, int n);
}
