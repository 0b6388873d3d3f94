package org.onlinekernels.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.parallel.MergeSummary;
import org.onlinekernels.rules.aogd.AdaptiveOgdBallOptimizer;

/**
 * {@link MergeSummary}, the merge held as sums and counts so that groups of learners combine two at
 * a time (the Spark job's tree): the summary of all learners is the optimizer's merge bit for bit;
 * any tree of group summaries is the merge with its sums taken in another order, within the
 * rounding bound of those sums (derived below); two learners give the merge's bits for the rules
 * without SUM; a single learner that differs from the start is copied exactly; a summary of another
 * start is refused. Each case is a {@link MergeScenario}.
 */
class MergeSummaryProperties {
  private static final double U = 0x1p-53;

  /** The algorithms whose plan has no SUM buffer or scalar (docs/MERGING.md, "Per algorithm"). */
  private static final Set<String> NO_SUM = Set.of("scinol1", "scinol2", "dfeg");

  @Provide
  Arbitrary<MergeAlgorithm> algorithms() {
    return MergeAlgorithm.arbitrary();
  }

  @Property
  void theSummaryOfAllLearnersIsTheMerge(
      @ForAll("algorithms") MergeAlgorithm algo,
      @ForAll ElementType type,
      @ForAll @IntRange(min = 1, max = 40) int d,
      @ForAll @IntRange(min = 1, max = 6) int k,
      @ForAll long seed) {
    try (MergeScenario s = new MergeScenario(algo, type, d, seed, k);
        AbstractOptimizer other = algo.create(d, type)) {
      other.copyStateFrom(s.start);
      List<AbstractOptimizer> shuffled = new ArrayList<>(s.learners);
      Collections.shuffle(shuffled, new Random(seed));
      MergeSummary.of(s.start, shuffled).mergeInto(other);
      s.start.merge(s.learners);
      assertEquals(MergeAlgorithm.bits(s.start), MergeAlgorithm.bits(other));
    }
  }

  @Property
  void twoLearnersGiveTheMergesBitsWithoutSum(
      @ForAll("algorithms") MergeAlgorithm algo,
      @ForAll ElementType type,
      @ForAll @IntRange(min = 1, max = 40) int d,
      @ForAll long seed) {
    if (!NO_SUM.contains(algo.rule())) {
      return;
    }
    try (MergeScenario s = new MergeScenario(algo, type, d, seed, 2);
        AbstractOptimizer ab = algo.create(d, type);
        AbstractOptimizer ba = algo.create(d, type)) {
      ab.copyStateFrom(s.start);
      ba.copyStateFrom(s.start);
      MergeSummary a = MergeSummary.of(s.start, List.of(s.learners.get(0)));
      MergeSummary b = MergeSummary.of(s.start, List.of(s.learners.get(1)));
      a.then(b).mergeInto(ab);
      b.then(a).mergeInto(ba);
      s.start.merge(s.learners);
      assertEquals(MergeAlgorithm.bits(s.start), MergeAlgorithm.bits(ab));
      assertEquals(MergeAlgorithm.bits(s.start), MergeAlgorithm.bits(ba));
    }
  }

  @Property
  void aSingleContributorInATreeIsCopied(
      @ForAll("algorithms") MergeAlgorithm algo,
      @ForAll ElementType type,
      @ForAll @IntRange(min = 1, max = 40) int d,
      @ForAll @IntRange(min = 1, max = 5) int idle,
      @ForAll long seed) {
    try (MergeScenario s = new MergeScenario(algo, type, d, seed, 1);
        AbstractOptimizer other = algo.create(d, type)) {
      other.copyStateFrom(s.start);
      List<AbstractOptimizer> all = new ArrayList<>();
      List<AbstractOptimizer> made = new ArrayList<>();
      for (int j = 0; j < idle; j++) {
        AbstractOptimizer o = algo.create(d, type);
        o.copyStateFrom(s.start);
        made.add(o);
      }
      all.addAll(made);
      all.add(new Random(seed).nextInt(all.size() + 1), s.learners.get(0));
      tree(s.start, all, new Random(seed ^ 7)).mergeInto(other);
      s.start.merge(all);
      assertEquals(MergeAlgorithm.bits(s.start), MergeAlgorithm.bits(other));
      made.forEach(AbstractOptimizer::close);
    }
  }

  /**
   * The bound: the tree and the merge evaluate the same expression per element, with the same
   * terms, in two orders. A sum of at most {@code K + 1} double terms is within {@code K u
   * sum|terms|} of the exact one, and each formula adds at most two roundings of its value ({@code
   * u = 2^-53}); the terms are bounded by {@code S = |x0| + sum_j (|c_j - x0| + |c_j|)} (SUM and
   * AVERAGE add increments {@code c_j - x0}; MEAN's weighted mean lies within the contributors'
   * weights {@code c_j}), so each result is within {@code 2 (K + 1) u S} of the exact value, the
   * two within twice that, and rounding each to the element type can add one unit in the last
   * place. The ball projection (Adaptive OGD, radius {@code R}) scales every weight by {@code R /
   * ||w||}, whose relative difference is at most {@code sum_i delta_i / R} (the norm is at least
   * {@code R} when it scales) plus the rounding of a norm of {@code d} squares, {@code 2 (d + 3)
   * u}. DFEG's {@code ||theta||^2} is recomputed from the merged {@code theta}: the exact sums of
   * squares differ by at most {@code sum_i |a_i - b_i| (|a_i| + |b_i|)} for the two merged {@code
   * theta}, and each reduction is within {@code 2 (d + 1) u} relative of its exact sum.
   */
  @Property
  void aTreeOfSummariesIsTheMergeWithinTheRoundingOfItsSums(
      @ForAll("algorithms") MergeAlgorithm algo,
      @ForAll ElementType type,
      @ForAll @IntRange(min = 1, max = 40) int d,
      @ForAll @IntRange(min = 2, max = 8) int k,
      @ForAll long seed) {
    try (MergeScenario s = new MergeScenario(algo, type, d, seed, k);
        AbstractOptimizer other = algo.create(d, type)) {
      other.copyStateFrom(s.start);
      Map<String, double[]> x0 = withScalars(s.start);
      List<Map<String, double[]>> xs = new ArrayList<>();
      for (AbstractOptimizer l : s.learners) {
        xs.add(withScalars(l));
      }
      List<AbstractOptimizer> shuffled = new ArrayList<>(s.learners);
      Collections.shuffle(shuffled, new Random(seed));
      tree(s.start, shuffled, new Random(seed ^ 7)).mergeInto(other);
      s.start.merge(s.learners);
      Map<String, double[]> want = withScalars(s.start);
      Map<String, double[]> got = withScalars(other);
      double ball = other instanceof AdaptiveOgdBallOptimizer b ? b.params().radius() : Double.NaN;
      Map<String, double[]> deltas = new java.util.LinkedHashMap<>();
      want.forEach(
          (name, a) -> {
            if (name.equals("thetaNormSquared")) {
              return;
            }
            double[] delta = new double[a.length];
            for (int i = 0; i < a.length; i++) {
              double sum = Math.abs(x0.get(name)[i]);
              for (Map<String, double[]> x : xs) {
                sum += Math.abs(x.get(name)[i] - x0.get(name)[i]) + Math.abs(x.get(name)[i]);
              }
              delta[i] = 4 * (k + 1) * U * sum;
            }
            deltas.put(name, delta);
          });
      want.forEach(
          (name, a) -> {
            double[] b = got.get(name);
            boolean f =
                type == ElementType.FLOAT
                    && !name.equals("thetaNormSquared")
                    && a.length == d
                    && other.state().containsKey(name)
                    && other.stateType(name) == ElementType.FLOAT;
            for (int i = 0; i < a.length; i++) {
              double bound;
              if (name.equals("thetaNormSquared")) {
                double[] ta = want.get("theta");
                double[] tb = got.get("theta");
                double cross = 0;
                for (int j = 0; j < ta.length; j++) {
                  cross += Math.abs(ta[j] - tb[j]) * (Math.abs(ta[j]) + Math.abs(tb[j]));
                }
                bound = cross + 4 * (d + 1) * U * (a[i] + b[i]);
              } else {
                double delta = deltas.get(name)[i];
                if (name.equals("w") && ball == ball) {
                  double total = 0;
                  for (double x : deltas.get("w")) {
                    total += x;
                  }
                  delta += Math.abs(a[i]) * (total / ball + 2 * (d + 3) * U) * 2;
                }
                bound = delta + ulp(Math.max(Math.abs(a[i]), Math.abs(b[i])), f);
              }
              double diff = Math.abs(a[i] - b[i]);
              int at = i;
              double limit = bound;
              assertTrue(
                  diff <= limit,
                  () ->
                      name
                          + "["
                          + at
                          + "]: tree "
                          + b[at]
                          + ", merge "
                          + a[at]
                          + ", bound "
                          + limit);
            }
          });
    }
  }

  private static double ulp(double v, boolean isFloat) {
    return isFloat ? Math.ulp((float) v) : Math.ulp(v);
  }

  @Example
  void aSummaryOfAnotherStartIsRefused() {
    try (MergeScenario s =
            new MergeScenario(MergeAlgorithm.of("adagrad"), ElementType.FLOAT, 8, 3, 2);
        MergeScenario t =
            new MergeScenario(MergeAlgorithm.of("adagrad"), ElementType.FLOAT, 8, 4, 2)) {
      MergeSummary a = MergeSummary.of(s.start, s.learners);
      MergeSummary b = MergeSummary.of(t.start, t.learners);
      assertThrows(IllegalArgumentException.class, () -> a.mergeInto(t.start));
      assertThrows(IllegalArgumentException.class, () -> a.then(b));
      try (MergeScenario other =
          new MergeScenario(MergeAlgorithm.of("scinol2"), ElementType.FLOAT, 8, 3, 1)) {
        assertThrows(IllegalArgumentException.class, () -> a.mergeInto(other.start));
      }
      a.mergeInto(s.start);
    }
  }

  /** Every buffer and scalar of {@code o}, widened, by name (a scalar as one element). */
  private static Map<String, double[]> withScalars(AbstractOptimizer o) {
    Map<String, double[]> m = MergeAlgorithm.state(o);
    o.scalarState().forEach((name, v) -> m.put(name, new double[] {v}));
    return m;
  }

  /**
   * A random tree: the learners cut into random runs, each run summarized, then adjacent groups
   * combined two at a time in a random order until one is left.
   */
  private static MergeSummary tree(
      AbstractOptimizer start, List<AbstractOptimizer> learners, Random rnd) {
    List<MergeSummary> groups = new ArrayList<>();
    int from = 0;
    while (from < learners.size()) {
      int to = from + 1 + rnd.nextInt(Math.min(3, learners.size() - from));
      groups.add(MergeSummary.of(start, learners.subList(from, to)));
      from = to;
    }
    while (groups.size() > 1) {
      int i = rnd.nextInt(groups.size() - 1);
      groups.set(i, groups.get(i).then(groups.remove(i + 1)));
    }
    return groups.get(0);
  }
}
