package org.onlinekernels.testkit;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.rules.Rules;

/**
 * Every rule's {@link Subject}, found from the registry ({@link Rules#ALL}) by one naming rule: the
 * subject of a rule whose factory makes a {@code <Rule>Optimizer} is the class {@code
 * org.onlinekernels.testkit.<Rule>Subject}, with a public constructor {@code (long seed)}, then
 * {@code int d} and {@code ElementType t} where its parameter draw needs them, in that order (and,
 * for {@link KernelCheck#withParams}, one that takes the parameters: {@code (P params)}, then
 * {@code int d} and {@code ElementType t} where its bounds need them). A rule needs nothing here:
 * its subject is found once and remembered. This is the one place the suites look a rule up, so a
 * suite that runs "every rule" runs exactly the registry's rules, and a rule without a subject
 * fails loudly, naming the class it looked for, instead of being left out.
 */
public final class Subjects {
  private static final Map<RuleInfo, SubjectClass> CLASSES = new ConcurrentHashMap<>();

  private Subjects() {}

  /** The rules' names, in {@link Rules#ALL}'s order. */
  public static List<String> names() {
    return Rules.names();
  }

  /**
   * The subject of rule {@code name} with the parameters case seed {@code seed} draws, for
   * dimension {@code d} and element type {@code t}.
   *
   * @throws IllegalArgumentException for a name not in {@link Rules#ALL}, or a rule without a
   *     subject (the message names the class looked for)
   */
  public static Subject of(String name, long seed, int d, ElementType t) {
    return of(rule(name), seed, d, t);
  }

  /**
   * {@link #of(String, long, int, ElementType)} with the case's seed, dimension and element type.
   */
  public static Subject of(String name, Case c) {
    return of(name, c.seed(), c.d(), c.type());
  }

  /**
   * The subject of {@code rule}, which need not be in {@link Rules#ALL} (a rule of your own, or of
   * a test), found by the same naming rule.
   *
   * @throws IllegalArgumentException for a rule without a subject (the message names the class
   *     looked for)
   */
  public static Subject of(RuleInfo rule, long seed, int d, ElementType t) {
    return subjectClass(rule).draw(seed, d, t);
  }

  /** The subject of {@code rule} with the given parameters, checked at {@code d} and {@code t}. */
  static Subject withParams(RuleInfo rule, Object params, int d, ElementType t) {
    return subjectClass(rule).withParams(params, d, t);
  }

  /** Rule {@code name} of {@link Rules#ALL}. */
  static RuleInfo rule(String name) {
    RuleInfo r = Rules.find(name);
    if (r == null) {
      throw new IllegalArgumentException(
          "no rule " + name + " in Rules.ALL; the rules are " + Rules.names());
    }
    return r;
  }

  private static SubjectClass subjectClass(RuleInfo rule) {
    if (rule == null) {
      throw new IllegalArgumentException("rule must not be null");
    }
    return CLASSES.computeIfAbsent(rule, SubjectClass::of);
  }
}
