package org.onlinekernels.optimizer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.kernel.ScInOL1Kernel;
import org.onlinekernels.params.ScInOLParams;

/**
 * ScInOL1 (Kempka, Kotlowski and Warmuth 2019, Algorithm 1; ALGORITHMS.md section 3): a
 * scale-invariant, parameter-free linear-model learner. State buffers {@code G}, {@code S2},
 * {@code M}, {@code beta}; scalar state the round counter {@code t} (starts at 1, advanced by each
 * update). Only the linear-model form exists: the algorithm needs the instance {@code x} itself.
 */
public final class ScInOL1Optimizer extends AbstractOptimizer {
  private final ScInOLParams p;
  private final ScInOL1Kernel kernel;
  private final MemorySegment bigG;
  private final MemorySegment s2;
  private final MemorySegment m;
  private final MemorySegment beta;
  // double whatever the element type (ALGORITHMS.md: shared scalars are double).
  private double t;

  /** An optimizer with its own confined arena and the default kernels. */
  public ScInOL1Optimizer(int d, ElementType type, ScInOLParams params) {
    this(d, type, params, null, null);
  }

  /**
   * An optimizer on the given arena and kernels.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public ScInOL1Optimizer(int d, ElementType type, ScInOLParams params, Arena arena, KernelProvider kernels) {
    super("scinol1", d, type, arena, kernels);
    if (params == null) throw new IllegalArgumentException("params must not be null");
    checkParamRange("epsilon", params.epsilon(), maxFinite(), "the initial beta = epsilon would overflow");
    this.p = params;
    this.kernel = this.kernels.scInOL1(type);
    this.bigG = allocate("G");
    this.s2 = allocate("S2");
    this.m = allocate("M");
    this.beta = allocate("beta");
    resetImpl();
  }

  /** The parameters. */
  public ScInOLParams params() {
    return p;
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
    fill(beta, p.epsilon());
    t = 1;
  }

  @Override
  protected double predictDense(MemorySegment x) {
    return kernel.predictDense(bigG, s2, m, beta, x, d, t, p.epsilon());
  }

  @Override
  protected double predictSparseImpl(MemorySegment idx, MemorySegment val, int nnz) {
    return kernel.predictSparse(bigG, s2, m, beta, d, idx, val, nnz, t, p.epsilon());
  }

  @Override
  protected void updateDense(MemorySegment x, double g) {
    kernel.updateDense(bigG, s2, x, d, g);
    t += 1;
  }

  @Override
  protected void updateSparse(MemorySegment idx, MemorySegment val, int nnz, double g) {
    kernel.updateSparse(bigG, s2, d, idx, val, nnz, g);
    t += 1;
  }

  @Override
  protected void readWeightsImpl(MemorySegment into) {
    kernel.weights(bigG, s2, m, beta, into, d);
  }

  /** docs/MERGING.md: {@code G}, {@code S2}, {@code beta}, {@code t} averaged; {@code M} the maximum. */
  @Override
  MergePlan mergePlan() {
    return new MergePlan().average("G", "S2").max("M").average("beta").averageScalars("t");
  }

  @Override
  protected String brokenInvariant(String name, double v) {
    return switch (name) {
      case "G" -> finite(v, "G (negative sum of gradients)");
      case "S2" -> nonNegative(v, "S2 (sum of squared gradients)");
      case "M" -> nonNegative(v, "M (largest |x| seen)");
      case "beta" -> positive(v, "beta");
      case "t" -> atLeastOne(v, "t (round counter)");
      default -> super.brokenInvariant(name, v);
    };
  }
}
