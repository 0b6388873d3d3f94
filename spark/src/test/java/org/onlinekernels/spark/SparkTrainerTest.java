package org.onlinekernels.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.onlinekernels.spark.SparkTestSession.data;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.onlinekernels.cli.Main;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.parallel.MergeSummary;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.spark.ml.OnlineLinearClassificationModel;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.model.LinearModel;
import org.onlinekernels.trainer.parallel.Rows;
import org.onlinekernels.trainer.parallel.ShardWorker;

/**
 * The Spark job in {@code local[2]}: on austen_lines (6 classes, 12,549 sparse features, Spark's
 * LIBSVM reader) the model equals, bit for bit, the optimizers' merge of the same two partitions'
 * learners in this process (two learners and ScInOL2's AVERAGE and MAX rules: the tree gives the
 * merge's bits), it predicts in Spark as here, the command line loads the saved file, and its test
 * loss is within the stated margin of the sequential pass; with several rounds and partitions the
 * model is, bit for bit, the documented tree of merge summaries replayed here, on every run; the
 * job's entry point runs with {@code --master}-style options on the shared session.
 */
@Tag("long")
class SparkTrainerTest {
  private static final int AUSTEN_D = 12549;

  private static Dataset<Row> read(Path p, int d) {
    return SparkTestSession.get()
        .read()
        .format("libsvm")
        .option("numFeatures", Integer.toString(d))
        .load(p.toString());
  }

  /** Rows {@code i = p mod P} of {@code all}, in order: partition {@code p} of the job. */
  private static SparseDataset partition(SparseDataset all, int p, int partitions) {
    List<Integer> mine = new ArrayList<>();
    for (int i = p; i < all.size(); i += partitions) {
      mine.add(i);
    }
    return Datasets.rows(all, mine.stream().mapToInt(x -> x).toArray());
  }

  @Test
  void austenOnTwoPartitionsIsTheMergeOfThePartitionsLearners(@TempDir Path tmp) throws Exception {
    Path trainFile = data("austen_lines.train.svm");
    Path testFile = data("austen_lines.test.svm");
    JobSpec job = JobSpec.of(TrainerConfig.of(AlgorithmSpec.of("scinol2")));
    SparkModel model = SparkTrainer.train(job, read(trainFile, AUSTEN_D), 2);
    LinearModel m = model.model();

    SparseDataset train = LibSvmReader.read(trainFile, AUSTEN_D);
    TrainerConfig config = job.config();
    try (OnlineTrainer merged =
            new OnlineTrainer(config, AUSTEN_D, true, 6, null, StateLayout.PLANAR);
        Arena arena = Arena.ofConfined()) {
      List<ShardWorker> workers = new ArrayList<>();
      for (int p = 0; p < 2; p++) {
        SparseDataset part = partition(train, p, 2);
        ShardWorker w = new ShardWorker(config, AUSTEN_D, true, 6, Datasets.maxNnz(train), arena);
        w.run(new Rows(part), SparkTrainer.partitionOrder(job, part.size(), 0, p), 0, part.size());
        workers.add(w);
      }
      for (int c = 0; c < 6; c++) {
        ((AbstractOptimizer) merged.optimizer(c))
            .merge(List.of(workers.get(0).learners[c], workers.get(1).learners[c]));
      }
      LinearModel local = merged.model();
      for (int c = 0; c < 6; c++) {
        assertArrayEquals(local.weights()[c], m.weights()[c], "output " + c);
      }
    }

    // Evaluated in Spark as here: each row's scores, loss and error are computed by the same code;
    // only the order of the sums differs (per partition, then combined). The error count is a sum
    // of
    // 0s and 1s, exact in any order, so the error rate has the same bits. The loss sum is of n
    // non-negative terms: two orders differ by at most 2 (n - 1) u times their sum (u = 2^-53, the
    // classic bound of recursive summation), plus one rounding of each division by n.
    SparseDataset test = LibSvmReader.read(testFile, AUSTEN_D);
    Metrics here = Metrics.evaluate(m, test);
    Metrics there = model.evaluate(read(testFile, AUSTEN_D));
    assertEquals(here.examples(), there.examples());
    assertEquals(
        Double.doubleToRawLongBits(here.errorRate()),
        Double.doubleToRawLongBits(there.errorRate()),
        "error rate: " + here.errorRate() + " here, " + there.errorRate() + " in Spark");
    double reordering = (2.0 * (here.examples() - 1) + 2) * 0x1p-53 * here.meanLoss();
    assertEquals(here.meanLoss(), there.meanLoss(), reordering);
    // Predictions in Spark (the ML model's transform): the arg max of the same scores.
    List<Row> predicted =
        new OnlineLinearClassificationModel("austen", m)
            .transform(read(testFile, AUSTEN_D))
            .select("prediction")
            .limit(200)
            .collectAsList();
    double[] yhat = new double[6];
    for (int r = 0; r < predicted.size(); r++) {
      m.scores(test.indices(), test.values(), test.rowStart(r), test.nnz(r), yhat);
      assertEquals(
          Double.valueOf(Metrics.argmax(yhat, 6)),
          Double.valueOf(predicted.get(r).getDouble(0)),
          "row " + r);
    }

    // The command line loads the saved model and predicts with it.
    Path file = tmp.resolve("austen.model");
    model.save(file);
    LinearModel loaded = LinearModel.load(file);
    for (int c = 0; c < 6; c++) {
      assertArrayEquals(m.weights()[c], loaded.weights()[c]);
    }
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.run(
            new String[] {
              "predict",
              "--model",
              file.toString(),
              "--data",
              testFile.toString(),
              "--out",
              tmp.resolve("p.txt").toString()
            },
            new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err));
    assertEquals(0, code, err.toString());
    assertEquals(test.size(), Files.readAllLines(tmp.resolve("p.txt")).size());

    // Quality: the margin of SplitPassTest per one-vs-rest output (6 outputs, 0.035 nats each).
    double seq = OnlineTrainer.train(config, train, test, null).test().meanLoss();
    double half =
        OnlineTrainer.train(config, train.head(train.size() / 2), test, null).test().meanLoss();
    double margin = Math.max(0, half - seq) + 6 * 0.035;
    assertTrue(
        there.meanLoss() <= seq + margin,
        "Spark, 2 partitions: " + there.meanLoss() + ", sequential " + seq + ", over n/2 " + half);
  }

  /**
   * AdaGrad (a SUM rule, merged as summaries combined up the tree) on heart_scale, 4 partitions, a
   * merge every 100 examples (3 rounds of 270 rows), 2 epochs: the job's model is the tree {@code
   * (p0 p1)(p2 p3)} of the partitions' merge summaries, round after round, replayed here bit for
   * bit, and a second run gives the same bits. In float and double: a float state rounds away which
   * of a pair is taken first (with the higher partition first, the float run stayed green).
   */
  @ParameterizedTest
  @EnumSource(ElementType.class)
  void roundsOfSeveralPartitionsAreTheDocumentedTreeOnEveryRun(ElementType t) throws Exception {
    Path file = data("heart_scale.svm");
    int d = 13;
    int partitions = 4;
    JobSpec job =
        JobSpec.of(TrainerConfig.of(AlgorithmSpec.of("adagrad")).withType(t).withEpochs(2), 100);
    double[] spark = SparkTrainer.train(job, read(file, d), partitions).model().weights()[0];
    assertArrayEquals(
        spark, SparkTrainer.train(job, read(file, d), partitions).model().weights()[0]);

    SparseDataset all = LibSvmReader.read(file, d);
    TrainerConfig config = job.config();
    int rounds = 3;
    try (OnlineTrainer merged = new OnlineTrainer(config, d, false, 1, null, StateLayout.PLANAR);
        Arena arena = Arena.ofConfined()) {
      AbstractOptimizer master = (AbstractOptimizer) merged.optimizer(0);
      for (int e = 0; e < 2; e++) {
        for (int r = 0; r < rounds; r++) {
          MergeSummary[] s = new MergeSummary[partitions];
          for (int p = 0; p < partitions; p++) {
            SparseDataset part = partition(all, p, partitions);
            int[] slice = SparkTrainer.roundSlice(part.size(), r, rounds);
            ShardWorker w = new ShardWorker(config, d, false, 1, Datasets.maxNnz(all), arena);
            w.learners[0].copyStateFrom(master);
            w.run(
                new Rows(part),
                SparkTrainer.partitionOrder(job, part.size(), e, p),
                slice[0],
                slice[1]);
            s[p] = MergeSummary.of(master, List.of(w.learners[0]));
          }
          s[0].then(s[1]).then(s[2].then(s[3])).mergeInto(master);
        }
      }
      assertArrayEquals(merged.model().weights()[0], spark);
    }
  }

  @Test
  void theJobsEntryPointTrainsEvaluatesAndWritesTheModel(@TempDir Path tmp) throws Exception {
    Path file = data("heart_scale.svm");
    Path out = tmp.resolve("heart.model");
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    JobOptions options =
        SparkTrain.options(
            new String[] {
              "--master",
              "local[2]",
              "--train",
              file.toString(),
              "--test",
              file.toString(),
              "--partitions",
              "3",
              "--merge-every",
              "90",
              "--epochs",
              "2",
              "--algorithm",
              "adagrad",
              "--model",
              out.toString()
            });
    SparkTrain.run(
        SparkTestSession.get(), options, new PrintStream(text, true, StandardCharsets.UTF_8));
    String report = text.toString(StandardCharsets.UTF_8);
    assertTrue(
        report.contains("epoch 2: progressive loss") && report.contains("test: loss"), report);
    JobSpec job = JobSpec.of(TrainerConfig.of(AlgorithmSpec.of("adagrad")).withEpochs(2), 90);
    assertArrayEquals(
        SparkTrainer.train(job, read(file, 13), 3).model().weights()[0],
        LinearModel.load(out).weights()[0]);
    assertThrows(
        JobFailure.class, () -> SparkTrain.options(new String[] {"--train", "x", "--bogus", "1"}));
  }
}
