package org.onlinekernels.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * Stateless passes of Adaptive Online Gradient Descent (ALGORITHMS.md section 2; Bartlett, Hazan
 * and Rakhlin 2007, Algorithm 2) over caller-owned buffers. The gradient is {@code g_i = scale * x_i}
 * (gradient form: {@code scale = 1}, {@code x = g}); scalars are rounded to the element type once
 * per call.
 *
 * <p><b>Ball form.</b> {@code lambda}, {@code eta} and the projection factor {@code p} depend on
 * {@code ||g||}, {@code <w, g>} and {@code ||w||} (one {@link LinearAlgebraKernel#gramTriple}
 * pass), so the caller computes them and this kernel does the one element-wise pass
 *
 * <pre>
 *   w_i = (w_i - eta * (g_i + lambda * w_i)) * p,     p = min(1, R / ||w - eta (g + lambda w)||)
 * </pre>
 *
 * <p><b>Per-coordinate form</b> (Streeter and McMahan 2010, section 4.1). Per coordinate, with the
 * shared {@code Hsum} (already including this round's {@code H_t}) and the state {@code Lsum_i}:
 *
 * <pre>
 *   s      = Hsum + Lsum_i
 *   c      = 8 * g_i * g_i / (3 * R_i * R_i)
 *   lambda = c / (2 * (sqrt(s * s + c) + s))          (0 when that denominator is 0: 0/0 = 0)
 *   Lsum_i = Lsum_i + lambda
 *   eta    = 1 / (Hsum + Lsum_i)                       (denominator 0: w_i unchanged)
 *   w_i    = clamp(w_i - eta * (g_i + lambda * w_i), -R_i, R_i)
 * </pre>
 *
 * evaluated left to right exactly as written, so the {@code double} kernels reproduce a literal
 * reading of the spec bit for bit.
 */
public abstract class AdaptiveOgdKernel {
  private final ElementType type;
  // Calls through non-constant handles: see KernelBarrier.
  private final MethodHandle ballUpdateDenseBody;
  private final MethodHandle ballUpdateSparseBody;
  private final MethodHandle coordinateUpdateDenseBody;
  private final MethodHandle coordinateUpdateDenseRadiiBody;
  private final MethodHandle coordinateUpdateSparseBody;
  private final MethodHandle coordinateUpdateSparseRadiiBody;

  /** For implementations. */
  protected AdaptiveOgdKernel(ElementType type) {
    this.type = type;
    ballUpdateDenseBody = KernelBarrier.bind(this, AdaptiveOgdKernel.class, "ballUpdateDenseImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, int.class, double.class, double.class, double.class, double.class));
    ballUpdateSparseBody = KernelBarrier.bind(this, AdaptiveOgdKernel.class, "ballUpdateSparseImpl", MethodType.methodType(void.class, MemorySegment.class, int.class, MemorySegment.class, MemorySegment.class, int.class, double.class, double.class, double.class, double.class));
    coordinateUpdateDenseBody = KernelBarrier.bind(this, AdaptiveOgdKernel.class, "coordinateUpdateDenseImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class, double.class, double.class));
    coordinateUpdateDenseRadiiBody = KernelBarrier.bind(this, AdaptiveOgdKernel.class, "coordinateUpdateDenseRadiiImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class, double.class));
    coordinateUpdateSparseBody = KernelBarrier.bind(this, AdaptiveOgdKernel.class, "coordinateUpdateSparseImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class, double.class, double.class));
    coordinateUpdateSparseRadiiBody = KernelBarrier.bind(this, AdaptiveOgdKernel.class, "coordinateUpdateSparseRadiiImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class, double.class));
  }

  /** Element type of every buffer passed to this kernel. */
  public final ElementType elementType() {
    return type;
  }

  /** Ball form, dense: {@code w_i = (w_i - eta (g_i + lambda w_i)) p} for every {@code i < n}. */
  public final void ballUpdateDense(
      MemorySegment w, MemorySegment x, int n, double scale, double eta, double lambda, double p) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, type);
    KernelChecks.input("x", x, n, type);
    checkBall(scale, eta, lambda, p);
    try {
      ballUpdateDenseBody.invokeExact(w, x, n, scale, eta, lambda, p);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * Ball form, sparse gradient. The shrink {@code lambda w} and the projection touch every
   * coordinate, so this is an O(n) pass, not O(nnz); it merges the sorted indices into the dense
   * sweep and its result is bit-identical to {@link #ballUpdateDense} with zeros at the absent
   * coordinates.
   */
  public final void ballUpdateSparse(
      MemorySegment w, int n, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double eta, double lambda, double p) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, type);
    KernelChecks.sparse(idx, val, nnz, n, type);
    checkBall(scale, eta, lambda, p);
    try {
      ballUpdateSparseBody.invokeExact(w, n, idx, val, nnz, scale, eta, lambda, p);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Per-coordinate form, dense, one half-width {@code radius} for every coordinate. */
  public final void coordinateUpdateDense(
      MemorySegment w, MemorySegment lsum, MemorySegment x, int n, double scale, double hsum, double radius) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, type);
    KernelChecks.state("lsum", lsum, n, type);
    KernelChecks.input("x", x, n, type);
    checkCoordinate(scale, hsum);
    KernelChecks.positive("radius", radius);
    try {
      coordinateUpdateDenseBody.invokeExact(w, lsum, x, n, scale, hsum, radius);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * Per-coordinate form, dense, half-widths {@code radii_i} (each must be finite and {@code > 0};
   * not re-checked here, which would cost a pass).
   */
  public final void coordinateUpdateDenseRadii(
      MemorySegment w, MemorySegment lsum, MemorySegment radii, MemorySegment x, int n, double scale, double hsum) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, type);
    KernelChecks.state("lsum", lsum, n, type);
    KernelChecks.input("radii", radii, n, type);
    KernelChecks.input("x", x, n, type);
    checkCoordinate(scale, hsum);
    try {
      coordinateUpdateDenseRadiiBody.invokeExact(w, lsum, radii, x, n, scale, hsum);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * Per-coordinate form, sparse, one half-width: O(nnz), equal to the dense pass with zeros
   * elsewhere (a zero gradient gives {@code lambda = 0} and leaves the coordinate unchanged).
   */
  public final void coordinateUpdateSparse(
      MemorySegment w, MemorySegment lsum, int n, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double hsum, double radius) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, type);
    KernelChecks.state("lsum", lsum, n, type);
    KernelChecks.sparse(idx, val, nnz, n, type);
    checkCoordinate(scale, hsum);
    KernelChecks.positive("radius", radius);
    try {
      coordinateUpdateSparseBody.invokeExact(w, lsum, idx, val, nnz, scale, hsum, radius);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Per-coordinate form, sparse, per-coordinate half-widths; see {@link #coordinateUpdateDenseRadii}. */
  public final void coordinateUpdateSparseRadii(
      MemorySegment w, MemorySegment lsum, MemorySegment radii, int n,
      MemorySegment idx, MemorySegment val, int nnz, double scale, double hsum) {
    KernelChecks.count("n", n);
    KernelChecks.state("w", w, n, type);
    KernelChecks.state("lsum", lsum, n, type);
    KernelChecks.input("radii", radii, n, type);
    KernelChecks.sparse(idx, val, nnz, n, type);
    checkCoordinate(scale, hsum);
    try {
      coordinateUpdateSparseRadiiBody.invokeExact(w, lsum, radii, idx, val, nnz, scale, hsum);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  private static void checkBall(double scale, double eta, double lambda, double p) {
    KernelChecks.finite("scale (the gradient g)", scale);
    KernelChecks.positive("eta", eta);
    KernelChecks.nonNegative("lambda", lambda);
    // p = min(1, R/||v||): anything outside (0, 1] is not a projection factor.
    if (!(p > 0 && p <= 1)) {
      throw new IllegalArgumentException("p (projection factor) must be in (0, 1], got " + p);
    }
  }

  private static void checkCoordinate(double scale, double hsum) {
    KernelChecks.finite("scale (the gradient g)", scale);
    KernelChecks.nonNegative("hsum", hsum);
  }

  /** Unchecked body of {@link #ballUpdateDense}. */
  protected abstract void ballUpdateDenseImpl(
      MemorySegment w, MemorySegment x, int n, double scale, double eta, double lambda, double p);

  /** Unchecked body of {@link #ballUpdateSparse}. */
  protected abstract void ballUpdateSparseImpl(
      MemorySegment w, int n, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double eta, double lambda, double p);

  /** Unchecked body of {@link #coordinateUpdateDense}. */
  protected abstract void coordinateUpdateDenseImpl(
      MemorySegment w, MemorySegment lsum, MemorySegment x, int n, double scale, double hsum, double radius);

  /** Unchecked body of {@link #coordinateUpdateDenseRadii}. */
  protected abstract void coordinateUpdateDenseRadiiImpl(
      MemorySegment w, MemorySegment lsum, MemorySegment radii, MemorySegment x, int n, double scale, double hsum);

  /** Unchecked body of {@link #coordinateUpdateSparse}. */
  protected abstract void coordinateUpdateSparseImpl(
      MemorySegment w, MemorySegment lsum, MemorySegment idx, MemorySegment val, int nnz,
      double scale, double hsum, double radius);

  /** Unchecked body of {@link #coordinateUpdateSparseRadii}. */
  protected abstract void coordinateUpdateSparseRadiiImpl(
      MemorySegment w, MemorySegment lsum, MemorySegment radii,
      MemorySegment idx, MemorySegment val, int nnz, double scale, double hsum);
}
