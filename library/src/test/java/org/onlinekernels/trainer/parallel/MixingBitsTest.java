package org.onlinekernels.trainer.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.data.SyntheticScInOL;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * The deterministic mode's model and progressive metrics, bit for bit, against digests recorded
 * from main at 66a6faa (before the merger was kept across rounds): a change to how the merge is
 * prepared, ordered or split over the threads must not change a single bit of what a fit gives.
 * {@link ParallelMergeReplayTest} compares the parallel merge with the sequential one; this test
 * pins both to what they gave before.
 */
class MixingBitsTest {
  private static final SparseDataset TRAIN = SyntheticScInOL.generate(3000, 1);

  @ParameterizedTest
  @CsvSource({
    "scinol2, 2, 9ec1f1864fcddf7c",
    "scinol2, 3, 0ee8f473d5e09784",
    "adagrad, 2, ba2655aa12eb8c7d",
    "adagrad, 3, 1c8044c68f7f1d01",
    "aogd-ball, 2, 359dd3bb73016d6d",
  })
  void aFitGivesTheModelAndLossItGaveBefore(String algorithm, int threads, String want)
      throws NoSuchAlgorithmException {
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of(algorithm)).withEpochs(2);
    try (ParallelTrainer t =
        new ParallelTrainer(c, threads, 250, TRAIN.dimension(), false, 2, Datasets.maxNnz(TRAIN))) {
      Metrics[] progressive = t.fit(TRAIN);
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      for (double[] w : t.model().weights()) {
        ByteBuffer b = ByteBuffer.allocate(8 * w.length);
        for (double v : w) {
          b.putLong(Double.doubleToRawLongBits(v));
        }
        md.update(b.array());
      }
      md.update(List.of(progressive).toString().getBytes(StandardCharsets.UTF_8));
      String got = HexFormat.of().formatHex(md.digest()).substring(0, 16);
      assertEquals(want, got, algorithm + " T=" + threads + ": model and progressive metrics");
    }
  }
}
