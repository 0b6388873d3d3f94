package org.onlinekernels.testsupport;

import java.util.function.BiPredicate;

/**
 * Coverage checks that a correct generator passes whatever the seed and the number of tries.
 *
 * <p>A property that counts how often its generator reaches a category (jqwik's {@code
 * Statistics.collect}) and then demands a fixed share of the tries ("at least 10 %") fails by
 * chance whenever the draw falls short: the count of tries that reach a category is binomial, and a
 * share near the threshold, or few tries, fails often. A count made with {@link #share} instead
 * accepts every count at or above the least count {@code k} for which {@code P(Bin(n, p) < k) <=}
 * {@value #CHANCE}, where {@code n} is the run's own number of tries (jqwik passes it) and {@code
 * p} the least share the generator is built to reach. So a generator that reaches the category in
 * at least a share {@code p} of its tries, independently from try to try, fails the check with
 * probability at most {@value #CHANCE} per run, at any number of tries; a generator that stopped
 * reaching it fails as soon as the tries make {@code k} at least one. At few tries the least count
 * may be 0: the check then demands nothing of that run (the long campaign's tries check it).
 *
 * <pre>{@code
 * Statistics.label("cut")
 *     .coverage(c -> c.check(Cut.NONE).count(Coverage.share(0.25)));
 * }</pre>
 *
 * <p>{@code p} is a property of the generator: the weight of a choice among its weights (an enum
 * drawn uniformly from {@code m} values: {@code 1/m}), less what jqwik's edge cases may take from
 * it ({@link #withEdgeCases}) unless the arbitrary has none; or for an outcome of the code under
 * test, a lower bound measured over many tries (say in the property how it was measured).
 */
public final class Coverage {
  /** The largest probability with which a generator of the stated share fails a check. */
  public static final double CHANCE = 1e-6;

  private Coverage() {}

  /**
   * A count check ({@code CoverageChecker.count(BiPredicate)}, given the category's count and all
   * tries) that accepts a count at or above {@link #leastCount leastCount(tries, p)}.
   *
   * @param p the least share of tries in which the generator reaches the category, in (0, 1]
   * @throws IllegalArgumentException if {@code p} is not in (0, 1]
   */
  public static BiPredicate<Integer, Integer> share(double p) {
    checkShare(p);
    return (count, all) -> count >= leastCount(all, p);
  }

  /**
   * The least count {@code k} of a category in {@code tries} independent tries, each reaching it
   * with probability {@code p}, such that {@code P(count < k) <=} {@value #CHANCE}: the binomial
   * law's lower tail, summed exactly (in log space, term by term) until it passes the chance.
   *
   * @param tries the number of tries, at least 0
   * @param p the probability of the category per try, in (0, 1]
   * @return {@code k}, from 0 to {@code tries}
   * @throws IllegalArgumentException if {@code tries < 0} or {@code p} is not in (0, 1]
   */
  public static int leastCount(int tries, double p) {
    checkShare(p);
    if (tries < 0) {
      throw new IllegalArgumentException("tries must be at least 0, got " + tries);
    }
    if (p == 1) {
      return tries;
    }
    double logPmf = tries * Math.log1p(-p); // log P(count = 0)
    double logOdds = Math.log(p) - Math.log1p(-p);
    double below = 0; // P(count <= k)
    for (int k = 0; k <= tries; k++) {
      if (k > 0) {
        logPmf += Math.log((double) (tries - k + 1) / k) + logOdds;
      }
      below += Math.exp(logPmf);
      if (below > CHANCE) {
        return k; // P(count < k) = P(count <= k - 1) <= CHANCE, and k + 1 would pass it
      }
    }
    return tries;
  }

  /**
   * The least share of tries in which a value that the generator draws with probability {@code p}
   * is drawn when jqwik mixes in edge cases, which may all miss it: jqwik 1.9 generates an edge
   * case instead of a random value in one try out of {@code ratio + 1}, and an arbitrary's own
   * generator injects its edge cases in one out of {@code ratio}, with {@code ratio} at least 5
   * (EdgeCasesGenerator.calculateBaseToEdgeCaseRatio), so at least {@code 5/6 * 4/5 * p = 2p/3}. An
   * arbitrary made {@code withoutEdgeCases()} keeps its {@code p}.
   *
   * @param p the probability of the value in a random draw, in (0, 1]
   * @return {@code 2p/3}
   */
  public static double withEdgeCases(double p) {
    checkShare(p);
    return p * 2 / 3;
  }

  private static void checkShare(double p) {
    if (!(p > 0 && p <= 1)) {
      throw new IllegalArgumentException("a share must be in (0, 1], got " + p);
    }
  }
}
