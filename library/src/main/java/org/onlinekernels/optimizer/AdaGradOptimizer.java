package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.onlinekernels.kernel.AdaGradKernel;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.LinearAlgebraKernel;
import org.onlinekernels.kernel.MixedAdaGradKernel;
import org.onlinekernels.kernel.scalar.DoubleAdaGradRound;
import org.onlinekernels.kernel.scalar.FloatAdaGradRound;
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
 *
 * <p>{@link StateLayout}: without a per-coordinate box, float and double {@code w} and {@code Q}
 * are one segment, planar (the default) or {@link StateLayout#INTERLEAVED} ({@code w_i, Q_i}
 * adjacent, for sparse work on large models). Sparse rounds ({@link #round}) run {@link
 * FloatAdaGradRound} in either layout; so does every call on interleaved state (dense input over
 * the identity index), bit-identical in state to the planar kernels.
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
  /** {@code w} and {@code Q} as one segment ({@code null} when boxed or MIXED). */
  private final MemorySegment block;
  private final long step;
  private final long stride;
  private final boolean isFloat;

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
    this(d, precision, params, StateLayout.PLANAR, arena, kernels);
  }

  /**
   * A float or double optimizer with its state in {@code layout}.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   * @throws IllegalArgumentException for {@link StateLayout#INTERLEAVED} with a per-coordinate box
   */
  public AdaGradOptimizer(
      int d, ElementType type, AdaGradParams params, StateLayout layout, Arena arena, KernelProvider kernels) {
    this(d, Precision.of(type), params, layout, arena, kernels);
  }

  private AdaGradOptimizer(
      int d, Precision precision, AdaGradParams params, StateLayout layout, Arena arena, KernelProvider kernels) {
    super("adagrad", d, precision, arena, kernels);
    if (params == null) throw new IllegalArgumentException("params must not be null");
    if (layout == null) throw new IllegalArgumentException("layout must be PLANAR or INTERLEAVED, got null");
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
    if (layout == StateLayout.INTERLEAVED && (boxed || isMixed)) {
      throw new IllegalArgumentException("the interleaved layout takes float or double state with one box for all "
          + "coordinates; " + (boxed ? "a per-coordinate box keeps lo and hi in buffers of their own" : "MIXED keeps Q in double"));
    }
    this.isFloat = type == ElementType.FLOAT;
    if (boxed || isMixed) {
      this.block = null;
      this.w = allocate("w");
      this.q = allocate("Q", precision.accumulatorType());
    } else {
      this.block = allocateBlock(new String[] {"w", "Q"}, type, layout);
      long bytes = (long) d * type.bytes();
      boolean planar = layout == StateLayout.PLANAR;
      this.w = planar ? block.asSlice(0, bytes) : null;
      this.q = planar ? block.asSlice(bytes, bytes) : null;
    }
    this.step = step(layout);
    this.stride = stride(layout, FloatAdaGradRound.FIELDS);
    this.lo = boxed ? allocate("lo") : null;
    this.hi = boxed ? allocate("hi") : null;
    resetImpl();
  }


  /** The fused body's predict on entries {@code [from, from + nnz)}; values in {@code vf} or {@code vd} by type. */
  @Override
  protected double fusedPredict(int[] idx, int from, int nnz, float[] vf, double[] vd) {
    return isFloat
        ? FloatAdaGradRound.predict(block, stride, idx, vf, from, nnz)
        : DoubleAdaGradRound.predict(block, stride, idx, vd, from, nnz);
  }

  /** The fused body's update with {@code g_j = g x_j}. */
  @Override
  protected void fusedUpdate(int[] idx, int from, int nnz, float[] vf, double[] vd, double g) {
    Box b = p.box();
    if (isFloat) {
      FloatAdaGradRound.update(block, step, stride, idx, vf, from, nnz,
          (float) g, (float) p.etaOf(0), (float) p.delta(), (float) b.lo(0), (float) b.hi(0));
    } else {
      DoubleAdaGradRound.update(block, step, stride, idx, vd, from, nnz, g, p.etaOf(0), p.delta(), b.lo(0), b.hi(0));
    }
  }

  @Override
  protected boolean fusedRound() {
    return block != null;
  }

  /** The parameters. */
  public AdaGradParams params() {
    return p;
  }

  @Override
  protected void resetImpl() {
    Box b = p.box();
    fillField("Q", p.q0());
    for (int i = 0; i < d; i++) {
      setField("w", i, b.clamp(i, 0.0));
      if (boxed) {
        set(lo, i, b.lo(i));
        set(hi, i, b.hi(i));
      }
    }
  }

  @Override
  protected double predictDense(MemorySegment x) {
    if (interleaved()) {
      copyValues(x, d);
      return fusedPredict(identityIndex(), 0, d, scratchRowF(), scratchRowD());
    }
    return mixed != null ? mixed.dot(w, x, d) : linalg.dot(w, x, d);
  }

  @Override
  protected double predictSparseImpl(MemorySegment idx, MemorySegment val, int nnz) {
    if (interleaved()) {
      copyRow(idx, val, nnz);
      return fusedPredict(scratchIdx(), 0, nnz, scratchRowF(), scratchRowD());
    }
    return mixed != null ? mixed.dotSparse(w, d, idx, val, nnz) : linalg.dotSparse(w, d, idx, val, nnz);
  }

  @Override
  protected void updateDense(MemorySegment x, double g) {
    if (interleaved()) {
      copyValues(x, d);
      fusedUpdate(identityIndex(), 0, d, scratchRowF(), scratchRowD(), g);
      return;
    }
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
    if (interleaved()) {
      copyRow(idx, val, nnz);
      fusedUpdate(scratchIdx(), 0, nnz, scratchRowF(), scratchRowD(), g);
      return;
    }
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
    if (interleaved()) {
      if (isFloat) {
        FloatAdaGradRound.weights(block, stride, into, d);
      } else {
        DoubleAdaGradRound.weights(block, stride, into, d);
      }
      return;
    }
    MemorySegment.copy(w, 0, into, 0, (long) d * type.bytes());
  }

  /** docs/MERGING.md: {@code Q} by increments; {@code w} averaged by the increments of {@code Q}, clamped. */
  @Override
  MergePlan mergePlan() {
    Box b = p.box();
    return new MergePlan().mean("w", "Q", java.util.List.of(), b::clamp).sum("Q");
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
