package org.onlinekernels.trainer.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * {@code --threads auto}'s rule (docs/parallel/README.md, "How many threads"): one thread for the
 * jobs measured slower on two, one per core for those measured faster, never more threads than
 * cores or than the work pays for, one for a stream, one where the workers would keep no private
 * hot records.
 */
class ThreadChoiceTest {
  private static final int NNZ = 40;

  private static int threads(int cores, long rows, int epochs, String rule) {
    return ThreadChoice.auto(cores, rows, rows * NNZ, epochs, 1, rule, true).threads();
  }

  @Test
  void jobsMeasuredSlowerOnTwoThreadsRunOnOne() {
    // ScInOL2, 1,000 to 200,000 rows of 40 nonzeros, 1 to 3 epochs: two threads at 0.45-0.87x.
    assertEquals(1, threads(2, 1_000, 1, "scinol2"));
    assertEquals(1, threads(2, 10_000, 1, "scinol2"));
    assertEquals(1, threads(2, 50_000, 2, "scinol2"));
    assertEquals(1, threads(2, 200_000, 2, "scinol2"));
    assertEquals(1, threads(2, 200_000, 3, "scinol2"));
    // AdaGrad: below 0.95x of one thread in some pairs at every size measured, up to 90 epochs
    // of 200,000 rows (docs/parallel/README.md): one thread at any size.
    assertEquals(1, threads(2, 200_000, 5, "adagrad"));
    assertEquals(1, threads(2, 200_000, 33, "adagrad"));
    assertEquals(1, threads(2, 200_000, 90, "adagrad"));
    assertEquals(1, threads(64, 100_000_000, 100, "adagrad"));
  }

  @Test
  void jobsUpToTwoMillionRowsStayOnOneThread() {
    // ScInOL2 at 1,000,000 and 2,000,000 rows (40 and 80 million visits): two threads at
    // 0.96-0.98x of one, single runs down to 0.83x, below the break-even of about 89 million.
    assertEquals(1, threads(2, 200_000, 5, "scinol2"));
    assertEquals(1, threads(2, 200_000, 10, "scinol2"));
    assertEquals(1, threads(2, 2_000_000, 1, "scinol2"));
    // The boundary: two threads from 100 million visits (50 million each), not one visit sooner.
    assertEquals(1, ThreadChoice.auto(2, 2_499_999, 99_999_999L, 1, 1, "scinol2", true).threads());
    assertEquals(2, ThreadChoice.auto(2, 2_500_000, 100_000_000L, 1, 1, "scinol2", true).threads());
    assertEquals(2, threads(2, 200_000, 13, "scinol2"));
  }

  @Test
  void outputsAndTheRulesCostScaleTheWork() {
    // Six one-vs-rest outputs do six times the work of one: 5 epochs of 100,000 rows of 40
    // nonzeros are 20 million visits, 120 million on six outputs.
    assertEquals(1, ThreadChoice.auto(2, 100_000, 100_000L * NNZ, 5, 1, "scinol2", true).threads());
    assertEquals(2, ThreadChoice.auto(2, 100_000, 100_000L * NNZ, 5, 6, "scinol2", true).threads());
  }

  @Test
  void aRuleASecondThreadWasNotMeasuredToSpeedUpTrainsOnOneThreadAndSaysSo() {
    for (String rule : new String[] {"adagrad", "kt", "no-such-rule-measured"}) {
      ThreadChoice c = ThreadChoice.auto(64, 100_000_000, 4_000_000_000L, 10, 1, rule, true);
      assertEquals(1, c.threads(), rule);
      assertTrue(
          c.reason()
              .startsWith(
                  "auto: 1 of 64 cores: 100000000 rows x 10 epoch(s), 40000.0 million nonzero"),
          c.reason());
      assertTrue(
          c.reason().contains("not measured faster than one for " + rule + " ("), c.reason());
    }
    assertEquals(
        64, ThreadChoice.auto(64, 100_000_000, 4_000_000_000L, 10, 1, "scinol2", true).threads());
  }

  @Test
  void neverMoreThreadsThanCoresOrThanTheWorkPaysFor() {
    assertEquals(1, threads(1, 10_000_000, 10, "scinol2"));
    // 10 epochs of 1,000,000 rows: 400 million visits, 8 threads of 50 million.
    assertEquals(8, threads(64, 1_000_000, 10, "scinol2"));
    assertEquals(1, threads(64, 200_000, 10, "scinol2"));
    int t = threads(64, 1_000_000, 10, "scinol2");
    assertTrue(1_000_000.0 * NNZ * 10 / t >= ThreadChoice.WORK_PER_THREAD);
    assertEquals(64, threads(64, 100_000_000, 10, "scinol2"));
    assertEquals(16, threads(16, 100_000_000, 10, "scinol2"));
    assertEquals(1, ThreadChoice.auto(8, 0, 0, 1, 1, "scinol2", true).threads());
  }

  @Test
  void withoutPrivateHotRecordsEveryJobTrainsOnOneThread() {
    // Main's shared state without private records: 0.59-0.63x of one thread over 2,000,000 rows
    // and below one thread in the steady state, so more rows only lose more.
    assertEquals(1, ThreadChoice.auto(2, 200_000, 8_000_000, 13, 1, "scinol2", false).threads());
    assertEquals(1, ThreadChoice.auto(2, 200_000, 8_000_000, 33, 1, "adagrad", false).threads());
    assertEquals(
        1, ThreadChoice.auto(64, 100_000_000, 4_000_000_000L, 10, 1, "scinol2", false).threads());
    ThreadChoice off = ThreadChoice.auto(2, 200_000, 8_000_000, 13, 1, "scinol2", false);
    assertTrue(off.reason().startsWith("auto: 1 of 2 cores: 200000 rows x 13"), off.reason());
    assertTrue(off.reason().contains("without private hot records"), off.reason());
    // With them, the same jobs on two threads.
    assertEquals(2, ThreadChoice.auto(2, 200_000, 8_000_000, 13, 1, "scinol2", true).threads());
  }

  @Test
  void scinol2AndAdagradKeepPrivateHotRecordsByDefault() {
    String before = System.getProperty(SharedStateTrainer.HOT_PROPERTY);
    System.clearProperty(SharedStateTrainer.HOT_PROPERTY);
    try {
      assertTrue(SharedStateTrainer.keepsHotRecords(config("scinol2"), 2));
      assertTrue(SharedStateTrainer.keepsHotRecords(config("adagrad"), 2));
      // Not measured with them, or not additive (ScInOL1's running minimum).
      assertFalse(SharedStateTrainer.keepsHotRecords(config("kt"), 2));
      assertFalse(SharedStateTrainer.keepsHotRecords(config("scinol1"), 2));
      assertFalse(SharedStateTrainer.keepsHotRecords(config("scinol2"), 1));
      System.setProperty(SharedStateTrainer.HOT_PROPERTY, "0");
      assertFalse(SharedStateTrainer.keepsHotRecords(config("scinol2"), 2));
    } finally {
      if (before == null) {
        System.clearProperty(SharedStateTrainer.HOT_PROPERTY);
      } else {
        System.setProperty(SharedStateTrainer.HOT_PROPERTY, before);
      }
    }
  }

  private static TrainerConfig config(String rule) {
    return TrainerConfig.of(AlgorithmSpec.of(rule));
  }

  @Test
  void saysWhatItPickedAndWhy() {
    ThreadChoice small = ThreadChoice.auto(2, 1_000, 40_000, 1, 1, "scinol2", true);
    assertTrue(
        small.reason().startsWith("auto: 1 of 2 cores: 1000 rows x 1 epoch(s), 0.0 million"),
        small.reason());
    ThreadChoice large = ThreadChoice.auto(2, 200_000, 8_000_000, 13, 1, "scinol2", true);
    assertTrue(large.reason().startsWith("auto: 2 thread(s), one per core"), large.reason());
    ThreadChoice stream = ThreadChoice.stream(2);
    assertEquals(1, stream.threads());
    assertTrue(stream.reason().contains("the input streams"), stream.reason());
    assertThrows(IllegalArgumentException.class, () -> ThreadChoice.auto(0, 1, 1, 1, 1, "x", true));
    assertThrows(IllegalArgumentException.class, () -> ThreadChoice.auto(2, 1, 1, 0, 1, "x", true));
  }
}
