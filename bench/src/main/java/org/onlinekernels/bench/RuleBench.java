package org.onlinekernels.bench;

import java.lang.foreign.Arena;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.DfegParams;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.reference.ReferenceModel;
import org.onlinekernels.rules.Rules;
import org.onlinekernels.rules.dfeg.ReferenceDfeg;
import org.onlinekernels.rules.scinol1.ReferenceScInOL1;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

/**
 * Every rule without a suite of its own (AdaGrad and ScInOL2 have {@link AdaGradBench} and {@link
 * ScInOL2Bench}, with their hand-written loops), made through the rule registry {@link Rules} and
 * named by the JMH parameter {@code rule} (linear-model rounds) or {@code stepRule} (gradient-form
 * steps): a new rule is a new parameter value, not a new class. Default parameters, but the
 * Adaptive OGD radius 1 ({@link #PARAMS}).
 *
 * <p>Minimal traffic per coordinate and call (elements read + written): ScInOL1 round 12 (predict
 * reads {@code G, S2, M, beta, x}, writes {@code M, beta}; update reads {@code G, S2, x}, writes
 * {@code G, S2}; one {@code exp} per coordinate); DFEG 5 (predict reads {@code theta, x}; update
 * reads {@code theta, x}, writes {@code theta}); FTRL 8 ({@code z, N, x}; writes {@code z, N}); KT
 * 11 ({@code theta, W, k, x}; writes {@code theta, W, k}); FreeGrad 14 ({@code G, Vsum, h1, ht, x};
 * writes {@code G, Vsum, h1, ht}); no rule here stores its weight. Global AdaGrad step 4 (the rate
 * needs {@code ||g||^2} first: read {@code g}; read {@code w, g}, write {@code w}); AOGD ball 5
 * ({@code ||g||, <w,g>, ||w||} first); AOGD per coordinate 5 (one pass: read {@code w, Lsum, g},
 * write {@code w, Lsum}).
 */
public class RuleBench extends KernelSuite {
  /** Parameters that differ from a rule's defaults, by rule name. */
  static final Map<String, Map<String, Double>> PARAMS =
      Map.of("aogd-ball", Map.of("R", 1.0), "aogd-coord", Map.of("R", 1.0));

  /** A state buffer of each round rule that is nonzero at both ends after one round. */
  static final Map<String, String> MOVED =
      Map.of("scinol1", "G", "dfeg", "theta", "ftrl", "z", "kt", "theta", "freegrad", "G");

  /** The rule's optimizer from the registry, planar state. */
  static AbstractOptimizer create(
      String rule, int d, ElementType t, Arena arena, KernelProvider kernels) {
    RuleInfo r = Rules.find(rule);
    if (r == null) throw new IllegalArgumentException("no rule " + rule + " in " + Rules.names());
    var p = new RuleInfo.Params(PARAMS.getOrDefault(rule, Map.of()));
    return r.factory().create(d, Precision.of(t), StateLayout.PLANAR, arena, kernels, p);
  }

  /** Dense round. */
  public static class Round extends RoundState {
    /** The rule, by its registry name. */
    @Param({"scinol1", "dfeg", "ftrl", "kt", "freegrad"})
    public String rule;

    @Override
    protected AbstractOptimizer create() {
      return RuleBench.create(rule, d, t, arena, kernels);
    }

    @Override
    protected String movedBuffer() {
      return MOVED.get(rule);
    }
  }

  /** Sparse round at d = 2^22. */
  public static class Sparse extends SparseRoundState {
    /** The rule, by its registry name. */
    @Param({"scinol1", "dfeg", "ftrl", "kt", "freegrad"})
    public String rule;

    @Override
    protected AbstractOptimizer create() {
      return RuleBench.create(rule, d, t, arena, kernels);
    }
  }

  /** Dense gradient-form step. */
  public static class Step extends StepState {
    /** The rule, by its registry name. */
    @Param({"adagrad-global", "aogd-ball", "aogd-coord"})
    public String stepRule;

    @Override
    protected AbstractOptimizer create() {
      return RuleBench.create(stepRule, d, t, arena, kernels);
    }
  }

  /** Sparse gradient-form step at d = 2^22 (the ball form has no sparse step). */
  public static class SparseStep extends SparseStepState {
    /** The rule, by its registry name. */
    @Param({"adagrad-global", "aogd-coord"})
    public String stepRule;

    @Override
    protected AbstractOptimizer create() {
      return RuleBench.create(stepRule, d, t, arena, kernels);
    }
  }

  /** The scalar double oracle at the small sizes, for the rules that have one here. */
  public static class Reference extends ReferenceRoundState {
    /** The rule, by its registry name. */
    @Param({"scinol1", "dfeg"})
    public String rule;

    @Override
    protected ReferenceModel create() {
      return switch (rule) {
        case "scinol1" -> new ReferenceScInOL1(d, ScInOLParams.defaults());
        case "dfeg" -> new ReferenceDfeg(d, DfegParams.defaults());
        default -> throw new IllegalArgumentException("no reference row for " + rule);
      };
    }
  }

  /** Dense round. */
  @Benchmark
  public double round(Round s) {
    return s.round();
  }

  /** Sparse round. */
  @Benchmark
  public double sparse(Sparse s) {
    return s.round();
  }

  /** Dense gradient-form step. */
  @Benchmark
  public Object step(Step s) {
    s.step();
    return s.opt;
  }

  /** Sparse gradient-form step. */
  @Benchmark
  public Object sparseStep(SparseStep s) {
    s.step();
    return s.opt;
  }

  /** The reference. */
  @Benchmark
  public double reference(Reference s) {
    return s.round();
  }
}
