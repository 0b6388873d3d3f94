package org.onlinekernels.merge;

import java.lang.foreign.ValueLayout;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.reference.ReferenceModel;
import org.onlinekernels.rules.Rules;

/**
 * A rule of the registry ({@link Rules#ALL}) as the merge suites run it, in its element type or,
 * for a rule with a mixed form, in mixed precision: the optimizer (from the registry's factory,
 * with small boxes and radii where the rule has them so that clamps and the ball projection take
 * part), the reference learner loaded with an optimizer's state, the reference merge, and the
 * reference state under the optimizer's names. Nothing here names a rule but {@link #SMALL}: a new
 * rule is merged with its default parameters.
 *
 * @param info the rule: one of {@link Rules#ALL}, or a test's own ({@code AddedRuleMergeTest})
 * @param mixed whether the optimizer runs in {@link Precision#MIXED}
 */
record MergeAlgorithm(RuleInfo info, boolean mixed) {
  /** Parameters (as on the command line) that bring a rule's box or ball into play. */
  private static final Map<String, Map<String, Double>> SMALL =
      Map.of(
          "adagrad", Map.of("eta", 0.7, "R", 0.5, "q0", 0.25),
          "adagrad-global", Map.of("R", 1.0),
          "aogd-ball", Map.of("R", 0.8),
          "aogd-coord", Map.of("R", 0.3),
          "ftrl", Map.of("alpha", 0.5, "beta", 1.0, "l1", 0.01, "l2", 0.1));

  /**
   * Scalars a merge recomputes by a reduction (DFEG's {@code ||theta||^2}): compared within a
   * reduction's bound, not bit for bit.
   */
  static final Set<String> REDUCED_SCALARS = Set.of("thetaNormSquared");

  /** Every rule of the registry, and the mixed form of each rule that has one. */
  static List<MergeAlgorithm> all() {
    List<MergeAlgorithm> all = new ArrayList<>();
    for (RuleInfo r : Rules.ALL) {
      all.add(new MergeAlgorithm(r, false));
      if (r.mixed()) {
        all.add(new MergeAlgorithm(r, true));
      }
    }
    return all;
  }

  /** {@link #all()} for jqwik's {@code @Provide}. */
  static Arbitrary<MergeAlgorithm> arbitrary() {
    return Arbitraries.of(all());
  }

  /** Rule {@code rule} of {@link Rules#ALL} in its element type. */
  static MergeAlgorithm of(String rule) {
    RuleInfo info = Rules.find(rule);
    if (info == null) {
      throw new IllegalArgumentException(rule + " is not in Rules.ALL");
    }
    return new MergeAlgorithm(info, false);
  }

  /** The rule's name. */
  String rule() {
    return info.name();
  }

  @Override
  public String toString() {
    return rule() + (mixed ? " mixed" : "");
  }

  /** The element type a case runs: float state and input under mixed precision. */
  ElementType elementType(ElementType type) {
    return mixed ? ElementType.FLOAT : type;
  }

  AbstractOptimizer create(int d, ElementType type) {
    return info.factory()
        .create(
            d,
            mixed ? Precision.MIXED : Precision.of(type),
            StateLayout.PLANAR,
            null,
            null,
            new RuleInfo.Params(SMALL.getOrDefault(rule(), Map.of())));
  }

  /** The reference learner of this algorithm holding {@code o}'s state (its values, widened). */
  ReferenceModel reference(AbstractOptimizer o) {
    ReferenceModel r = newReference(o);
    Map<String, double[]> s = state(o);
    Map<String, Double> sc = o.scalarState();
    r.buffers()
        .forEach(
            (name, into) -> {
              double[] from = s.get(name);
              if (from == null) {
                throw new AssertionError(rule() + ": the optimizer has no buffer " + name);
              }
              System.arraycopy(from, 0, into, 0, from.length);
            });
    for (String name : r.scalars().keySet()) {
      Double v = sc.get(name);
      if (v == null) {
        throw new AssertionError(rule() + ": the optimizer has no scalar " + name);
      }
      r.setScalar(name, v);
    }
    return r;
  }

  /**
   * The reference of {@code o}'s rule with {@code o}'s parameters, found by the rules' convention:
   * {@code Reference<Rule>} beside {@code <Rule>Optimizer}, with a constructor {@code (int d,
   * params)} taking what {@code o.params()} returns.
   */
  static ReferenceModel newReference(AbstractOptimizer o) {
    Class<?> c = o.getClass();
    String name =
        c.getPackageName() + ".Reference" + c.getSimpleName().replaceFirst("Optimizer$", "");
    try {
      Object params = c.getMethod("params").invoke(o);
      for (Constructor<?> k : Class.forName(name).getConstructors()) {
        Class<?>[] p = k.getParameterTypes();
        if (p.length == 2 && p[0] == int.class && p[1].isInstance(params)) {
          return (ReferenceModel) k.newInstance(o.dimension(), params);
        }
      }
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(
          c.getSimpleName() + ": no reference " + name + "(int, params) (docs/ADDING_A_RULE.md)",
          e instanceof InvocationTargetException t ? t.getCause() : e);
    }
    throw new AssertionError(
        c.getSimpleName() + ": no constructor " + name + "(int, params) (docs/ADDING_A_RULE.md)");
  }

  /** The reference merge of {@code learners} into {@code start}. */
  static void referenceMerge(ReferenceModel start, List<ReferenceModel> learners) {
    start.mergeLearners(learners);
  }

  /**
   * The reference learner's merged state under the optimizer's buffer and scalar names (a scalar as
   * an array of one), but {@link #REDUCED_SCALARS}.
   */
  static Map<String, double[]> referenceState(ReferenceModel ref) {
    Map<String, double[]> m = new LinkedHashMap<>(ref.buffers());
    ref.scalars()
        .forEach(
            (name, v) -> {
              if (!REDUCED_SCALARS.contains(name)) {
                m.put(name, new double[] {v});
              }
            });
    return m;
  }

  /** Every state buffer of {@code o} as doubles (widened exactly), by name. */
  static Map<String, double[]> state(AbstractOptimizer o) {
    Map<String, double[]> m = new LinkedHashMap<>();
    int d = o.dimension();
    o.state()
        .forEach(
            (name, seg) -> {
              double[] v = new double[d];
              boolean f = o.stateType(name) == ElementType.FLOAT;
              for (int i = 0; i < d; i++) {
                v[i] =
                    f
                        ? seg.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i)
                        : seg.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
              }
              m.put(name, v);
            });
    return m;
  }

  /** Every buffer and scalar of {@code o} as raw bits, for bit-for-bit comparison. */
  static Map<String, List<Long>> bits(AbstractOptimizer o) {
    Map<String, List<Long>> m = new LinkedHashMap<>();
    state(o)
        .forEach(
            (k, v) ->
                m.put(
                    k, java.util.Arrays.stream(v).mapToObj(Double::doubleToRawLongBits).toList()));
    new java.util.TreeMap<>(o.scalarState())
        .forEach((k, v) -> m.put("scalar " + k, List.of(Double.doubleToRawLongBits(v))));
    return m;
  }
}
