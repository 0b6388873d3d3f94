package org.onlinekernels.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * Stateless ScInOL2 (Kempka, Kotlowski and Warmuth 2019, Algorithm 2; ALGORITHMS.md section 4) in
 * linear-model form over caller-owned buffers {@code G}, {@code S2}, {@code M} and the wealth
 * {@code eta}:
 *
 * <pre>
 *   predict:  M_i   = max(M_i, |x_i|)
 *             s     = sqrt(S2_i + M_i*M_i)
 *             theta = G_i / s                                            (0 where s == 0)
 *             w_i   = ((sgn(theta) * min(|theta|, 1)) * eta_i) / (2 * s)  (0 where s == 0)
 *             yhat  = sum_i x_i * w_i
 *   update:   G_i   = G_i - g * x_i
 *             S2_i  = S2_i + (g * x_i) * (g * x_i)
 *             eta_i = eta_i - (g * x_i) * w_i                             (unchanged where g * x_i == 0)
 * </pre>
 *
 * The parenthesisation is the evaluation order of every implementation and of the reference
 * ({@code org.onlinekernels.reference.ReferenceScInOL2}); no transcendental is involved, so the
 * state agrees bit for bit and only the order of the {@code yhat} sum differs.
 *
 * <p>The update needs the round's {@code w}. Two equivalent ways are offered:
 * <ul>
 *   <li><b>recompute</b> ({@link #predictDense} then {@link #updateDense}): the update recomputes
 *       {@code w_i} from the state left by the predict, which nothing changed in between, so it is
 *       bit-identical to the predict's {@code w_i}; no extra buffer.
 *   <li><b>stored</b> ({@link #predictDenseStoring} then {@link #updateDenseStored}): the predict
 *       writes {@code w} into a caller buffer and the update reads it back.
 * </ul>
 *
 * <p>Zero inputs: a coordinate with {@code x_i = 0} keeps {@code M_i}, contributes exactly 0 to
 * {@code yhat} and keeps {@code eta_i} even when its {@code w_i} is infinite, so a dense call
 * behaves like the sparse call without that entry ({@code G_i - 0} may turn {@code -0} into
 * {@code +0}, which is the only difference). The guard on {@code g * x_i == 0} also covers
 * {@code g = 0} and an underflowed product; the literal rule would subtract {@code ±0}, the same
 * value for every finite {@code w_i}. Overflow: {@code |x_i w_i| <= |eta_i| / 2} (as {@code |x_i| <= M_i <= s}), but {@code w_i}
 * itself is {@code eta_i / (2 s)} at most and overflows when {@code s} is tiny: held at one
 * gradient sign with a constant input {@code x} of about {@code 1e-14} to {@code 1e-22} (float),
 * or {@code 1e-42} to {@code 1e-160} (double), the wealth reaches its cap while {@code 2 s} is
 * small enough. <b>Saturation:</b> every implementation and the reference clamp {@code w_i} into
 * {@code [-W, W]}, {@code W} the element type's largest finite value ({@code Float.MAX_VALUE},
 * {@code Double.MAX_VALUE}; the reference, in double, uses {@code Double.MAX_VALUE}), after the
 * division and before it is used or stored. A saturated weight is smaller than the true one, so
 * {@code |x_i w_i| <= |eta_i| / 2} still holds and {@code yhat} stays finite; the wealth update
 * uses the saturated {@code w_i}.
 */
public abstract class ScInOL2Kernel {
  /**
   * Saturation bound of the wealth for float buffers: the update clamps {@code eta_i} into
   * {@code [-2^90, 2^90]}. With one gradient sign held, the wealth grows like {@code exp(sqrt(t))}
   * and would overflow float after about 7,800 rounds and double after about 500,000; clamped,
   * {@code |x_i w_i| <= |eta_i| / 2} keeps {@code yhat} finite for {@code d < 2^37}.
   */
  public static final double FLOAT_WEALTH_CAP = 0x1p90;

  /** Saturation bound of the wealth for double buffers and the reference: {@code 2^900}. */
  public static final double DOUBLE_WEALTH_CAP = 0x1p900;

  private final ElementType type;
  // Calls through non-constant handles: see KernelBarrier.
  private final MethodHandle predictDenseBody;
  private final MethodHandle predictSparseBody;
  private final MethodHandle updateDenseBody;
  private final MethodHandle updateSparseBody;
  private final MethodHandle updateDenseStoredBody;
  private final MethodHandle updateSparseStoredBody;
  private final MethodHandle weightsBody;

  /** For implementations. */
  protected ScInOL2Kernel(ElementType type) {
    this.type = type;
    predictDenseBody = KernelBarrier.bind(this, ScInOL2Kernel.class, "predictDenseImpl", MethodType.methodType(double.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, MemorySegment.class));
    predictSparseBody = KernelBarrier.bind(this, ScInOL2Kernel.class, "predictSparseImpl", MethodType.methodType(double.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, MemorySegment.class));
    updateDenseBody = KernelBarrier.bind(this, ScInOL2Kernel.class, "updateDenseImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class));
    updateSparseBody = KernelBarrier.bind(this, ScInOL2Kernel.class, "updateSparseImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class));
    updateDenseStoredBody = KernelBarrier.bind(this, ScInOL2Kernel.class, "updateDenseStoredImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class));
    updateSparseStoredBody = KernelBarrier.bind(this, ScInOL2Kernel.class, "updateSparseStoredImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class));
    weightsBody = KernelBarrier.bind(this, ScInOL2Kernel.class, "weightsImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class));
  }

  /** Element type of every buffer passed to this kernel. */
  public final ElementType elementType() {
    return type;
  }

  /** Dense predict: updates {@code M} for the instance {@code x} and returns {@code yhat = <w_t, x>}. */
  public final double predictDense(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n) {
    KernelChecks.count("n", n);
    checkPredictState(bigG, s2, m, eta, n);
    KernelChecks.input("x", x, n, type);
    try {
      return (double) predictDenseBody.invokeExact(bigG, s2, m, eta, x, n, (MemorySegment) null);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * {@link #predictDense} that also writes the round's weights into {@code wOut} ({@code n}
   * elements), for {@link #updateDenseStored}. Entries where {@code x_i = 0} are written too.
   */
  public final double predictDenseStoring(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n,
      MemorySegment wOut) {
    KernelChecks.count("n", n);
    checkPredictState(bigG, s2, m, eta, n);
    KernelChecks.input("x", x, n, type);
    KernelChecks.state("wOut", wOut, n, type);
    try {
      return (double) predictDenseBody.invokeExact(bigG, s2, m, eta, x, n, wOut);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Sparse twin of {@link #predictDense}. O(nnz). */
  public final double predictSparse(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, int n,
      MemorySegment idx, MemorySegment val, int nnz) {
    KernelChecks.count("n", n);
    checkPredictState(bigG, s2, m, eta, n);
    KernelChecks.sparse(idx, val, nnz, n, type);
    try {
      return (double) predictSparseBody.invokeExact(bigG, s2, m, eta, idx, val, nnz, (MemorySegment) null);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * Sparse twin of {@link #predictDenseStoring}: {@code wOut} is compact, entry {@code j} holds
   * the weight of coordinate {@code idx[j]} ({@code nnz} elements), so storing and reading it back
   * are contiguous.
   */
  public final double predictSparseStoring(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, int n,
      MemorySegment idx, MemorySegment val, int nnz, MemorySegment wOut) {
    KernelChecks.count("n", n);
    checkPredictState(bigG, s2, m, eta, n);
    KernelChecks.sparse(idx, val, nnz, n, type);
    KernelChecks.state("wOut", wOut, nnz, type);
    try {
      return (double) predictSparseBody.invokeExact(bigG, s2, m, eta, idx, val, nnz, wOut);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * Dense update, recompute variant: {@code w_i} is recomputed from {@code G, S2, M, eta} as the
   * preceding {@link #predictDense} left them, then the update is applied. Must be called with the
   * same {@code x} as that predict and with no state change in between.
   */
  public final void updateDense(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n, double g) {
    KernelChecks.count("n", n);
    checkUpdateState(bigG, s2, eta, n);
    KernelChecks.input("M", m, n, type);
    KernelChecks.input("x", x, n, type);
    KernelChecks.finite("g", g);
    try {
      updateDenseBody.invokeExact(bigG, s2, m, eta, x, n, g);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Sparse twin of {@link #updateDense}. O(nnz). */
  public final void updateSparse(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, int n,
      MemorySegment idx, MemorySegment val, int nnz, double g) {
    KernelChecks.count("n", n);
    checkUpdateState(bigG, s2, eta, n);
    KernelChecks.input("M", m, n, type);
    KernelChecks.sparse(idx, val, nnz, n, type);
    KernelChecks.finite("g", g);
    try {
      updateSparseBody.invokeExact(bigG, s2, m, eta, idx, val, nnz, g);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Dense update, stored variant: {@code w} is what {@link #predictDenseStoring} wrote. */
  public final void updateDenseStored(
      MemorySegment bigG, MemorySegment s2, MemorySegment eta, MemorySegment w, MemorySegment x, int n, double g) {
    KernelChecks.count("n", n);
    checkUpdateState(bigG, s2, eta, n);
    KernelChecks.input("w", w, n, type);
    KernelChecks.input("x", x, n, type);
    KernelChecks.finite("g", g);
    try {
      updateDenseStoredBody.invokeExact(bigG, s2, eta, w, x, n, g);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Sparse twin of {@link #updateDenseStored}; {@code w} is compact as written by {@link #predictSparseStoring}. */
  public final void updateSparseStored(
      MemorySegment bigG, MemorySegment s2, MemorySegment eta, MemorySegment w, int n,
      MemorySegment idx, MemorySegment val, int nnz, double g) {
    KernelChecks.count("n", n);
    checkUpdateState(bigG, s2, eta, n);
    KernelChecks.sparse(idx, val, nnz, n, type);
    KernelChecks.input("w", w, nnz, type);
    KernelChecks.finite("g", g);
    try {
      updateSparseStoredBody.invokeExact(bigG, s2, eta, w, idx, val, nnz, g);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Weight read-out outside a round: the predict formula with {@code x = 0} ({@code M} only read). */
  public final void weights(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment out, int n) {
    KernelChecks.count("n", n);
    KernelChecks.input("G", bigG, n, type);
    KernelChecks.input("S2", s2, n, type);
    KernelChecks.input("M", m, n, type);
    KernelChecks.input("eta", eta, n, type);
    KernelChecks.state("out", out, n, type);
    try {
      weightsBody.invokeExact(bigG, s2, m, eta, out, n);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  private void checkPredictState(MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, int n) {
    KernelChecks.input("G", bigG, n, type);
    KernelChecks.input("S2", s2, n, type);
    KernelChecks.state("M", m, n, type);
    KernelChecks.input("eta", eta, n, type);
  }

  private void checkUpdateState(MemorySegment bigG, MemorySegment s2, MemorySegment eta, int n) {
    KernelChecks.state("G", bigG, n, type);
    KernelChecks.state("S2", s2, n, type);
    KernelChecks.state("eta", eta, n, type);
  }

  /** Unchecked body of {@link #predictDense} ({@code wOut == null}) and {@link #predictDenseStoring}. */
  protected abstract double predictDenseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n,
      MemorySegment wOut);

  /** Unchecked body of {@link #predictSparse} ({@code wOut == null}) and {@link #predictSparseStoring}. */
  protected abstract double predictSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
      MemorySegment idx, MemorySegment val, int nnz, MemorySegment wOut);

  /** Unchecked body of {@link #updateDense}. */
  protected abstract void updateDenseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment x, int n, double g);

  /** Unchecked body of {@link #updateSparse}. */
  protected abstract void updateSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta,
      MemorySegment idx, MemorySegment val, int nnz, double g);

  /** Unchecked body of {@link #updateDenseStored}. */
  protected abstract void updateDenseStoredImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment eta, MemorySegment w, MemorySegment x, int n, double g);

  /** Unchecked body of {@link #updateSparseStored}. */
  protected abstract void updateSparseStoredImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment eta, MemorySegment w,
      MemorySegment idx, MemorySegment val, int nnz, double g);

  /** Unchecked body of {@link #weights}. */
  protected abstract void weightsImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment eta, MemorySegment out, int n);
}
