package org.onlinekernels.trainer.handover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * A JVM's record of a configuration: a first tie is forgotten with the scalar time counted toward
 * it (the next race comes after as much work again), a second tie is the answer (no gain); a lost
 * race is forgotten the same way without counting as a tie. (Starts race threads: long stage.)
 */
@Tag("long")
class ConfigHistoryTest {
  @Test
  void aMissingConfigOrHistoryIsRefusedAndNoTimeBelowZeroCounts() {
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of("scinol2"));
    NullPointerException noHistory =
        assertThrows(NullPointerException.class, () -> KernelHandover.forConfig(c, null));
    assertEquals("history", noHistory.getMessage());
    NullPointerException noConfig =
        assertThrows(
            NullPointerException.class,
            () -> KernelHandover.forConfig(null, ConfigHistory.fresh()));
    assertEquals("config", noConfig.getMessage());
    ConfigHistory h = ConfigHistory.fresh();
    h.addScalarNanos(-5);
    h.addScalarNanos(0);
    assertEquals(0, h.scalarNanos());
    h.addScalarNanos(7);
    assertEquals(7, h.scalarNanos());
  }

  @Test
  void aSecondTieIsTheAnswerAFirstIsRacedAgain() {
    assumeTrue(KernelProvider.vectorModulePresent(), "races need the vector kernels");
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of("scinol2"));
    ConfigHistory h = ConfigHistory.fresh();
    h.addScalarNanos(6_000_000_000L);
    VectorWarmup first = recorded(h, c);
    h.raceTied(first);
    assertFalse(h.noGain(), "a first tie was taken as the answer");
    assertNull(h.race(), "a tied race stayed recorded");
    assertEquals(0, h.scalarNanos(), "the scalar time counted toward a tied race was kept");
    h.addScalarNanos(6_000_000_000L);
    VectorWarmup lost = recorded(h, c);
    h.raceLost(lost);
    assertFalse(h.noGain(), "a lost race counted as a tie");
    VectorWarmup second = recorded(h, c);
    h.raceTied(second);
    assertTrue(h.noGain(), "a second tie was not taken as the answer");
    assertFalse(h.warm());
  }

  /** Records and starts a race for {@code h} and stops it at once (only its record is tested). */
  private static VectorWarmup recorded(ConfigHistory h, TrainerConfig c) {
    VectorWarmup w = VectorWarmup.unstarted(c, 64, KernelProvider.vector());
    assertSame(w, h.race(w));
    w.stop();
    return w;
  }
}
