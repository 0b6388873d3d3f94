package org.onlinekernels.kernel;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * Stateless ScInOL1 (Kempka, Kotlowski and Warmuth 2019, Algorithm 1; ALGORITHMS.md section 3) in
 * linear-model form over caller-owned buffers {@code G}, {@code S2}, {@code M}, {@code beta}:
 *
 * <pre>
 *   predict:  M_i    = max(M_i, |x_i|)
 *             beta_i = min(beta_i, (epsilon * (S2_i + M_i*M_i)) / ((x_i*x_i) * t))   only where x_i*x_i != 0
 *             s      = sqrt(S2_i + M_i*M_i)
 *             theta  = G_i / s                                                     (0 where s == 0)
 *             w_i    = ((beta_i * sgn(theta)) * expm1(|theta| / 2)) / (2 * s)          (0 where s == 0)
 *             yhat   = sum_i x_i * w_i
 *   update:   G_i  = G_i - g * x_i
 *             S2_i = S2_i + (g * x_i) * (g * x_i)
 * </pre>
 *
 * The parenthesisation is the evaluation order of every implementation and of the reference
 * ({@code org.onlinekernels.reference.ReferenceScInOL1}), so state agrees bit for bit; only
 * {@code expm1} (the vector kernel's is not {@link Math#expm1}) and the order of the {@code yhat}
 * sum differ. {@code expm1(a)} stands for the paper's {@code exp(a) - 1}: the same value without
 * the cancellation that would cost all relative accuracy of small weights ({@code |theta|} near
 * 0, i.e. early rounds), and what the reference computes. Shared scalars ({@code t}, {@code epsilon}, {@code g}) are rounded to the element
 * type once per call.
 *
 * <p>Zero inputs: a coordinate with {@code x_i = 0} keeps {@code M_i} and {@code beta_i} and
 * contributes exactly 0 to {@code yhat} even when its {@code w_i} overflowed to infinity, so a
 * dense call behaves like the sparse call without that entry.
 *
 * <p>Overflow (saturation): the exponent {@code |theta|/2} is capped at {@link #FLOAT_EXP_CAP}
 * (float) or {@link #DOUBLE_EXP_CAP} (double) before {@code expm1}, here, in every implementation
 * and in the reference. Without the cap {@code expm1} would be infinite once {@code |theta|/2}
 * exceeds about 88.7 (float) or 709.8 (double), which one gradient sign held for about 31,500
 * (float) or 2 million (double) rounds reaches; with it {@code |x_i w_i| <= beta_i e^cap / 2}
 * (as {@code |x_i| <= M_i <= s}), so {@code yhat} stays finite while {@code d * epsilon} is below
 * about {@code 1e11} (float) or {@code 5e30} (double). Below the cap nothing changes. The
 * state never sees {@code w}: {@code G, S2} depend only on {@code g} and {@code x}, {@code M,
 * beta} only on {@code x}, {@code t} and the state, so no NaN enters the state from {@code expm1}.
 *
 * <p>The weight itself, {@code beta_i e^cap / (2 s)} at most, can still overflow when {@code s}
 * is tiny (one gradient sign held with a constant input below about {@code 1e-14} in float,
 * {@code 1e-100} in double). <b>Saturation:</b> every implementation and the reference clamp
 * {@code w_i} into {@code [-W, W]}, {@code W} the element type's largest finite value (the
 * reference: {@code Double.MAX_VALUE}). A saturated weight is smaller than the true one, so the
 * bound on {@code |x_i w_i|} above, and a finite {@code yhat}, hold for every input scale.
 */
public abstract class ScInOL1Kernel {
  /** Cap of the exponent {@code |theta|/2} for float buffers: {@code e^64} is about {@code 6.2e27}. */
  public static final double FLOAT_EXP_CAP = 64;

  /** Cap of the exponent {@code |theta|/2} for double buffers (and the reference): {@code e^640} is about {@code 3.3e277}. */
  public static final double DOUBLE_EXP_CAP = 640;

  private final ElementType type;
  // Calls through non-constant handles: see KernelBarrier.
  private final MethodHandle predictDenseBody;
  private final MethodHandle predictSparseBody;
  private final MethodHandle updateDenseBody;
  private final MethodHandle updateSparseBody;
  private final MethodHandle weightsBody;

  /** For implementations. */
  protected ScInOL1Kernel(ElementType type) {
    this.type = type;
    predictDenseBody = KernelBarrier.bind(this, ScInOL1Kernel.class, "predictDenseImpl", MethodType.methodType(double.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class, double.class));
    predictSparseBody = KernelBarrier.bind(this, ScInOL1Kernel.class, "predictSparseImpl", MethodType.methodType(double.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class, double.class));
    updateDenseBody = KernelBarrier.bind(this, ScInOL1Kernel.class, "updateDenseImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class));
    updateSparseBody = KernelBarrier.bind(this, ScInOL1Kernel.class, "updateSparseImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class, double.class));
    weightsBody = KernelBarrier.bind(this, ScInOL1Kernel.class, "weightsImpl", MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, MemorySegment.class, int.class));
  }

  /** Element type of every buffer passed to this kernel. */
  public final ElementType elementType() {
    return type;
  }

  /**
   * Dense predict of round {@code t}: updates {@code M} and {@code beta} for the instance
   * {@code x} and returns {@code yhat = <w_t, x>}.
   *
   * @param t round counter, finite and {@code >= 1}
   * @param epsilon the algorithm's {@code epsilon}, finite and {@code > 0}
   */
  public final double predictDense(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, MemorySegment x, int n,
      double t, double epsilon) {
    KernelChecks.count("n", n);
    checkState(bigG, s2, m, beta, n);
    KernelChecks.input("x", x, n, type);
    checkRound(t, epsilon);
    try {
      return (double) predictDenseBody.invokeExact(bigG, s2, m, beta, x, n, t, epsilon);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Sparse twin of {@link #predictDense}: touches only the {@code nnz} listed coordinates. O(nnz). */
  public final double predictSparse(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, int n,
      MemorySegment idx, MemorySegment val, int nnz, double t, double epsilon) {
    KernelChecks.count("n", n);
    checkState(bigG, s2, m, beta, n);
    KernelChecks.sparse(idx, val, nnz, n, type);
    checkRound(t, epsilon);
    try {
      return (double) predictSparseBody.invokeExact(bigG, s2, m, beta, idx, val, nnz, t, epsilon);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Dense update with the scalar gradient {@code g = dLoss/dyhat} of the round's instance {@code x}. */
  public final void updateDense(MemorySegment bigG, MemorySegment s2, MemorySegment x, int n, double g) {
    KernelChecks.count("n", n);
    KernelChecks.state("G", bigG, n, type);
    KernelChecks.state("S2", s2, n, type);
    KernelChecks.input("x", x, n, type);
    KernelChecks.finite("g", g);
    try {
      updateDenseBody.invokeExact(bigG, s2, x, n, g);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /** Sparse twin of {@link #updateDense}. O(nnz). */
  public final void updateSparse(
      MemorySegment bigG, MemorySegment s2, int n, MemorySegment idx, MemorySegment val, int nnz, double g) {
    KernelChecks.count("n", n);
    KernelChecks.state("G", bigG, n, type);
    KernelChecks.state("S2", s2, n, type);
    KernelChecks.sparse(idx, val, nnz, n, type);
    KernelChecks.finite("g", g);
    try {
      updateSparseBody.invokeExact(bigG, s2, idx, val, nnz, g);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  /**
   * Weight read-out outside a round: the predict formula for {@code w} with {@code x = 0}, so
   * {@code M} and {@code beta} are only read. Writes {@code n} weights into {@code out}.
   */
  public final void weights(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, MemorySegment out, int n) {
    KernelChecks.count("n", n);
    KernelChecks.input("G", bigG, n, type);
    KernelChecks.input("S2", s2, n, type);
    KernelChecks.input("M", m, n, type);
    KernelChecks.input("beta", beta, n, type);
    KernelChecks.state("out", out, n, type);
    try {
      weightsBody.invokeExact(bigG, s2, m, beta, out, n);
    } catch (Throwable thrown) {
      throw KernelBarrier.rethrow(thrown);
    }
  }

  private void checkState(MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, int n) {
    KernelChecks.input("G", bigG, n, type);
    KernelChecks.input("S2", s2, n, type);
    KernelChecks.state("M", m, n, type);
    KernelChecks.state("beta", beta, n, type);
  }

  private static void checkRound(double t, double epsilon) {
    if (!(t >= 1) || t == Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException("round counter t must be finite and >= 1, got " + t);
    }
    KernelChecks.positive("epsilon", epsilon);
  }

  /** Unchecked body of {@link #predictDense}. */
  protected abstract double predictDenseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, MemorySegment x, int n,
      double t, double epsilon);

  /** Unchecked body of {@link #predictSparse}. */
  protected abstract double predictSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta,
      MemorySegment idx, MemorySegment val, int nnz, double t, double epsilon);

  /** Unchecked body of {@link #updateDense}. */
  protected abstract void updateDenseImpl(MemorySegment bigG, MemorySegment s2, MemorySegment x, int n, double g);

  /** Unchecked body of {@link #updateSparse}. */
  protected abstract void updateSparseImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment idx, MemorySegment val, int nnz, double g);

  /** Unchecked body of {@link #weights}. */
  protected abstract void weightsImpl(
      MemorySegment bigG, MemorySegment s2, MemorySegment m, MemorySegment beta, MemorySegment out, int n);
}
