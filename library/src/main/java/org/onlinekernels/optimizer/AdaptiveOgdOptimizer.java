package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.AdaptiveOgdKernel;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.params.AdaptiveOgdParams;

/**
 * What both forms of Adaptive Online Gradient Descent share (Bartlett, Hazan and Rakhlin 2007,
 * Algorithm 2; ALGORITHMS.md section 2): the weights {@code w} (starting at 0, the projection of
 * 0), the {@code double} scalar {@code Hsum = H_{1:t}}, and the per-round curvature {@code H_t}.
 *
 * <p>Every round takes a curvature {@code H_t >= 0} (finite), e.g. the strength of an L2
 * regulariser in {@code f_t}. The overloads without it mean {@code H_t = 0}. In linear-model form
 * the curvature is passed with the scalar gradient, {@link #update(double, double)}: the
 * inherited {@link #update(double)} is final, so this class parks {@code H_t} in a field for the
 * duration of that one call, and the update bodies read it from there.
 */
public abstract class AdaptiveOgdOptimizer extends AbstractOptimizer implements GradientOptimizer {
  /** The parameters. */
  protected final AdaptiveOgdParams params;
  /** Element-wise passes. */
  protected final AdaptiveOgdKernel kernel;
  /** Reductions (predict; the ball form's Gram triple). */
  protected final LinearAlgebraKernel linalg;
  /** The weights. */
  protected final MemorySegment w;
  /** {@code Hsum = H_{1:t}}. */
  protected double hsum;
  /** {@code H_t} of the {@link #update(double, double)} call in flight; 0 otherwise. */
  private double pendingH;

  AdaptiveOgdOptimizer(
      String algorithm, int d, ElementType type, AdaptiveOgdParams params, Arena arena, KernelProvider kernels) {
    super(algorithm, d, type, arena, kernels);
    if (params == null) throw new IllegalArgumentException("params must not be null");
    params.checkDimension(d);
    // c = 8 G^2 / (3 R^2): 3 R^2 must be finite in the element type, else c = 0 and nothing is
    // ever learned (float, R >= 1e20: an all-zero model, silently).
    double rMax = Math.sqrt((type == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE) / 3);
    checkParamRange("R", params.radius(), rMax, "3 R^2 would overflow and nothing be learned");
    if (params.radii() != null) {
      for (double r : params.radii()) {
        checkParamRange("R", r, rMax, "3 R^2 would overflow and nothing be learned");
      }
    }
    this.params = params;
    this.kernel = this.kernels.adaptiveOgd(type);
    this.linalg = this.kernels.linearAlgebra(type);
    this.w = allocate("w");
  }

  /** The parameters. */
  public final AdaptiveOgdParams params() {
    return params;
  }

  /**
   * Linear-model update with curvature {@code h = H_t} for the pending instance: gradient
   * {@code g * x}.
   *
   * @throws IllegalStateException if no predict is pending
   */
  public final void update(double g, double h) {
    checkOpen();
    checkCurvature(h);
    pendingH = h;
    try {
      update(g);
    } finally {
      pendingH = 0;
    }
  }

  /** Gradient-form step with curvature {@code H_t = 0}. */
  @Override
  public final void step(MemorySegment gradient) {
    step(gradient, 0);
  }

  /** Gradient-form step with dense gradient {@code g_t} and curvature {@code h = H_t}. */
  public final void step(MemorySegment gradient, double h) {
    checkOpen();
    checkGradient(gradient);
    checkCurvature(h);
    denseRound(gradient, 1.0, h);
  }

  /** Gradient-form step with a sparse gradient and curvature {@code H_t = 0}. */
  @Override
  public final void stepSparse(MemorySegment indices, MemorySegment values, int nnz) {
    stepSparse(indices, values, nnz, 0);
  }

  /** Gradient-form step with a sparse gradient and curvature {@code h = H_t}. */
  public final void stepSparse(MemorySegment indices, MemorySegment values, int nnz, double h) {
    checkOpen();
    checkSparseGradient(indices, values, nnz);
    checkCurvature(h);
    sparseRound(indices, values, nnz, 1.0, h);
  }

  private static void checkCurvature(double h) {
    if (!(h >= 0) || h == Double.POSITIVE_INFINITY) {
      throw new IllegalArgumentException("curvature h (H_t) must be finite and >= 0, got " + h);
    }
  }

  /**
   * {@code Hsum + h}, not yet committed: a round commits its scalars only after its kernel call
   * returned, so a rejected round changes nothing.
   */
  protected final double nextHsum(double h) {
    double s = hsum + h;
    if (!Double.isFinite(s)) {
      throw new ArithmeticException("Hsum (sum of curvatures H_t) overflowed; rescale the curvatures");
    }
    return s;
  }

  @Override
  protected final void updateDense(MemorySegment x, double g) {
    denseRound(x, g, pendingH);
  }

  @Override
  protected final void updateSparse(MemorySegment idx, MemorySegment val, int nnz, double g) {
    sparseRound(idx, val, nnz, g, pendingH);
  }

  /** One round with gradient {@code scale * x} (dense) and curvature {@code h}. */
  protected abstract void denseRound(MemorySegment x, double scale, double h);

  /** One round with gradient {@code scale * val} at {@code idx} and curvature {@code h}. */
  protected abstract void sparseRound(MemorySegment idx, MemorySegment val, int nnz, double scale, double h);

  @Override
  protected final double predictDense(MemorySegment x) {
    return linalg.dot(w, x, d);
  }

  /** O(nnz) in both forms: the weights are stored explicitly. */
  @Override
  protected final double predictSparseImpl(MemorySegment idx, MemorySegment val, int nnz) {
    return linalg.dotSparse(w, d, idx, val, nnz);
  }

  @Override
  protected final void readWeightsImpl(MemorySegment into) {
    MemorySegment.copy(w, 0, into, 0, (long) d * type.bytes());
  }

  @Override
  protected String brokenInvariant(String name, double v) {
    return switch (name) {
      case "w" -> finite(v, "w (weights)");
      case "Hsum" -> nonNegative(v, "Hsum (sum of curvatures)");
      case "Lsum" -> nonNegative(v, "Lsum (sum of the regularisation weights lambda)");
      case "R" -> positive(v, "R (radius of the box)");
      default -> super.brokenInvariant(name, v);
    };
  }
}
