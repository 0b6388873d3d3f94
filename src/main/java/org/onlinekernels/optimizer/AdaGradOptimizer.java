package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.AdaGradKernel;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.kernel.MixedAdaGradKernel;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.Box;

/**
 * Per-coordinate AdaGrad (Streeter and McMahan 2010, Algorithm 1; diagonal AdaGrad) with
 * optional box projection. State: {@code w}, {@code Q} (and the box as {@code lo}, {@code hi}
 * buffers when it differs per coordinate).
 *
 * <p>{@link Precision#MIXED} ({@link #AdaGradOptimizer(int, Precision, AdaGradParams, Arena,
 * KernelProvider)}): inputs, {@code w}, {@code lo}, {@code hi} float, {@code Q} a double buffer
 * ({@code state().get("Q")} holds {@code d} doubles), all arithmetic in double and the prediction
 * summed in double ({@link MixedAdaGradKernel}); {@code Q} keeps growing where a float {@code Q}
 * stalls after about 2^24 equal increments.
 */
public final class AdaGradOptimizer extends AbstractOptimizer implements GradientOptimizer {
  private final AdaGradParams p;
  private final AdaGradKernel kernel;
  private final MixedAdaGradKernel mixed;
  private final LinearAlgebraKernel linalg;
  private final MemorySegment w;
  private final MemorySegment q;
  private final MemorySegment lo;
  private final MemorySegment hi;
  private final boolean boxed;

  /** An optimizer with its own confined arena and the default kernels. */
  public AdaGradOptimizer(int d, ElementType type, AdaGradParams params) {
    this(d, type, params, null, null);
  }

  /**
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public AdaGradOptimizer(int d, ElementType type, AdaGradParams params, Arena arena, KernelProvider kernels) {
    this(d, Precision.of(type), params, arena, kernels);
  }

  /** An optimizer of the given precision with its own confined arena and the default kernels. */
  public AdaGradOptimizer(int d, Precision precision, AdaGradParams params) {
    this(d, precision, params, null, null);
  }

  /**
   * An optimizer of the given precision; {@link Precision#MIXED} takes float inputs and keeps
   * {@code Q} in double.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public AdaGradOptimizer(int d, Precision precision, AdaGradParams params, Arena arena, KernelProvider kernels) {
    super("adagrad", d, precision, arena, kernels);
    if (params == null) throw new IllegalArgumentException("params must not be null");
    params.box().checkDimension(d);
    // The kernels round every scalar to the element type; past its range it would be infinite.
    checkParamRange("rate", params.rate(), maxFinite(), "the rate would overflow");
    checkParamRange("delta", params.delta(), maxFinite(), "delta would overflow");
    checkParamRange("q0", params.q0(), maxFinite(), "q0 would overflow");
    this.p = params;
    boolean isMixed = precision == Precision.MIXED;
    this.kernel = isMixed ? null : this.kernels.adaGrad(type);
    this.mixed = isMixed ? this.kernels.mixedAdaGrad() : null;
    this.linalg = this.kernels.linearAlgebra(type);
    this.boxed = params.box().isPerCoordinate();
    this.w = allocate("w");
    this.q = allocate("Q", precision.accumulatorType());
    this.lo = boxed ? allocate("lo") : null;
    this.hi = boxed ? allocate("hi") : null;
    resetImpl();
  }

  /** The parameters. */
  public AdaGradParams params() {
    return p;
  }

  @Override
  protected void resetImpl() {
    Box b = p.box();
    fill(q, p.q0());
    for (int i = 0; i < d; i++) {
      set(w, i, b.clamp(i, 0.0));
      if (boxed) {
        set(lo, i, b.lo(i));
        set(hi, i, b.hi(i));
      }
    }
  }

  @Override
  protected double predictDense(MemorySegment x) {
    return mixed != null ? mixed.dot(w, x, d) : linalg.dot(w, x, d);
  }

  @Override
  protected double predictSparseImpl(MemorySegment idx, MemorySegment val, int nnz) {
    return mixed != null ? mixed.dotSparse(w, d, idx, val, nnz) : linalg.dotSparse(w, d, idx, val, nnz);
  }

  @Override
  protected void updateDense(MemorySegment x, double g) {
    if (mixed != null) {
      if (boxed) {
        mixed.updateDenseBoxed(w, q, lo, hi, x, d, g, p.rate(), p.rateFromWidth(), p.delta());
      } else {
        mixed.updateDense(w, q, x, d, g, p.etaOf(0), p.delta(), p.box().lo(0), p.box().hi(0));
      }
      return;
    }
    if (boxed) {
      kernel.updateDenseBoxed(w, q, lo, hi, x, d, g, p.rate(), p.rateFromWidth(), p.delta());
    } else {
      kernel.updateDense(w, q, x, d, g, p.etaOf(0), p.delta(), p.box().lo(0), p.box().hi(0));
    }
  }

  @Override
  protected void updateSparse(MemorySegment idx, MemorySegment val, int nnz, double g) {
    if (mixed != null) {
      if (boxed) {
        mixed.updateSparseBoxed(w, q, lo, hi, d, idx, val, nnz, g, p.rate(), p.rateFromWidth(), p.delta());
      } else {
        mixed.updateSparse(w, q, d, idx, val, nnz, g, p.etaOf(0), p.delta(), p.box().lo(0), p.box().hi(0));
      }
      return;
    }
    if (boxed) {
      kernel.updateSparseBoxed(w, q, lo, hi, d, idx, val, nnz, g, p.rate(), p.rateFromWidth(), p.delta());
    } else {
      kernel.updateSparse(w, q, d, idx, val, nnz, g, p.etaOf(0), p.delta(), p.box().lo(0), p.box().hi(0));
    }
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

  @Override
  protected String brokenInvariant(String name, double v) {
    return switch (name) {
      case "w" -> finite(v, "w (weights)");
      case "Q" -> nonNegative(v, "Q (sum of squared gradients)");
      default -> super.brokenInvariant(name, v); // lo, hi: box bounds, may be infinite
    };
  }
}
