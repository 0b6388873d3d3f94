package org.onlinekernels.rules.adagrad;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Set;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.GradientOptimizer;
import org.onlinekernels.optimizer.ParameterRangeException;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.optimizer.RuleOptimizer;
import org.onlinekernels.optimizer.state.Invariants;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.Box;

/**
 * Per-coordinate AdaGrad ({@link AdaGrad}; Streeter and McMahan 2010, Algorithm 1; diagonal
 * AdaGrad) with an optional box. State: {@code w}, {@code Q}; with a box per coordinate also the
 * read-only buffers {@code eta}, {@code lo}, {@code hi}.
 *
 * <p>{@link Precision#MIXED}: inputs, {@code w} (and the box buffers) float, {@code Q} a double
 * buffer, all arithmetic in double and the prediction summed in double; {@code Q} keeps growing
 * where a float {@code Q} stalls after about 2^24 equal increments. {@link StateLayout#INTERLEAVED}
 * ({@code w_i, Q_i} adjacent) takes float or double state with one box for all coordinates.
 */
public final class AdaGradOptimizer extends RuleOptimizer implements GradientOptimizer {
  /** The rule as the command line and the trainers know it. */
  public static final RuleInfo INFO =
      new RuleInfo(
          "adagrad",
          List.of(
              "  adagrad         eta=1 | alpha (with R: eta_i = alpha*2R), delta=0, q0=0, R=inf (box [-R,R])",
              "                  per-coordinate AdaGrad (Streeter & McMahan Alg. 1 / diagonal AdaGrad)"),
          Set.of("eta", "alpha", "delta", "q0", "R"),
          true,
          (d, precision, layout, arena, kernels, p) -> {
            double r = p.get("R", Double.POSITIVE_INFINITY);
            Box box = Double.isInfinite(r) ? Box.none() : Box.symmetric(r);
            if (p.has("alpha") && p.has("eta")) {
              throw new IllegalArgumentException("adagrad: give eta or alpha, not both");
            }
            AdaGradParams ap =
                p.has("alpha")
                    ? AdaGradParams.alphaTimesWidth(p.get("alpha", 1), box)
                    : AdaGradParams.eta(p.get("eta", 1)).withBox(box);
            ap = ap.withDelta(p.get("delta", 0)).withQ0(p.get("q0", 0));
            return precision == Precision.MIXED
                ? new AdaGradOptimizer(d, precision, ap, arena, kernels)
                : new AdaGradOptimizer(d, precision.inputType(), ap, layout, arena, kernels);
          });

  private final AdaGradParams p;
  private final boolean boxed;

  /** An optimizer with its own confined arena and the default kernels. */
  public AdaGradOptimizer(int d, ElementType type, AdaGradParams params) {
    this(d, Precision.of(type), params, StateLayout.PLANAR, null, null);
  }

  /**
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public AdaGradOptimizer(
      int d, ElementType type, AdaGradParams params, Arena arena, KernelProvider kernels) {
    this(d, Precision.of(type), params, StateLayout.PLANAR, arena, kernels);
  }

  /** An optimizer of the given precision with its own confined arena and the default kernels. */
  public AdaGradOptimizer(int d, Precision precision, AdaGradParams params) {
    this(d, precision, params, StateLayout.PLANAR, null, null);
  }

  /**
   * An optimizer of the given precision; {@link Precision#MIXED} takes float inputs and keeps
   * {@code Q} in double.
   *
   * @param arena where the state lives, or {@code null} for an owned confined arena
   * @param kernels kernel implementation, or {@code null} for {@link KernelProvider#get()}
   */
  public AdaGradOptimizer(
      int d, Precision precision, AdaGradParams params, Arena arena, KernelProvider kernels) {
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
      int d,
      ElementType type,
      AdaGradParams params,
      StateLayout layout,
      Arena arena,
      KernelProvider kernels) {
    this(d, Precision.of(type), params, layout, arena, kernels);
  }

  private AdaGradOptimizer(
      int d,
      Precision precision,
      AdaGradParams params,
      StateLayout layout,
      Arena arena,
      KernelProvider kernels) {
    super(
        "adagrad",
        d,
        checked(d, params, precision),
        layout,
        params.box().isPerCoordinate(),
        false,
        arena,
        kernels,
        AdaGradRuleForms.SHAPE);
    this.p = params;
    this.boxed = params.box().isPerCoordinate();
    Box b = params.box();
    u[AdaGradRuleForms.SHAPE.uniform("eta")] = p.etaOf(0);
    u[AdaGradRuleForms.SHAPE.uniform("delta")] = p.delta();
    u[AdaGradRuleForms.SHAPE.uniform("lo")] = b.lo(0);
    u[AdaGradRuleForms.SHAPE.uniform("hi")] = b.hi(0);
    if (!store.adopted()) {
      resetImpl();
    }
  }

  /**
   * The checks that come before any state is allocated: the box's dimension, and scalars the
   * element type can hold.
   */
  private static Precision checked(int d, AdaGradParams params, Precision precision) {
    if (params == null) {
      throw new IllegalArgumentException("params must not be null");
    }
    params.box().checkDimension(d);
    if (precision != null) {
      // The forms round every scalar to the element type; past its range it would be infinite.
      ElementType t = precision.inputType();
      double max = t == ElementType.FLOAT ? Float.MAX_VALUE : Double.MAX_VALUE;
      ParameterRangeException.check(
          "adagrad", t, "rate", params.rate(), max, "the rate would overflow");
      ParameterRangeException.check(
          "adagrad", t, "delta", params.delta(), max, "delta would overflow");
      ParameterRangeException.check("adagrad", t, "q0", params.q0(), max, "q0 would overflow");
    }
    return precision;
  }

  /** The parameters. */
  public AdaGradParams params() {
    return p;
  }

  @Override
  protected void resetImpl() {
    Box b = p.box();
    store.fill("Q", p.q0());
    for (int i = 0; i < d; i++) {
      store.set("w", i, b.clamp(i, 0.0));
      if (boxed) {
        store.set("lo", i, b.lo(i));
        store.set("hi", i, b.hi(i));
        store.set("eta", i, p.etaOf(i));
      }
    }
  }

  @Override
  public void step(MemorySegment gradient) {
    checkGradient(gradient);
    updateDense(gradient, 1.0);
  }

  @Override
  public void stepSparse(MemorySegment indices, MemorySegment values, int nnz) {
    checkSparseGradient(indices, values, nnz);
    updateSparse(indices, values, nnz, 1.0);
  }

  /**
   * docs/MERGING.md: {@code Q} by increments; {@code w} averaged by the increments of {@code Q},
   * clamped.
   */
  @Override
  protected MergePlan mergePlan() {
    Box b = p.box();
    return new MergePlan().mean("w", "Q", List.of(), b::clamp).sum("Q");
  }

  @Override
  protected String brokenInvariant(String name, double v) {
    return switch (name) {
      case "w" -> Invariants.finite(v, "w (weights)");
      case "Q" -> Invariants.nonNegative(v, "Q (sum of squared gradients)");
      default ->
          super.brokenInvariant(name, v); // eta, lo, hi: parameters; the bounds may be infinite
    };
  }
}
