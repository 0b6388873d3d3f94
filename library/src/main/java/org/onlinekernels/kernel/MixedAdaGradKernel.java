package org.onlinekernels.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * Mixed-precision AdaGrad (ALGORITHMS.md section 1): weights {@code w}, inputs {@code x} and box
 * buffers {@code lo}, {@code hi} are {@code float}; the accumulator {@code Q} is {@code double}, and
 * so is every operation. Per coordinate, exactly:
 *
 * <pre>
 *   g     = scale * (double) x_i                     (scale, eta, rate, delta: double, never rounded to float)
 *   Q_i   = Q_i + g * g                              (double)
 *   denom = delta + sqrt(Q_i)                        (double)
 *   w_i   = (float) clamp((double) w_i - (eta_i * g) / denom, a_i, b_i)   (unchanged if !(denom > 0))
 *   a_i, b_i = (double) (float) lo, (double) (float) hi       (a scalar box is rounded to float once per call)
 *   eta_i = rate * ((double) hi_i - (double) lo_i)   (per-coordinate box with rateFromWidth)
 * </pre>
 *
 * The only roundings to float are the final store of {@code w_i} (round to nearest; monotone, so a
 * clamped value stays inside the float box) and the scalar box bounds. Every other value is the
 * double reference's value on the same (float) inputs: {@code Q} is bit-identical to the double
 * reference fed the float inputs, and {@code w} differs from it only by the per-round float
 * rounding of {@code w}. The prediction {@link #dot} sums the products {@code w_i x_i}, exact in
 * double (24 + 24 significant bits), in double.
 */
public abstract class MixedAdaGradKernel {
  // Calls through non-constant handles: see KernelBarrier.
  private final MethodHandle updateDenseBody;
  private final MethodHandle updateDenseBoxedBody;
  private final MethodHandle updateSparseBody;
  private final MethodHandle updateSparseBoxedBody;
  private final MethodHandle dotBody;
  private final MethodHandle dotSparseBody;

  /** For implementations. */
  protected MixedAdaGradKernel() {
    Class<?> s = MemorySegment.class;
    updateDenseBody = KernelBarrier.bind(this, MixedAdaGradKernel.class, "updateDenseImpl", MethodType.methodType(void.class, s, s, s, int.class, double.class, double.class, double.class, double.class, double.class));
    updateDenseBoxedBody = KernelBarrier.bind(this, MixedAdaGradKernel.class, "updateDenseBoxedImpl", MethodType.methodType(void.class, s, s, s, s, s, int.class, double.class, double.class, boolean.class, double.class));
    updateSparseBody = KernelBarrier.bind(this, MixedAdaGradKernel.class, "updateSparseImpl", MethodType.methodType(void.class, s, s, s, s, int.class, double.class, double.class, double.class, double.class, double.class));
    updateSparseBoxedBody = KernelBarrier.bind(this, MixedAdaGradKernel.class, "updateSparseBoxedImpl", MethodType.methodType(void.class, s, s, s, s, s, s, int.class, double.class, double.class, boolean.class, double.class));
    dotBody = KernelBarrier.bind(this, MixedAdaGradKernel.class, "dotImpl", MethodType.methodType(double.class, s, s, int.class));
    dotSparseBody = KernelBarrier.bind(this, MixedAdaGradKernel.class, "dotSparseImpl", MethodType.methodType(double.class, s, s, s, int.class));
  }

  /** Element type of {@code w}, {@code x}, {@code lo}, {@code hi} and sparse values: {@link ElementType#FLOAT}. */
  public static ElementType weightType() {
    return ElementType.FLOAT;
  }

  /** Element type of {@code Q}: {@link ElementType#DOUBLE}. */
  public static ElementType accumulatorType() {
    return ElementType.DOUBLE;
  }

  /** Dense update of {@code n} coordinates with a scalar rate and one box {@code [lo, hi]} for all. */
  public final void updateDense(
      MemorySegment w, MemorySegment q, MemorySegment x, int n,
      double scale, double eta, double delta, double lo, double hi) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, ElementType.FLOAT);
    KernelChecks.state("q", q, n, ElementType.DOUBLE);
    KernelChecks.input("x", x, n, ElementType.FLOAT);
    checkScalars(scale, eta, delta);
    KernelChecks.box(lo, hi);
    try {
      updateDenseBody.invokeExact(w, q, x, n, scale, eta, delta, lo, hi);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Dense update with a per-coordinate float box; {@code eta_i = rate * (hi_i - lo_i)} when {@code rateFromWidth}. */
  public final void updateDenseBoxed(
      MemorySegment w, MemorySegment q, MemorySegment lo, MemorySegment hi, MemorySegment x, int n,
      double scale, double rate, boolean rateFromWidth, double delta) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, ElementType.FLOAT);
    KernelChecks.state("q", q, n, ElementType.DOUBLE);
    KernelChecks.input("lo", lo, n, ElementType.FLOAT);
    KernelChecks.input("hi", hi, n, ElementType.FLOAT);
    KernelChecks.input("x", x, n, ElementType.FLOAT);
    checkScalars(scale, rate, delta);
    try {
      updateDenseBoxedBody.invokeExact(w, q, lo, hi, x, n, scale, rate, rateFromWidth, delta);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Sparse update: only the {@code nnz} listed coordinates (float values) of a model of dimension {@code n}; O(nnz). */
  public final void updateSparse(
      MemorySegment w, MemorySegment q, int n, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double eta, double delta, double lo, double hi) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, ElementType.FLOAT);
    KernelChecks.state("q", q, n, ElementType.DOUBLE);
    KernelChecks.sparse(idx, val, nnz, n, ElementType.FLOAT);
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
    KernelChecks.state("w", w, n, ElementType.FLOAT);
    KernelChecks.state("q", q, n, ElementType.DOUBLE);
    KernelChecks.input("lo", lo, n, ElementType.FLOAT);
    KernelChecks.input("hi", hi, n, ElementType.FLOAT);
    KernelChecks.sparse(idx, val, nnz, n, ElementType.FLOAT);
    checkScalars(scale, rate, delta);
    try {
      updateSparseBoxedBody.invokeExact(w, q, lo, hi, idx, val, nnz, scale, rate, rateFromWidth, delta);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** {@code sum_i w_i x_i} of two float buffers, every product exact and summed in double. */
  public final double dot(MemorySegment w, MemorySegment x, int n) {
    KernelChecks.count("n", n);
    KernelChecks.input("w", w, n, ElementType.FLOAT);
    KernelChecks.input("x", x, n, ElementType.FLOAT);
    try {
      return (double) dotBody.invokeExact(w, x, n);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Sparse twin of {@link #dot}; O(nnz). */
  public final double dotSparse(MemorySegment w, int n, MemorySegment idx, MemorySegment val, int nnz) {
    KernelChecks.count("n", n);
    KernelChecks.input("w", w, n, ElementType.FLOAT);
    KernelChecks.sparse(idx, val, nnz, n, ElementType.FLOAT);
    try {
      return (double) dotSparseBody.invokeExact(w, idx, val, nnz);
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

  /** Unchecked body of {@link #dot}. */
  protected abstract double dotImpl(MemorySegment w, MemorySegment x, int n);

  /** Unchecked body of {@link #dotSparse}. */
  protected abstract double dotSparseImpl(MemorySegment w, MemorySegment idx, MemorySegment val, int nnz);
}
