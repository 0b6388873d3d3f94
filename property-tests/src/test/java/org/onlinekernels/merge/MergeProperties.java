package org.onlinekernels.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.reference.ReferenceModel;
import org.onlinekernels.rules.adagrad.AdaGradOptimizer;

/**
 * The merge rules of docs/MERGING.md on every optimizer: merging one learner gives that learner;
 * the result is bit for bit the same in any order of the learners; learners that saw nothing change
 * nothing; and the optimizer's merge equals the reference merge fed the same states (bit for bit
 * after rounding to the element type; DFEG's recomputed norm within a reduction's bound).
 *
 * <p>Each case is a {@link MergeScenario}.
 */
class MergeProperties {

  @Property
  void mergingOneLearnerIsTheIdentity(
      @ForAll("algorithms") MergeAlgorithm algo,
      @ForAll ElementType type,
      @ForAll @IntRange(min = 1, max = 40) int d,
      @ForAll long seed) {
    try (MergeScenario s = new MergeScenario(algo, type, d, seed, 1)) {
      s.start.merge(s.learners);
      assertEquals(MergeAlgorithm.bits(s.learners.get(0)), MergeAlgorithm.bits(s.start));
    }
  }

  @Property
  void orderOfTheLearnersDoesNotMatter(
      @ForAll("algorithms") MergeAlgorithm algo,
      @ForAll ElementType type,
      @ForAll @IntRange(min = 1, max = 40) int d,
      @ForAll @IntRange(min = 2, max = 6) int k,
      @ForAll long seed) {
    try (MergeScenario s = new MergeScenario(algo, type, d, seed, k);
        AbstractOptimizer other = algo.create(d, type)) {
      other.copyStateFrom(s.start);
      List<AbstractOptimizer> shuffled = new ArrayList<>(s.learners);
      Collections.shuffle(shuffled, new Random(seed ^ 0x5DEECE66DL));
      s.start.merge(s.learners);
      other.merge(shuffled);
      assertEquals(MergeAlgorithm.bits(s.start), MergeAlgorithm.bits(other));
    }
  }

  @Property
  void learnersThatSawNothingChangeNothing(
      @ForAll("algorithms") MergeAlgorithm algo,
      @ForAll ElementType type,
      @ForAll @IntRange(min = 1, max = 40) int d,
      @ForAll @IntRange(min = 1, max = 4) int k,
      @ForAll long seed) {
    try (MergeScenario s = new MergeScenario(algo, type, d, seed, k);
        AbstractOptimizer withIdle = algo.create(d, type);
        AbstractOptimizer idle = algo.create(d, type);
        AbstractOptimizer onlyIdle = algo.create(d, type)) {
      withIdle.copyStateFrom(s.start);
      idle.copyStateFrom(s.start);
      onlyIdle.copyStateFrom(s.start);
      Map<String, List<Long>> before = MergeAlgorithm.bits(s.start);
      onlyIdle.merge(List.of(idle, idle));
      assertEquals(
          before, MergeAlgorithm.bits(onlyIdle), "merging idle learners changed the start");
      List<AbstractOptimizer> more = new ArrayList<>(s.learners);
      more.add(new Random(seed).nextInt(more.size() + 1), idle);
      more.add(0, idle);
      s.start.merge(s.learners);
      withIdle.merge(more);
      assertEquals(MergeAlgorithm.bits(s.start), MergeAlgorithm.bits(withIdle));
    }
  }

  @Property
  void optimizerMergeEqualsReferenceMerge(
      @ForAll("algorithms") MergeAlgorithm algo,
      @ForAll ElementType type,
      @ForAll @IntRange(min = 1, max = 40) int d,
      @ForAll @IntRange(min = 1, max = 6) int k,
      @ForAll long seed) {
    assertMergeEqualsReference(algo, type, d, k, seed);
  }

  /**
   * The merger visits coordinates in chunks of 512 positions (every variable's pass over a chunk
   * before the next): dimensions across several chunks, and ending inside one, merge as the
   * reference does.
   */
  @Property
  void optimizerMergeAcrossChunksEqualsReferenceMerge(
      @ForAll("algorithms") MergeAlgorithm algo,
      @ForAll ElementType type,
      @ForAll @IntRange(min = 513, max = 1800) int d,
      @ForAll @IntRange(min = 2, max = 4) int k,
      @ForAll long seed) {
    assertMergeEqualsReference(algo, type, d, k, seed);
  }

  /** The optimizer's merge against the reference's (also {@code AddedRuleMergeTest}'s). */
  static void assertMergeEqualsReference(
      MergeAlgorithm algo, ElementType type, int d, int k, long seed) {
    try (MergeScenario s = new MergeScenario(algo, type, d, seed, k)) {
      ReferenceModel refStart = algo.reference(s.start);
      List<ReferenceModel> refLearners = new ArrayList<>();
      for (AbstractOptimizer l : s.learners) {
        refLearners.add(algo.reference(l));
      }
      MergeAlgorithm.referenceMerge(refStart, refLearners);
      s.start.merge(s.learners);
      Map<String, double[]> got = MergeAlgorithm.state(s.start);
      Map<String, Double> scalars = s.start.scalarState();
      MergeAlgorithm.referenceState(refStart)
          .forEach(
              (name, want) -> {
                double[] have =
                    got.containsKey(name) ? got.get(name) : new double[] {scalars.get(name)};
                boolean f = got.containsKey(name) && s.start.stateType(name) == ElementType.FLOAT;
                for (int i = 0; i < want.length; i++) {
                  double w = f ? (float) want[i] : want[i];
                  assertEquals(
                      Double.doubleToRawLongBits(w),
                      Double.doubleToRawLongBits(have[i]),
                      () ->
                          name
                              + " differs from the reference: "
                              + java.util.Arrays.toString(have)
                              + " vs "
                              + java.util.Arrays.toString(want));
                }
              });
      for (String name : MergeAlgorithm.REDUCED_SCALARS) {
        if (!refStart.scalars().containsKey(name)) {
          continue;
        }
        // DFEG's ||theta||^2: the single contributor's running value, or recomputed from the
        // merged theta, by a kernel reduction of d nonnegative squares here and a sequential sum
        // in the reference; each is within (d + 1) u of the exact sum.
        double want = refStart.scalars().get(name);
        double u = type == ElementType.FLOAT ? 0x1p-24 : 0x1p-53;
        double norm = scalars.get(name);
        assertTrue(
            Math.abs(norm - want) <= 2 * (d + 1) * u * want,
            () -> name + " " + norm + " vs " + want);
      }
    }
  }

  @Provide
  Arbitrary<MergeAlgorithm> algorithms() {
    return MergeAlgorithm.arbitrary();
  }

  /**
   * Every rule of the registry is merged here, from the registry alone: its optimizer comes from
   * its factory, and its reference names the optimizer's buffers and some of its scalars (a counter
   * the math does not read, such as ScInOL2's {@code t}, has no twin there).
   */
  @Example
  void everyRuleOfTheRegistryIsMergedHere() {
    for (String rule : org.onlinekernels.rules.Rules.names()) {
      assertTrue(
          MergeAlgorithm.all().contains(MergeAlgorithm.of(rule)),
          rule + " of Rules.ALL has no merge case");
      try (AbstractOptimizer o = MergeAlgorithm.of(rule).create(3, ElementType.DOUBLE)) {
        ReferenceModel r = MergeAlgorithm.of(rule).reference(o);
        assertEquals(o.state().keySet(), r.buffers().keySet(), rule + ": buffers");
        assertTrue(
            o.scalarState().keySet().containsAll(r.scalars().keySet()),
            rule + ": scalars " + r.scalars().keySet() + " of " + o.scalarState().keySet());
      }
    }
  }

  @Example
  void mergeRefusesLearnersThatDoNotMatch() {
    try (AdaGradOptimizer a = new AdaGradOptimizer(4, ElementType.FLOAT, AdaGradParams.eta(1));
        AdaGradOptimizer otherEta =
            new AdaGradOptimizer(4, ElementType.FLOAT, AdaGradParams.eta(2));
        AdaGradOptimizer otherType =
            new AdaGradOptimizer(4, ElementType.DOUBLE, AdaGradParams.eta(1));
        AdaGradOptimizer otherD =
            new AdaGradOptimizer(5, ElementType.FLOAT, AdaGradParams.eta(1))) {
      assertThrows(IllegalArgumentException.class, () -> a.merge(List.of(otherEta)));
      assertThrows(IllegalArgumentException.class, () -> a.merge(List.of(otherType)));
      assertThrows(IllegalArgumentException.class, () -> a.merge(List.of(otherD)));
      assertThrows(IllegalArgumentException.class, () -> a.merge(List.of()));
      assertThrows(IllegalArgumentException.class, () -> a.copyStateFrom(otherEta));
    }
  }

  @Example
  void mergeRefusesALearnerFromAnotherThread() throws Exception {
    try (AdaGradOptimizer a = new AdaGradOptimizer(4, ElementType.FLOAT, AdaGradParams.eta(1))) {
      AdaGradOptimizer[] made = new AdaGradOptimizer[1];
      Thread t =
          new Thread(
              () -> made[0] = new AdaGradOptimizer(4, ElementType.FLOAT, AdaGradParams.eta(1)));
      t.start();
      t.join();
      assertThrows(WrongThreadException.class, () -> a.merge(List.of(made[0])));
    }
  }
}
