package org.onlinekernels.trainer.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.data.SyntheticScInOL;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * The deterministic mode's merge is split over its threads by position in each round's list of
 * coordinates: every position of every merge is written by exactly one thread's share, none twice
 * and none skipped. (Writing a share twice leaves the same bits, so only the count can see it; a
 * skipped share also changes the model, which {@link ParallelMergeReplayTest} sees.)
 */
class MergeSharesTest {
  private static final SparseDataset TRAIN = SyntheticScInOL.generate(3000, 1);

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 4})
  void everyPositionOfEveryMergeIsWrittenByExactlyOneShare(int threads) {
    for (String algorithm : new String[] {"adagrad", "scinol2", "aogd-ball"}) {
      TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of(algorithm)).withEpochs(2);
      try (ParallelTrainer t =
          new ParallelTrainer(
              c, threads, 250, TRAIN.dimension(), false, 2, Datasets.maxNnz(TRAIN))) {
        t.fit(TRAIN);
        assertTrue(t.merges() >= 24, algorithm + ": " + t.merges() + " merges");
        assertTrue(t.positionsListed() >= t.merges(), algorithm + ": nothing listed");
        assertEquals(
            t.positionsListed(),
            t.positionsWritten(),
            algorithm + ", " + threads + " threads: positions listed against written");
      }
    }
  }
}
