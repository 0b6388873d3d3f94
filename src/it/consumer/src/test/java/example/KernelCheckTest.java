package example;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;
import org.onlinekernels.testkit.CheckFailure;
import org.onlinekernels.testkit.KernelCheck;
import org.onlinekernels.testkit.OptimizerLearner;

/** The installed test kit as a user's build sees it: a passing implementation and a broken one. */
class KernelCheckTest {
  @Test
  void theLibrarysScInOL2PassesOnThisMachinesKernels() {
    KernelCheck.scInOL2((d, type, p) -> new OptimizerLearner(new ScInOL2Optimizer(d, type, p))).tries(50).run();
  }

  @Test
  void aLearnerThatFlipsTheGradientFailsWithASmallCounterexample() {
    CheckFailure f = assertThrows(CheckFailure.class, () -> KernelCheck.scInOL2(
        (d, type, p) -> new OptimizerLearner(new ScInOL2Optimizer(d, type, p)) {
          @Override
          public void update(double g) {
            super.update(-g);
          }
        }).seed(3).tries(50).run());
    assertTrue(f.counterexample().c().d() <= 2, f.getMessage());
    assertTrue(f.getMessage().contains("seed 3"), f.getMessage());
  }
}
