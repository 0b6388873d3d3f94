package org.onlinekernels.plain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.KtParams;
import org.onlinekernels.rules.kt.KtOptimizer;
import org.onlinekernels.testkit.CheckFailure;
import org.onlinekernels.testkit.KernelCheck;
import org.onlinekernels.testkit.OptimizerLearner;

/**
 * {@link KernelCheck#forRule}, the registry-driven entry: a typed entry is the same check (the same
 * trials, so the same counterexample for the same seed), and a name or a parameter record that does
 * not fit is refused with what would.
 */
class KernelCheckForRuleTest {
  /** The library's KT with the gradient's sign flipped: fails every property. */
  private static final KernelCheck.Factory<KtParams> BROKEN_KT =
      (d, type, p) ->
          new OptimizerLearner(new KtOptimizer(d, type, p)) {
            @Override
            public void update(double g) {
              super.update(-g);
            }
          };

  @Test
  void aTypedEntryIsTheGenericCheck() {
    CheckFailure typed =
        assertThrows(CheckFailure.class, () -> KernelCheck.kt(BROKEN_KT).seed(5).tries(30).run());
    CheckFailure generic =
        assertThrows(
            CheckFailure.class,
            () -> KernelCheck.forRule("kt", KtParams.class, BROKEN_KT).seed(5).tries(30).run());
    assertEquals(typed.counterexample(), generic.counterexample());
    assertEquals(typed.getMessage(), generic.getMessage());
  }

  @Test
  void aNameOutsideTheRegistryIsRefusedWithTheRegistrysNames() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> KernelCheck.forRule("kt2", KtParams.class, BROKEN_KT));
    assertTrue(
        e.getMessage().contains("no rule kt2") && e.getMessage().contains("scinol2"),
        e.getMessage());
  }

  @Test
  void aRecordThatIsNotTheRulesIsRefusedNamingTheRulesRecord() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> KernelCheck.forRule("kt", AdaGradParams.class, (d, type, p) -> null));
    assertTrue(
        e.getMessage().contains("KtParams") && e.getMessage().contains("AdaGradParams"),
        e.getMessage());
  }
}
