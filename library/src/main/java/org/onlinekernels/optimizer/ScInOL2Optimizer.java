package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.MixedScInOL2Kernel;
import org.onlinekernels.kernel.ScInOL2Kernel;
import org.onlinekernels.kernel.scalar.DoubleScInOL2Round;
import org.onlinekernels.kernel.scalar.FloatScInOL2Round;
import org.onlinekernels.params.ScInOLParams;

/**
 * ScInOL2 (Kempka, Kotlowski and Warmuth 2019, Algorithm 2; ALGORITHMS.md section 4). State
 * buffers {@code G}, {@code S2}, {@code M} and the wealth {@code eta}; in stored mode also
 * {@code w}, the weights of the pending round. Scalar state: the round counter {@code t} (starts
 * at 1, advanced by each update; the rule itself does not use it).
 *
 * <p>The update needs the round's weights. The default <b>recompute</b> mode recomputes them in
 * the update from the untouched state (bit-identical to the predict's); <b>stored</b> mode has the
 * predict write them to {@code w} and the update read them back. Both give bit-identical results;
 * they differ only in speed and one extra buffer.
 *
 * <p>{@link Precision#MIXED} ({@link #ScInOL2Optimizer(int, Precision, ScInOLParams, Arena,
 * KernelProvider)}, recompute mode only): float inputs, {@code M} and weight read-out; {@code G},
 * {@code S2} and {@code eta} are double buffers in {@link #state()} ({@link MixedScInOL2Kernel}),
 * bit-identical to the double reference fed the same float inputs.
 *
 * <p>{@link StateLayout}: float and double state is one segment, planar (four blocks of {@code d},
 * the default, for the dense SIMD kernels) or {@link StateLayout#INTERLEAVED} ({@code G, S2, M,
 * eta} of a coordinate adjacent, for sparse work on large models; recompute mode only). Sparse
 * rounds ({@link #round}) run {@link FloatScInOL2Round} in either layout; so does every call on
 * interleaved state (dense input over the identity index), with results bit-identical to the
 * planar kernels' state.
 */
public final class ScInOL2Optimizer extends AbstractOptimizer {
  private final ScInOLParams p;
  private final ScInOL2Kernel kernel;
  private final MixedScInOL2Kernel mixed;
  private final boolean storeWeights;
  private final MemorySegment bigG;
  private final MemorySegment s2;
  private final MemorySegment m;
  private final MemorySegment eta;
  private final MemorySegment w;
  /** The four variables as one segment ({@code null} under MIXED), addressed by {@code step}, {@code stride}. */
  private final MemorySegment block;
  private final long step;
  private final long stride;
  private final boolean isFloat;
  private double t;

  /** An optimizer in recompute mode with its own confined arena and the default kernels. */
  public ScInOL2Optimizer(int d, ElementType type, ScInOLParams params) {
    this(d, type, params, false, null, null);
  }

  /**
   * An optimizer in the chosen mode.
   *
   * @param storeWeights {@code true} for stored-weights mode (allocates {@code w}), {@code false}
   *     for recompute mode
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public ScInOL2Optimizer(
      int d, ElementType type, ScInOLParams params, boolean storeWeights, Arena arena, KernelProvider kernels) {
    this(d, Precision.of(type), params, storeWeights, arena, kernels);
  }

  /**
   * A mixed-precision ({@link Precision#MIXED}, recompute mode) or plain optimizer of the given
   * precision in recompute mode.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public ScInOL2Optimizer(int d, Precision precision, ScInOLParams params, Arena arena, KernelProvider kernels) {
    this(d, precision, params, false, arena, kernels);
  }

  /**
   * A float or double optimizer in recompute mode with its state in {@code layout}.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public ScInOL2Optimizer(
      int d, ElementType type, ScInOLParams params, StateLayout layout, Arena arena, KernelProvider kernels) {
    this(d, Precision.of(type), params, false, layout, arena, kernels);
  }

  private ScInOL2Optimizer(
      int d, Precision precision, ScInOLParams params, boolean storeWeights, Arena arena, KernelProvider kernels) {
    this(d, precision, params, storeWeights, StateLayout.PLANAR, arena, kernels);
  }

  private ScInOL2Optimizer(int d, Precision precision, ScInOLParams params, boolean storeWeights,
      StateLayout layout, Arena arena, KernelProvider kernels) {
    super("scinol2", d, precision, arena, kernels);
    if (params == null) throw new IllegalArgumentException("params must not be null");
    if (layout == null) throw new IllegalArgumentException("layout must be PLANAR or INTERLEAVED, got null");
    // The wealth starts at epsilon and saturates at its cap: a larger start breaks its invariant.
    checkParamRange("epsilon", params.epsilon(), precision.accumulatorType() == ElementType.FLOAT
        ? ScInOL2Kernel.FLOAT_WEALTH_CAP : ScInOL2Kernel.DOUBLE_WEALTH_CAP, "the initial wealth eta = epsilon would exceed its saturation cap");
    boolean isMixed = precision == Precision.MIXED;
    if (layout == StateLayout.INTERLEAVED && (isMixed || storeWeights)) {
      throw new IllegalArgumentException("the interleaved layout takes float or double state in recompute mode"
          + (isMixed ? "; MIXED keeps its accumulators in separate double buffers" : ""));
    }
    this.p = params;
    this.kernel = isMixed ? null : this.kernels.scInOL2(type);
    this.mixed = isMixed ? this.kernels.mixedScInOL2() : null;
    this.storeWeights = storeWeights;
    this.isFloat = type == ElementType.FLOAT;
    ElementType acc = precision.accumulatorType();
    if (isMixed) {
      this.block = null;
      this.bigG = allocate("G", acc);
      this.s2 = allocate("S2", acc);
      this.m = allocate("M");
      this.eta = allocate("eta", acc);
    } else {
      this.block = allocateBlock(new String[] {"G", "S2", "M", "eta"}, type, layout);
      long bytes = (long) d * type.bytes();
      boolean planar = layout == StateLayout.PLANAR;
      this.bigG = planar ? block.asSlice(0, bytes) : null;
      this.s2 = planar ? block.asSlice(bytes, bytes) : null;
      this.m = planar ? block.asSlice(2 * bytes, bytes) : null;
      this.eta = planar ? block.asSlice(3 * bytes, bytes) : null;
    }
    this.step = step(layout);
    this.stride = stride(layout, FloatScInOL2Round.FIELDS);
    this.w = storeWeights ? allocate("w") : null;
    resetImpl();
  }


  /** The parameters. */
  public ScInOLParams params() {
    return p;
  }

  /** Whether the predict stores the weights for the update (else the update recomputes them). */
  public boolean storesWeights() {
    return storeWeights;
  }

  /** {@code t}: the round the next predict belongs to. */
  @Override
  public Map<String, Double> scalarState() {
    return Map.of("t", t);
  }

  @Override
  protected void setScalar(String name, double value) {
    t = value;
  }

  @Override
  protected void resetImpl() {
    fillField("eta", p.epsilon());
    t = 1;
  }


  /** The fused body's predict half on entries {@code [from, from + nnz)}; values in {@code vf} or {@code vd} by type. */
  @Override
  protected double fusedPredict(int[] idx, int from, int nnz, float[] vf, double[] vd) {
    return isFloat
        ? FloatScInOL2Round.predict(block, step, stride, idx, vf, from, nnz, scratchAF(), scratchBF())
        : DoubleScInOL2Round.predict(block, step, stride, idx, vd, from, nnz, scratchAD(), scratchBD());
  }

  /** The fused body's update half, after {@link #fusedPredict} of the same entries. */
  @Override
  protected void fusedUpdate(int[] idx, int from, int nnz, float[] vf, double[] vd, double g) {
    if (isFloat) {
      FloatScInOL2Round.update(block, step, stride, idx, vf, from, nnz, scratchAF(), scratchBF(), (float) g);
    } else {
      DoubleScInOL2Round.update(block, step, stride, idx, vd, from, nnz, scratchAD(), scratchBD(), g);
    }
    t += 1;
  }

  @Override
  protected boolean touchRecordsFirst() {
    return true;
  }

  @Override
  protected boolean fusedRound() {
    return block != null;
  }

  /**
   * Predict of a separate predict/update pair on interleaved state, over the scratch row (which
   * the update reuses): the round's predict, then {@code M} written, as every predict does.
   */
  private double interleavedPredict(int[] idx, int nnz) {
    double yhat = fusedPredict(idx, 0, nnz, scratchRowF(), scratchRowD());
    if (isFloat) {
      FloatScInOL2Round.commitM(block, step, stride, idx, 0, nnz, scratchBF());
    } else {
      DoubleScInOL2Round.commitM(block, step, stride, idx, 0, nnz, scratchBD());
    }
    return yhat;
  }

  @Override
  protected double predictDense(MemorySegment x) {
    if (interleaved()) {
      copyValues(x, d);
      return interleavedPredict(identityIndex(), d);
    }
    if (mixed != null) {
      return mixed.predictDense(bigG, s2, m, eta, x, d);
    }
    return storeWeights
        ? kernel.predictDenseStoring(bigG, s2, m, eta, x, d, w)
        : kernel.predictDense(bigG, s2, m, eta, x, d);
  }

  @Override
  protected double predictSparseImpl(MemorySegment idx, MemorySegment val, int nnz) {
    if (interleaved()) {
      copyRow(idx, val, nnz);
      return interleavedPredict(scratchIdx(), nnz);
    }
    if (mixed != null) {
      return mixed.predictSparse(bigG, s2, m, eta, d, idx, val, nnz);
    }
    // w is d elements, enough for the compact nnz <= d entries.
    return storeWeights
        ? kernel.predictSparseStoring(bigG, s2, m, eta, d, idx, val, nnz, w)
        : kernel.predictSparse(bigG, s2, m, eta, d, idx, val, nnz);
  }

  @Override
  protected void updateDense(MemorySegment x, double g) {
    if (interleaved()) {
      // The scratch row still holds what the predict copied.
      fusedUpdate(identityIndex(), 0, d, scratchRowF(), scratchRowD(), g);
      return;
    }
    if (mixed != null) {
      mixed.updateDense(bigG, s2, m, eta, x, d, g);
    } else if (storeWeights) {
      kernel.updateDenseStored(bigG, s2, eta, w, x, d, g);
    } else {
      kernel.updateDense(bigG, s2, m, eta, x, d, g);
    }
    t += 1;
  }

  @Override
  protected void updateSparse(MemorySegment idx, MemorySegment val, int nnz, double g) {
    if (interleaved()) {
      fusedUpdate(scratchIdx(), 0, nnz, scratchRowF(), scratchRowD(), g);
      return;
    }
    if (mixed != null) {
      mixed.updateSparse(bigG, s2, m, eta, d, idx, val, nnz, g);
    } else if (storeWeights) {
      kernel.updateSparseStored(bigG, s2, eta, w, d, idx, val, nnz, g);
    } else {
      kernel.updateSparse(bigG, s2, m, eta, d, idx, val, nnz, g);
    }
    t += 1;
  }

  @Override
  protected void readWeightsImpl(MemorySegment into) {
    if (interleaved()) {
      if (isFloat) {
        FloatScInOL2Round.weights(block, step, stride, into, d);
      } else {
        DoubleScInOL2Round.weights(block, step, stride, into, d);
      }
      return;
    }
    if (mixed != null) {
      mixed.weights(bigG, s2, m, eta, into, d);
      return;
    }
    kernel.weights(bigG, s2, m, eta, into, d);
  }

  /**
   * docs/MERGING.md: {@code G}, {@code S2}, the wealth {@code eta} and {@code t} averaged over the
   * learners that changed them; {@code M} the maximum.
   */
  @Override
  MergePlan mergePlan() {
    return new MergePlan().average("G", "S2").max("M").average("eta").averageScalars("t");
  }

  @Override
  protected String brokenInvariant(String name, double v) {
    return switch (name) {
      case "G" -> finite(v, "G (negative sum of gradients)");
      case "S2" -> nonNegative(v, "S2 (sum of squared gradients)");
      case "M" -> nonNegative(v, "M (largest |x| seen)");
      case "eta" -> Math.abs(v) <= wealthCap() ? null
          : "eta (wealth) is finite and within +-" + wealthCap() + " (its saturation bound)";
      case "w" -> finite(v, "w (stored weights)");
      case "t" -> atLeastOne(v, "t (round counter)");
      default -> super.brokenInvariant(name, v);
    };
  }

  private double wealthCap() {
    return stateType("eta") == ElementType.FLOAT ? ScInOL2Kernel.FLOAT_WEALTH_CAP : ScInOL2Kernel.DOUBLE_WEALTH_CAP;
  }
}
