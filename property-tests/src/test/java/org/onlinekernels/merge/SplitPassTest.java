package org.onlinekernels.merge;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
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
 * <p>Held only for the K where they meet the margin (docs/MERGING.md, "Known gaps"): FTRL-Proximal
 * on shuttle (K = 2, 4) and FreeGrad (austen_lines K = 2, 4; shuttle K = 2); at the larger K their
 * AVERAGE merge misses it, and neither SUM nor (FTRL) the MEAN of the read-out weights does better.
 * {@link #aMergeThatDropsAVariableFails} plants a merge that forgets one state variable in each of
 * these cases.
 */
@Tag("long")
class SplitPassTest {
  private static final double SLACK = 0.035;

  /** Smallest relative L2 distance between the merged weights and any one learner's. */
  private static final double MIN_DISTANCE = 0.01;

  @ParameterizedTest(name = "{0} on {1}, K = {2}")
  @CsvSource({
    "adagrad, austen_lines, 2 4 8",
    "adagrad-global, austen_lines, 2 4 8",
    "aogd-ball, austen_lines, 2 4 8",
    "scinol1, austen_lines, 2 4 8",
    "scinol2, austen_lines, 2 4 8",
    "dfeg, austen_lines, 2 4 8",
    "ftrl, austen_lines, 2 4 8",
    "kt, austen_lines, 2 4 8",
    "freegrad, austen_lines, 2 4",
    "adagrad, shuttle, 2 4 8",
    "adagrad-global, shuttle, 2 4 8",
    "scinol1, shuttle, 2 4 8",
    "scinol2, shuttle, 2 4 8",
    "dfeg, shuttle, 2 4 8",
    "ftrl, shuttle, 2 4",
    "freegrad, shuttle, 2"
  })
  void splitPassPlusMergeIsWithinTheMarginOfTheSequentialPass(
      String algorithm, String data, String ks) throws IOException {
    int[] k = Arrays.stream(ks.split(" ")).mapToInt(Integer::parseInt).toArray();
    assertWithinMargin(algorithm, data, k, SplitPass.LIBRARY);
  }

  /**
   * The planted fault, in every case held only at some K: a merge that forgets one state variable
   * (FTRL's {@code N}, FreeGrad's {@code Vsum}: the start's zeros stay) misses the margin.
   */
  @ParameterizedTest(name = "{0} on {1}, K = {2}, without {3}")
  @CsvSource({
    "ftrl, shuttle, 2, N",
    "ftrl, shuttle, 4, N",
    "freegrad, austen_lines, 2, Vsum",
    "freegrad, austen_lines, 4, Vsum",
    "freegrad, shuttle, 2, Vsum"
  })
  void aMergeThatDropsAVariableFails(String algorithm, String data, int k, String variable) {
    AssertionError e =
        assertThrows(
            AssertionError.class,
            () -> assertWithinMargin(algorithm, data, new int[] {k}, dropping(variable)),
            "a merge without " + variable + " met the margin");
    assertTrue(e.getMessage().contains("beyond the margin"), e.getMessage());
  }

  /** The library's merge, then {@code variable} put back to the start's (initial) values. */
  private static SplitPass.Merge dropping(String variable) {
    return (start, learners) -> {
      double[] initial = MergeAlgorithm.state(start).get(variable);
      start.merge(learners);
      start.writeState(variable, initial);
    };
  }

  /** The margin of the class comment, for each K in {@code ks}, with {@code merge} merging. */
  private static void assertWithinMargin(
      String algorithm, String data, int[] ks, SplitPass.Merge merge) throws IOException {
    SparseDataset train = binary(data + ".train.svm");
    SparseDataset test = binary(data + ".test.svm");
    AlgorithmSpec spec = AlgorithmSpec.of(algorithm);
    double sequential = SplitPass.testLoss(spec, train, test, 1);
    assertTrue(
        sequential < Math.log(2),
        algorithm + " no longer beats the zero model on " + data + ": " + sequential);
    for (int k : ks) {
      SplitPass.Split split = SplitPass.split(spec, train, test, k, merge);
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
