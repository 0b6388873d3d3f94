package org.onlinekernels.rules.scinol2;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.ParameterRangeException;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.optimizer.RuleOptimizer;
import org.onlinekernels.optimizer.state.Invariants;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.ScInOLParams;

/**
 * ScInOL2 ({@link ScInOL2}; docs/ALGORITHMS.md section 4). State buffers {@code G}, {@code S2},
 * {@code M} and the wealth {@code eta}; in stored mode also {@code w}, the weights of the pending
 * dense round. Scalar state: the round counter {@code t} (starts at 1, advanced by each update; the
 * rule itself does not use it).
 *
 * <p>The update needs the round's weights. The default <b>recompute</b> mode recomputes them from
 * the state the predict left (bit-identical to the predict's); <b>stored</b> mode has a dense
 * predict write them to {@code w} and the update read them back: the same bits, one more buffer.
 *
 * <p>{@link Precision#MIXED} ({@link #ScInOL2Optimizer(int, Precision, ScInOLParams, Arena,
 * KernelProvider)}): float inputs, {@code M} and weight read-out; {@code G}, {@code S2} and {@code
 * eta} are double buffers, bit-identical to the double reference fed the same float inputs. {@link
 * StateLayout#INTERLEAVED} keeps a coordinate's four values adjacent (float or double, recompute
 * mode).
 */
public final class ScInOL2Optimizer extends RuleOptimizer {
  /** The rule as the command line and the trainers know it. */
  public static final RuleInfo INFO =
      new RuleInfo(
          "scinol2",
          List.of(
              "  scinol2         eps=1                              ScInOL2 (Kempka et al. Alg. 2), no tuning"),
          Set.of("eps"),
          true,
          (d, precision, layout, arena, kernels, p) ->
              precision == Precision.MIXED
                  ? new ScInOL2Optimizer(
                      d, precision, new ScInOLParams(p.get("eps", 1)), arena, kernels)
                  : new ScInOL2Optimizer(
                      d,
                      precision.inputType(),
                      new ScInOLParams(p.get("eps", 1)),
                      layout,
                      arena,
                      kernels));

  private final ScInOLParams p;
  private final boolean storeWeights;
  private double t;

  /** An optimizer in recompute mode with its own confined arena and the default kernels. */
  public ScInOL2Optimizer(int d, ElementType type, ScInOLParams params) {
    this(d, Precision.of(type), params, false, StateLayout.PLANAR, null, null);
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
      int d,
      ElementType type,
      ScInOLParams params,
      boolean storeWeights,
      Arena arena,
      KernelProvider kernels) {
    this(d, Precision.of(type), params, storeWeights, StateLayout.PLANAR, arena, kernels);
  }

  /**
   * A mixed-precision ({@link Precision#MIXED}) or plain optimizer of the given precision in
   * recompute mode.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public ScInOL2Optimizer(
      int d, Precision precision, ScInOLParams params, Arena arena, KernelProvider kernels) {
    this(d, precision, params, false, StateLayout.PLANAR, arena, kernels);
  }

  /**
   * A float or double optimizer in recompute mode with its state in {@code layout}.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public ScInOL2Optimizer(
      int d,
      ElementType type,
      ScInOLParams params,
      StateLayout layout,
      Arena arena,
      KernelProvider kernels) {
    this(d, Precision.of(type), params, false, layout, arena, kernels);
  }

  private ScInOL2Optimizer(
      int d,
      Precision precision,
      ScInOLParams params,
      boolean storeWeights,
      StateLayout layout,
      Arena arena,
      KernelProvider kernels) {
    super(
        "scinol2",
        d,
        checked(params, precision),
        layout,
        false,
        storeWeights,
        arena,
        kernels,
        ScInOL2RuleForms.SHAPE);
    this.p = params;
    this.storeWeights = storeWeights;
    if (!store.adopted()) {
      resetImpl();
    }
  }

  /**
   * Refuses null parameters and an initial wealth above its saturation cap, before any state is
   * allocated.
   */
  private static Precision checked(ScInOLParams params, Precision precision) {
    if (params == null) {
      throw new IllegalArgumentException("params must not be null");
    }
    if (precision != null) {
      ParameterRangeException.check(
          "scinol2",
          precision.inputType(),
          "epsilon",
          params.epsilon(),
          precision.accumulatorType() == ElementType.FLOAT
              ? ScInOL2.FLOAT_WEALTH_CAP
              : ScInOL2.DOUBLE_WEALTH_CAP,
          "the initial wealth eta = epsilon would exceed its saturation cap");
    }
    return precision;
  }

  /** The parameters. */
  public ScInOLParams params() {
    return p;
  }

  /**
   * Whether a dense predict stores the weights for the update (else the update recomputes them).
   */
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
    store.fill("eta", p.epsilon());
    t = 1;
  }

  @Override
  protected void afterUpdate(double rowSum, boolean dense) {
    t += 1;
  }

  /**
   * A square root and a division per nonzero keep few misses in flight: load a row's records first.
   */
  @Override
  protected boolean touchRecordsFirst() {
    return true;
  }

  /**
   * docs/MERGING.md: {@code G}, {@code S2}, the wealth {@code eta} and {@code t} averaged over the
   * learners that changed them; {@code M} the maximum. The wealth is {@link MergePlan#compounding}:
   * each round multiplies it by {@code 1 - g x_i sgn(theta) min(|theta|, 1) / (2 s)}, a factor of
   * {@code G}, {@code S2} and {@code M} only.
   */
  @Override
  protected MergePlan mergePlan() {
    return new MergePlan()
        .average("G", "S2")
        .max("M")
        .average("eta")
        .compounding("eta")
        .averageScalars("t");
  }

  @Override
  protected String brokenInvariant(String name, double v) {
    return switch (name) {
      case "G" -> Invariants.finite(v, "G (negative sum of gradients)");
      case "S2" -> Invariants.nonNegative(v, "S2 (sum of squared gradients)");
      case "M" -> Invariants.nonNegative(v, "M (largest |x| seen)");
      case "eta" -> Invariants.within(v, wealthCap(), "eta (wealth)");
      case "w" -> Invariants.finite(v, "w (stored weights)");
      case "t" -> Invariants.atLeastOne(v, "t (round counter)");
      default -> super.brokenInvariant(name, v);
    };
  }

  private double wealthCap() {
    return stateType("eta") == ElementType.FLOAT
        ? ScInOL2.FLOAT_WEALTH_CAP
        : ScInOL2.DOUBLE_WEALTH_CAP;
  }
}
