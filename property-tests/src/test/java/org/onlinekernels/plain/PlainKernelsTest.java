package org.onlinekernels.plain;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.onlinekernels.testkit.Case;
import org.onlinekernels.testkit.CheckFailure;
import org.onlinekernels.testkit.KernelCheck;

/**
 * The test kit on plain-Java implementations written outside the library: the correct one passes
 * every property, and each planted mistake fails with a small shrunk counterexample.
 */
class PlainKernelsTest {
  private static final KernelCheck<?> PLAIN_SCINOL2 =
      KernelCheck.scInOL2(
          (d, type, p) -> new PlainScInOL2(d, type, p.epsilon(), PlainScInOL2.Bug.NONE));

  /**
   * The same check under jqwik's own runner: its tries ({@code jqwik.tries}), shrinking and
   * reports.
   */
  @Property
  void plainScInOL2UnderJqwik(@ForAll("plainTrials") KernelCheck.Trial t) {
    PLAIN_SCINOL2.check(t);
  }

  @Provide
  Arbitrary<KernelCheck.Trial> plainTrials() {
    return PLAIN_SCINOL2.trials();
  }

  @Test
  void plainScInOL2PassesTheKit() {
    PLAIN_SCINOL2.run();
  }

  @ParameterizedTest
  @EnumSource(value = PlainScInOL2.Bug.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
  void eachPlantedScInOL2BugFailsWithASmallCounterexample(PlainScInOL2.Bug bug) {
    CheckFailure f =
        assertThrows(
            CheckFailure.class,
            () ->
                KernelCheck.scInOL2((d, type, p) -> new PlainScInOL2(d, type, p.epsilon(), bug))
                    .seed(15)
                    .run());
    Case c = f.counterexample().c();
    // docs/TESTKIT.md: each fails "shrunk to d = 1 and at most three rounds".
    assertTrue(
        c.d() == 1 && c.warmup() + c.rounds() <= 3,
        bug + ": counterexample not shrunk to d = 1 and at most three rounds: " + f.getMessage());
  }
}
