package org.onlinekernels.plain;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

  @Test
  void plainScInOL2PassesTheKit() {
    KernelCheck.scInOL2((d, type, p) -> new PlainScInOL2(d, type, p.epsilon(), PlainScInOL2.Bug.NONE)).run();
  }

  @ParameterizedTest
  @EnumSource(value = PlainScInOL2.Bug.class, names = "NONE", mode = EnumSource.Mode.EXCLUDE)
  void eachPlantedScInOL2BugFailsWithASmallCounterexample(PlainScInOL2.Bug bug) {
    CheckFailure f = assertThrows(CheckFailure.class,
        () -> KernelCheck.scInOL2((d, type, p) -> new PlainScInOL2(d, type, p.epsilon(), bug)).seed(15).run());
    Case c = f.counterexample().c();
    assertTrue(c.d() <= 2 && c.warmup() + c.rounds() <= 3, bug + ": counterexample not small: " + f.getMessage());
  }
}
