package org.onlinekernels.merge;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.rules.fixedgd.FixedRateGdOptimizer;

/**
 * The merge side of {@code AddedRuleTest}'s example rule: its optimizer's merge plan equals its
 * reference's merge, the reference found by the merge suites' naming rule ({@link
 * MergeAlgorithm#newReference}), as {@link MergeProperties} holds every rule of the registry.
 */
class AddedRuleMergeTest {
  @Property(tries = 15)
  void theAddedRulesMergeEqualsItsReferencesMerge(
      @ForAll ElementType type,
      @ForAll @IntRange(min = 1, max = 40) int d,
      @ForAll @IntRange(min = 1, max = 6) int k,
      @ForAll long seed) {
    MergeProperties.assertMergeEqualsReference(
        new MergeAlgorithm(FixedRateGdOptimizer.INFO, false), type, d, k, seed);
  }
}
