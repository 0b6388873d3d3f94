package org.onlinekernels.testkit;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.AdaptiveOgdParams;
import org.onlinekernels.params.DfegParams;
import org.onlinekernels.params.FreeGradParams;
import org.onlinekernels.params.FtrlParams;
import org.onlinekernels.params.GlobalAdaGradParams;
import org.onlinekernels.params.KtParams;
import org.onlinekernels.params.ScInOLParams;

/**
 * Checks a user's implementation of one algorithm against the library's reference, with the
 * library's own generators and bounds. Adapt the implementation to {@link Learner}, then one call
 * with the rule's name in the registry and its parameter record:
 *
 * <pre>{@code
 * KernelCheck.forRule("scinol2", ScInOLParams.class,
 *     (d, type, params) -> new MyScInOL2(d, type, params.epsilon())).run();
 * }</pre>
 *
 * (or the same with a typed entry, {@code KernelCheck.scInOL2(factory)}: one per rule of the first
 * release, each a one-line {@link #forRule(String, Class, Factory)}; a rule added since has {@code
 * forRule} only, which finds its {@link Subject} from the registry) runs {@linkplain #tries(int)
 * tries} random {@link Trial}s of the {@link Property properties} (single step from a warmed-up
 * state, trajectory, dense == sparse, and for ScInOL scale invariance) over dimensions with lane
 * counts +-1 and primes, byte offsets, native and heap segments, sparse densities, feature scales
 * {@code 2^-20 .. 2^20}, explicit zeros and {@code -0.0}, repeated and all-zero rows and long
 * one-sign runs ({@link Cases}, {@link Workload}). The first failing trial is shrunk (jqwik's
 * shrinking of the same generators) and thrown as a {@link CheckFailure} with the shrunk
 * counterexample, the original one and the seed; {@link #seed(long)} reproduces it. To run under
 * jqwik's own runner instead (its reports, its {@code tries}), use {@link #trials()} and {@link
 * #check(Trial)} in a {@code @Property}.
 *
 * <p>The state names the kit reads and writes through {@link Learner#state} and {@link
 * Learner#writeState}, per algorithm (as in the library's optimizers): AdaGrad {@code w}, {@code
 * Q}; global-rate AdaGrad {@code w} and the scalar {@code sumSquares}; Adaptive OGD per-coordinate
 * {@code w}, {@code Lsum} and the scalar {@code Hsum}; Adaptive OGD ball {@code w} and the scalars
 * {@code Hsum}, {@code Lsum}; ScInOL1 {@code G}, {@code S2}, {@code M}, {@code beta} and the scalar
 * {@code t}; ScInOL2 {@code G}, {@code S2}, {@code M}, {@code eta}; DFEG {@code theta} and the
 * scalars {@code H}, {@code thetaNormSquared}; FTRL-Proximal {@code z}, {@code N}; KT {@code
 * theta}, {@code W}, {@code k}; FreeGrad {@code G}, {@code Vsum}, {@code h1}, {@code ht}.
 *
 * <p>Bounds: {@link Tolerance} and each algorithm's {@link Subject}; in double, the per-coordinate
 * state of AdaGrad, per-coordinate Adaptive OGD, ScInOL1, ScInOL2, FTRL-Proximal, KT, FreeGrad and
 * DFEG's {@code theta} must be the reference's bits, so an implementation must do the reference's
 * operations in its order there (see the reference's javadoc); in float the bounds allow for any
 * order.
 *
 * <p>A check is configured by its fluent setters, then run; it is not thread-safe.
 *
 * @param <P> the algorithm's parameter record, which the factory receives
 */
public final class KernelCheck<P> {
  /**
   * A factory of the implementation under test, given the parameters a trial draws (or the fixed
   * ones).
   */
  @FunctionalInterface
  public interface Factory<P> {
    /**
     * A fresh learner (the algorithm's initial state for {@code params}) of dimension {@code d}
     * over {@code type}.
     */
    Learner create(int d, ElementType type, P params);
  }

  /** The properties a trial checks. */
  public enum Property {
    /** One round from the reference's warmed-up state: prediction and state within the bounds. */
    SINGLE_STEP,
    /**
     * Up to 300 rounds from a warmed-up state: every prediction and every state within the bounds.
     */
    TRAJECTORY,
    /**
     * The same rounds fed dense and sparse, from the initial state: predictions and state agree
     * within twice the bounds.
     */
    DENSE_EQUALS_SPARSE,
    /**
     * Features scaled by powers of two leave every prediction unchanged within twice the bound
     * (ScInOL only).
     */
    SCALE_INVARIANCE
  }

  /**
   * One generated check: a property and a case.
   *
   * @param property what is checked
   * @param c the scenario (dimension, element type, rounds, seed, ...)
   */
  public record Trial(Property property, Case c) {}

  private final String algorithm;
  private final RuleInfo rule;
  private final Class<P> paramsType;
  private final Factory<P> factory;
  private final boolean scaleInvariant;
  private P fixed;
  private Set<ElementType> types = EnumSet.allOf(ElementType.class);
  private boolean dense = true;
  private boolean sparse = true;
  private int tries = Integer.getInteger("jqwik.tries.default", 200);
  private Long seed;

  private KernelCheck(
      String algorithm,
      RuleInfo rule,
      Class<P> paramsType,
      Factory<P> factory,
      boolean scaleInvariant) {
    this.algorithm = algorithm;
    this.rule = rule;
    this.paramsType = paramsType;
    this.factory = factory;
    this.scaleInvariant = scaleInvariant;
  }

  /**
   * The check of rule {@code rule} of the registry ({@code org.onlinekernels.rules.Rules#ALL}, by
   * its command-line name: {@code "adagrad"}, {@code "scinol2"}, ...): random draws of its
   * parameters as its {@link Subject} makes them, which {@code factory} receives as {@code params}
   * (the rule's parameter record, e.g. {@link ScInOLParams} for {@code scinol2}).
   *
   * <pre>{@code
   * KernelCheck.forRule("scinol2", ScInOLParams.class,
   *     (d, type, p) -> new MyScInOL2(d, type, p.epsilon())).run();
   * }</pre>
   *
   * Every rule has this entry, a new one too; the typed entries below ({@link #scInOL2}, ...) are
   * this call with the name and the record filled in.
   *
   * @throws IllegalArgumentException for a name not in the registry, a rule whose parameters are
   *     not a {@code params}, or a null factory
   */
  public static <P> KernelCheck<P> forRule(String rule, Class<P> params, Factory<P> factory) {
    return forRule(Subjects.rule(rule), params, factory);
  }

  /**
   * {@link #forRule(String, Class, Factory)} for any rule, in the registry or not (a rule of your
   * own or of a test, with its subject found by the kit's naming rule: {@link Subjects}).
   */
  public static <P> KernelCheck<P> forRule(RuleInfo rule, Class<P> params, Factory<P> factory) {
    if (factory == null) {
      throw new IllegalArgumentException("factory must not be null");
    }
    if (params == null) {
      throw new IllegalArgumentException("params must not be null (the rule's parameter record)");
    }
    Subject sample = Subjects.of(rule, 0, 1, ElementType.DOUBLE);
    Object p = sample.params();
    if (!params.isInstance(p)) {
      throw new IllegalArgumentException(
          "rule "
              + rule.name()
              + " takes "
              + p.getClass().getSimpleName()
              + ", not "
              + params.getSimpleName());
    }
    String label = sample.getClass().getSimpleName().replaceFirst("Subject$", "");
    return new KernelCheck<>(label, rule, params, factory, sample.scaleInvariant());
  }

  /**
   * AdaGrad (per-coordinate rate): random draws of {@code eta} or {@code alpha D_i}, {@code delta},
   * {@code Q0}, boxes. {@code forRule("adagrad", AdaGradParams.class, factory)}.
   */
  public static KernelCheck<AdaGradParams> adaGrad(Factory<AdaGradParams> factory) {
    return forRule("adagrad", AdaGradParams.class, factory);
  }

  /**
   * AdaGrad with the global rate. {@code forRule("adagrad-global", GlobalAdaGradParams.class,
   * factory)}.
   */
  public static KernelCheck<GlobalAdaGradParams> globalAdaGrad(
      Factory<GlobalAdaGradParams> factory) {
    return forRule("adagrad-global", GlobalAdaGradParams.class, factory);
  }

  /**
   * Adaptive OGD, per-coordinate form. {@code forRule("aogd-coord", AdaptiveOgdParams.class,
   * factory)}.
   */
  public static KernelCheck<AdaptiveOgdParams> adaptiveOgdCoordinate(
      Factory<AdaptiveOgdParams> factory) {
    return forRule("aogd-coord", AdaptiveOgdParams.class, factory);
  }

  /** Adaptive OGD, L2-ball form. {@code forRule("aogd-ball", AdaptiveOgdParams.class, factory)}. */
  public static KernelCheck<AdaptiveOgdParams> adaptiveOgdBall(Factory<AdaptiveOgdParams> factory) {
    return forRule("aogd-ball", AdaptiveOgdParams.class, factory);
  }

  /** ScInOL1: random {@code epsilon}. {@code forRule("scinol1", ScInOLParams.class, factory)}. */
  public static KernelCheck<ScInOLParams> scInOL1(Factory<ScInOLParams> factory) {
    return forRule("scinol1", ScInOLParams.class, factory);
  }

  /** ScInOL2: random {@code epsilon}. {@code forRule("scinol2", ScInOLParams.class, factory)}. */
  public static KernelCheck<ScInOLParams> scInOL2(Factory<ScInOLParams> factory) {
    return forRule("scinol2", ScInOLParams.class, factory);
  }

  /**
   * DFEG: random {@code a}, {@code L}, {@code delta}; gradients within {@code L}. {@code
   * forRule("dfeg", DfegParams.class, factory)}.
   */
  public static KernelCheck<DfegParams> dfeg(Factory<DfegParams> factory) {
    return forRule("dfeg", DfegParams.class, factory);
  }

  /**
   * FTRL-Proximal: random {@code alpha}, {@code beta}, {@code lambda1}, {@code lambda2}. {@code
   * forRule("ftrl", FtrlParams.class, factory)}.
   */
  public static KernelCheck<FtrlParams> ftrl(Factory<FtrlParams> factory) {
    return forRule("ftrl", FtrlParams.class, factory);
  }

  /**
   * KT coin betting: random {@code epsilon} and {@code Lg}; the wealth saturates at the element
   * type's cap. {@code forRule("kt", KtParams.class, factory)}.
   */
  public static KernelCheck<KtParams> kt(Factory<KtParams> factory) {
    return forRule("kt", KtParams.class, factory);
  }

  /**
   * FreeGrad: random {@code epsilon}; the exponent saturates at the element type's cap. {@code
   * forRule("freegrad", FreeGradParams.class, factory)}.
   */
  public static KernelCheck<FreeGradParams> freeGrad(Factory<FreeGradParams> factory) {
    return forRule("freegrad", FreeGradParams.class, factory);
  }

  /**
   * Runs every trial with these parameters instead of random draws (for an implementation with
   * fixed constants). Per-coordinate arrays in them (boxes, radii) would fix the dimension, so use
   * scalar parameters.
   */
  public KernelCheck<P> withParams(P params) {
    this.fixed = params;
    return this;
  }

  /** The element types the implementation supports (default both). */
  public KernelCheck<P> types(ElementType... supported) {
    if (supported.length == 0) {
      throw new IllegalArgumentException("at least one element type");
    }
    this.types = EnumSet.of(supported[0], supported);
    return this;
  }

  /** The implementation reads only sparse rows: no dense input, and no dense == sparse property. */
  public KernelCheck<P> sparseOnly() {
    this.dense = false;
    this.sparse = true;
    return this;
  }

  /** The implementation reads only dense rows: no sparse input, and no dense == sparse property. */
  public KernelCheck<P> denseOnly() {
    this.dense = true;
    this.sparse = false;
    return this;
  }

  /** Random trials per {@link #run()} (default: {@code jqwik.tries.default}, else 200). */
  public KernelCheck<P> tries(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("tries must be >= 1: " + n);
    }
    this.tries = n;
    return this;
  }

  /**
   * The seed of {@link #run()} (default: the system property {@code onlinekernels.testkit.seed},
   * else random).
   */
  public KernelCheck<P> seed(long s) {
    this.seed = s;
    return this;
  }

  /** The properties this check runs. */
  public List<Property> properties() {
    List<Property> p = new ArrayList<>(List.of(Property.SINGLE_STEP, Property.TRAJECTORY));
    if (dense && sparse) {
      p.add(Property.DENSE_EQUALS_SPARSE);
    }
    if (scaleInvariant) {
      p.add(Property.SCALE_INVARIANCE);
    }
    return p;
  }

  /**
   * The trials, as a jqwik arbitrary (shrinking towards small dimensions, few rounds, early
   * properties).
   */
  public Arbitrary<Trial> trials() {
    Arbitrary<Case> cases =
        Cases.all(Arbitraries.of(types), Arbitraries.integers().between(1, 300));
    return Combinators.combine(Arbitraries.of(properties()), cases).as(this::trial);
  }

  private Trial trial(Property p, Case c) {
    boolean s = dense && sparse ? c.sparse() : sparse;
    int rounds = p == Property.SINGLE_STEP ? 1 : c.rounds();
    return new Trial(
        p,
        new Case(
            c.d(),
            c.type(),
            s,
            c.heap(),
            c.byteOffset(),
            c.density(),
            c.scaleLo(),
            c.scaleHi(),
            rounds,
            c.warmup(),
            c.seed()));
  }

  /**
   * Checks one trial; throws the property's {@link AssertionError} (or the implementation's
   * exception) if it fails.
   */
  public void check(Trial t) {
    Case c = t.c();
    Subject s =
        fixed == null
            ? Subjects.of(rule, c.seed(), c.d(), c.type())
            : Subjects.withParams(rule, fixed, c.d(), c.type());
    P params = paramsType.cast(s.params());
    LearnerFactory f = (d, type) -> factory.create(d, type, params);
    switch (t.property()) {
      case SINGLE_STEP, TRAJECTORY -> Agreement.learnerVsReference(s, c, f, null);
      case DENSE_EQUALS_SPARSE ->
          Agreement.learnerVsLearner(s, c.withSparse(false), f, c.withSparse(true), f, false);
      case SCALE_INVARIANCE -> Agreement.scaleInvariance(s, c, f);
    }
  }

  /**
   * Runs {@link #tries(int)} random trials; on the first failure shrinks it and throws a {@link
   * CheckFailure} with the shrunk trial, the original one and the seed.
   */
  public void run() {
    long s =
        seed != null ? seed : Long.getLong("onlinekernels.testkit.seed", new Random().nextLong());
    new TrialRunner(algorithm, this::check).run(trials(), tries, s);
  }
}
