package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.MixedScInOL2Kernel;
import org.onlinekernels.kernel.ScInOL2Kernel;
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

  private ScInOL2Optimizer(
      int d, Precision precision, ScInOLParams params, boolean storeWeights, Arena arena, KernelProvider kernels) {
    super("scinol2", d, precision, arena, kernels);
    if (params == null) throw new IllegalArgumentException("params must not be null");
    // The wealth starts at epsilon and saturates at its cap: a larger start breaks its invariant.
    checkParamRange("epsilon", params.epsilon(), precision.accumulatorType() == ElementType.FLOAT
        ? ScInOL2Kernel.FLOAT_WEALTH_CAP : ScInOL2Kernel.DOUBLE_WEALTH_CAP, "the initial wealth eta = epsilon would exceed its saturation cap");
    this.p = params;
    boolean isMixed = precision == Precision.MIXED;
    this.kernel = isMixed ? null : this.kernels.scInOL2(type);
    this.mixed = isMixed ? this.kernels.mixedScInOL2() : null;
    this.storeWeights = storeWeights;
    ElementType acc = precision.accumulatorType();
    this.bigG = allocate("G", acc);
    this.s2 = allocate("S2", acc);
    this.m = allocate("M");
    this.eta = allocate("eta", acc);
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
    fill(eta, p.epsilon());
    t = 1;
  }

  @Override
  protected double predictDense(MemorySegment x) {
    if (mixed != null) {
      return mixed.predictDense(bigG, s2, m, eta, x, d);
    }
    return storeWeights
        ? kernel.predictDenseStoring(bigG, s2, m, eta, x, d, w)
        : kernel.predictDense(bigG, s2, m, eta, x, d);
  }

  @Override
  protected double predictSparseImpl(MemorySegment idx, MemorySegment val, int nnz) {
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
    if (mixed != null) {
      mixed.weights(bigG, s2, m, eta, into, d);
      return;
    }
    kernel.weights(bigG, s2, m, eta, into, d);
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
