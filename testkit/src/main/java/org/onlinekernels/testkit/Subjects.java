package org.onlinekernels.testkit;

import java.util.List;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.rules.Rules;

/**
 * Every rule's {@link Subject}, by the rule's name in {@link Rules#ALL}: the one place the suites
 * look a rule up, so a suite that runs "every rule" runs exactly the registry's rules, and a rule
 * without a subject fails loudly instead of being left out.
 */
public final class Subjects {
  private Subjects() {}

  /** The rules' names, in {@link Rules#ALL}'s order. */
  public static List<String> names() {
    return Rules.names();
  }

  /**
   * The subject of rule {@code name} with the parameters case seed {@code seed} draws, for
   * dimension {@code d} and element type {@code t}.
   *
   * @throws IllegalArgumentException for a rule without a subject here
   */
  public static Subject of(String name, long seed, int d, ElementType t) {
    return switch (name) {
      case "adagrad" -> new AdaGradSubject(seed, d, t);
      case "adagrad-global" -> new GlobalAdaGradSubject(seed, d, t);
      case "aogd-ball" -> new AdaptiveOgdSubject(seed, d, t, true);
      case "aogd-coord" -> new AdaptiveOgdSubject(seed, d, t, false);
      case "scinol1" -> new ScInOL1Subject(seed, t);
      case "scinol2" -> new ScInOL2Subject(seed, t);
      case "dfeg" -> new DfegSubject(seed, t);
      case "ftrl" -> new FtrlSubject(seed, t);
      case "kt" -> new KtSubject(seed, t);
      case "freegrad" -> new FreeGradSubject(seed, t);
      default ->
          throw new IllegalArgumentException(
              "rule "
                  + name
                  + " of Rules.ALL has no test kit subject;"
                  + " add one to Subjects.of (docs/ADDING_A_RULE.md)");
    };
  }

  /**
   * {@link #of(String, long, int, ElementType)} with the case's seed, dimension and element type.
   */
  public static Subject of(String name, Case c) {
    return of(name, c.seed(), c.d(), c.type());
  }
}
