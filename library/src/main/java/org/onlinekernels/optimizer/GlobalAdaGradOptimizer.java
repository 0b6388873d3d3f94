package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.GlobalAdaGradKernel;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.params.Box;
import org.onlinekernels.params.GlobalAdaGradParams;

/**
 * Global-rate AdaGrad (Streeter and McMahan 2010, Theorem 2; ALGORITHMS.md section 1, end):
 *
 * <pre>
 *   sumSquares += ||g_t||^2
 *   eta_t = alpha * D / (delta + sqrt(2 * sumSquares))       (denominator 0: no change this round)
 *   w_i   = clamp(w_i - eta_t * g_i, a_i, b_i)
 * </pre>
 *
 * State: the buffer {@code w} (plus {@code lo}, {@code hi} for a per-coordinate box) and the
 * {@code double} scalar {@code sumSquares}. In linear-model form {@code ||g x||^2} is computed as
 * {@code g^2 ||x||^2}, so one reduction over {@code x} serves both forms.
 */
public final class GlobalAdaGradOptimizer extends AbstractOptimizer implements GradientOptimizer {
  private final GlobalAdaGradParams p;
  private final GlobalAdaGradKernel kernel;
  private final LinearAlgebraKernel linalg;
  private final double diameter;
  private final MemorySegment w;
  private final MemorySegment lo;
  private final MemorySegment hi;
  private final boolean boxed;
  private double sumSquares;

  /** An optimizer with its own confined arena and the default kernels. */
  public GlobalAdaGradOptimizer(int d, ElementType type, GlobalAdaGradParams params) {
    this(d, type, params, null, null);
  }

  /**
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public GlobalAdaGradOptimizer(
      int d, ElementType type, GlobalAdaGradParams params, Arena arena, KernelProvider kernels) {
    super("global-adagrad", d, type, arena, kernels);
    if (params == null) throw new IllegalArgumentException("params must not be null");
    params.box().checkDimension(d);
    this.p = params;
    this.diameter = params.diameter(d);
    if (!(diameter > 0) || !Double.isFinite(diameter)) {
      // A box of zero width has D = 0: every step would be 0, almost certainly a configuration slip.
      throw new IllegalArgumentException("diameter D must be finite and > 0, got " + diameter + " for dimension " + d);
    }
    // The rate's numerator alpha * D is rounded to the element type with every rate.
    checkParamRange("alpha * D", p.alpha() * diameter, maxFinite(), "the rate's numerator would overflow");
    checkParamRange("delta", p.delta(), maxFinite(), "delta would overflow");
    this.kernel = this.kernels.globalAdaGrad(type);
    this.linalg = this.kernels.linearAlgebra(type);
    this.boxed = params.box().isPerCoordinate();
    this.w = allocate("w");
    this.lo = boxed ? allocate("lo") : null;
    this.hi = boxed ? allocate("hi") : null;
    resetImpl();
  }

  /** The parameters. */
  public GlobalAdaGradParams params() {
    return p;
  }

  /** The diameter {@code D} in use (given, or the box's Euclidean diameter). */
  public double diameter() {
    return diameter;
  }

  /** {@code sumSquares = sum_{s<=t} ||g_s||^2}. */
  @Override
  public Map<String, Double> scalarState() {
    return Map.of("sumSquares", sumSquares);
  }

  @Override
  protected void setScalar(String name, double value) {
    sumSquares = value;
  }

  @Override
  protected void resetImpl() {
    sumSquares = 0;
    Box b = p.box();
    for (int i = 0; i < d; i++) {
      set(w, i, b.clamp(i, 0.0));
      if (boxed) {
        set(lo, i, b.lo(i));
        set(hi, i, b.hi(i));
      }
    }
  }

  /** {@code sumSquares + normSq}, refused when it overflows (the rate would silently become 0). */
  private double nextSum(double normSq) {
    double sum = sumSquares + normSq;
    if (!Double.isFinite(sum)) {
      throw new ArithmeticException("sum of squared gradient norms overflowed; rescale the gradients");
    }
    return sum;
  }

  /**
   * Rate for the new sum, or NaN for "no change this round" (zero denominator: no gradient yet
   * and {@code delta = 0}). Callers commit the sum only after the kernel accepted the rate, so a
   * rejected round leaves every scalar as it was.
   */
  private double rate(double sum) {
    double den = p.delta() + Math.sqrt(2 * sum);
    if (!(den > 0)) {
      return Double.NaN;
    }
    double eta = p.alpha() * diameter / den;
    // The kernel rounds the rate to the element type: a rate beyond float's range would become
    // infinite there, and inf * 0 = NaN on coordinates whose gradient is (or underflows to) 0.
    double max = type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE;
    if (!(eta <= max)) {
      throw new ArithmeticException(
          "global AdaGrad rate alpha*D/(delta + sqrt(2*sumSquares)) = " + eta + " overflows the "
              + type.name().toLowerCase() + " range (sumSquares = " + sum
              + "); use delta > 0 or rescale the gradients; the state was left unchanged");
    }
    return eta;
  }

  @Override
  protected double predictDense(MemorySegment x) {
    return linalg.dot(w, x, d);
  }

  @Override
  protected double predictSparseImpl(MemorySegment idx, MemorySegment val, int nnz) {
    return linalg.dotSparse(w, d, idx, val, nnz);
  }

  @Override
  protected void updateDense(MemorySegment x, double g) {
    double sum = nextSum(g * g * linalg.sumOfSquares(x, d));
    double eta = rate(sum);
    if (!Double.isNaN(eta)) {
      if (boxed) {
        kernel.updateDenseBoxed(w, lo, hi, x, d, g, eta);
      } else {
        kernel.updateDense(w, x, d, g, eta, p.box().lo(0), p.box().hi(0));
      }
    }
    sumSquares = sum;
  }

  @Override
  protected void updateSparse(MemorySegment idx, MemorySegment val, int nnz, double g) {
    double sum = nextSum(g * g * linalg.sumOfSquares(val, nnz));
    double eta = rate(sum);
    if (!Double.isNaN(eta)) {
      if (boxed) {
        kernel.updateSparseBoxed(w, lo, hi, d, idx, val, nnz, g, eta);
      } else {
        kernel.updateSparse(w, d, idx, val, nnz, g, eta, p.box().lo(0), p.box().hi(0));
      }
    }
    sumSquares = sum;
  }

  @Override
  public void step(MemorySegment gradient) {
    checkOpen();
    checkGradient(gradient);
    updateDense(gradient, 1.0);
  }

  @Override
  public void stepSparse(MemorySegment indices, MemorySegment values, int nnz) {
    checkOpen();
    checkSparseGradient(indices, values, nnz);
    updateSparse(indices, values, nnz, 1.0);
  }

  @Override
  protected void readWeightsImpl(MemorySegment into) {
    MemorySegment.copy(w, 0, into, 0, (long) d * type.bytes());
  }

  /** docs/MERGING.md: {@code sumSquares} by increments; {@code w} averaged by its increments, clamped. */
  @Override
  MergePlan mergePlan() {
    Box b = p.box();
    return new MergePlan().mean("w", null, java.util.List.of("sumSquares"), b::clamp).sumScalars("sumSquares");
  }

  @Override
  protected String brokenInvariant(String name, double v) {
    return switch (name) {
      case "w" -> finite(v, "w (weights)");
      case "sumSquares" -> nonNegative(v, "sumSquares (sum of squared gradient norms)");
      default -> super.brokenInvariant(name, v); // lo, hi: box bounds, may be infinite
    };
  }
}
