package org.onlinekernels.merge;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.Datasets;

/**
 * The merge rules on real data: one pass split into K = 2, 4, 8 contiguous parts, each learned from
 * the initial state, merged once (docs/MERGING.md), against the sequential pass.
 *
 * <p>The margin. One round of parameter mixing averages K learners that each saw n/K examples: it
 * removes variance, not the bias of having seen n/K examples (Zinkevich et al. 2010), so the
 * sequential pass over n/K examples is what it can be expected to reach. Stated margin: the merged
 * model's test loss is at most the sequential pass's loss plus the gap between the sequential pass
 * over n/K and over n examples (the price of not communicating), plus 0.035 nats (5 % of the zero
 * model's {@code ln 2}) for the noise of one shuffle of the data: {@code L_merged(K) <= L_seq(n) +
 * max(0, L_seq(n/K) - L_seq(n)) + 0.035}.
 *
 * <p>A merge, not one learner. A "merge" that returned one of the K learners would score that
 * learner's loss, which the margin above lets through (it is the first learner's loss plus the
 * slack). So the merged weights must also differ from every single learner's by at least {@value
 * #MIN_DISTANCE} of that learner's weight norm (relative L2 distance). Measured here (FLOAT, K = 2,
 * 4, 8, every case below): the smallest such distance is 0.019 (ScInOL2 on shuttle, K = 4), most
 * are 0.2 to 1; a one-learner merge measures 0. {@link #aOneLearnerMergeFails} plants that fault.
 *
 * <p>Data: the largest data set of the repository (austen_lines, 12,549 sparse word counts) and
 * shuttle (9 raw features of very different scales), each as "class 0 against the rest". An
 * algorithm takes part where its sequential pass beats the zero model ({@code ln 2}) with its
 * default parameters: Adaptive OGD per coordinate (box radius 100) does not on either, nor does the
 * ball form on shuttle's unscaled features, nor KT (coins clipped at {@code Lg = 1}) on shuttle's,
 * so a margin there would measure nothing.
 *
 * <p>Not here, because they miss the margin (docs/MERGING.md, "Known gaps"): FTRL-Proximal on
 * shuttle and FreeGrad on both data sets, whose AVERAGE merge is not yet good enough.
 */
class SplitPassTest {
  private static final double SLACK = 0.035;

  /** Smallest relative L2 distance between the merged weights and any one learner's. */
  private static final double MIN_DISTANCE = 0.01;

  @ParameterizedTest(name = "{0} on {1}")
  @CsvSource({
    "adagrad, austen_lines",
    "adagrad-global, austen_lines",
    "aogd-ball, austen_lines",
    "scinol1, austen_lines",
    "scinol2, austen_lines",
    "dfeg, austen_lines",
    "ftrl, austen_lines",
    "kt, austen_lines",
    "adagrad, shuttle",
    "adagrad-global, shuttle",
    "scinol1, shuttle",
    "scinol2, shuttle",
    "dfeg, shuttle"
  })
  void splitPassPlusMergeIsWithinTheMarginOfTheSequentialPass(String algorithm, String data)
      throws IOException {
    SparseDataset train = binary(data + ".train.svm");
    SparseDataset test = binary(data + ".test.svm");
    AlgorithmSpec spec = AlgorithmSpec.of(algorithm);
    double sequential = SplitPass.testLoss(spec, train, test, 1);
    assertTrue(
        sequential < Math.log(2),
        algorithm + " no longer beats the zero model on " + data + ": " + sequential);
    for (int k : new int[] {2, 4, 8}) {
      SplitPass.Split split = SplitPass.split(spec, train, test, k, SplitPass.LIBRARY);
      assertDiffersFromEachLearner(split, algorithm + " on " + data + ", K = " + k);
      double merged = split.loss();
      double prefix = SplitPass.oneShardLoss(spec, train, test, k);
      double margin = Math.max(0, prefix - sequential) + SLACK;
      assertTrue(
          merged <= sequential + margin,
          String.format(
              Locale.ROOT,
              "%s on %s, K = %d: merged test loss %.4f, sequential %.4f, sequential over n/K %.4f: beyond the margin %.4f",
              algorithm,
              data,
              k,
              merged,
              sequential,
              prefix,
              margin));
    }
  }

  /** The planted fault: a "merge" that takes the state of the first learner only. */
  @Test
  void aOneLearnerMergeFails() throws IOException {
    SplitPass.Split planted =
        SplitPass.split(
            AlgorithmSpec.of("scinol2"),
            binary("shuttle.train.svm"),
            binary("shuttle.test.svm"),
            4,
            (start, learners) -> start.merge(List.of(learners.get(0))));
    AssertionError e =
        assertThrows(AssertionError.class, () -> assertDiffersFromEachLearner(planted, "planted"));
    assertTrue(e.getMessage().contains("learner 0"), e.getMessage());
  }

  private static void assertDiffersFromEachLearner(SplitPass.Split split, String what) {
    float[] m = split.merged();
    for (int j = 0; j < split.learners().size(); j++) {
      float[] l = split.learners().get(j);
      double diff = 0;
      double norm = 0;
      for (int i = 0; i < m.length; i++) {
        diff += ((double) m[i] - l[i]) * ((double) m[i] - l[i]);
        norm += (double) l[i] * l[i];
      }
      double distance = Math.sqrt(diff / norm);
      assertTrue(
          distance >= MIN_DISTANCE,
          String.format(
              Locale.ROOT,
              "%s: the merged weights are within %.4g (relative L2) of learner %d's: a merge returns"
                  + " a combination of the learners, not one of them",
              what,
              distance,
              j));
    }
  }

  private static SparseDataset binary(String file) throws IOException {
    Path p = Path.of(System.getProperty("onlinekernels.data", "../data"), file);
    return Datasets.oneVsRest(LibSvmReader.read(p), 0);
  }
}
