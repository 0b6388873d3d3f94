package org.onlinekernels.spark;

import org.onlinekernels.optimizer.StateLayout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.cli.Main;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.LinearModel;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.parallel.Rows;
import org.onlinekernels.trainer.parallel.ShardWorker;

/**
 * The Spark job in {@code local[2]} on the largest data set of the repository (austen_lines, 6 classes, 12,549
 * sparse features), read by Spark's LIBSVM reader: the model equals, bit for bit, the merge of the
 * same partitions' learners in this process; it predicts in Spark as the model predicts here; the
 * command line loads the saved file; its test loss is within the stated margin of the sequential
 * pass. One session for the class (Spark starts in seconds).
 */
class SparkTrainerTest {
  private static final int D = 12549;
  private static SparkSession spark;

  @BeforeAll
  static void start() {
    spark = SparkSession.builder().master("local[2]").appName("online-kernels-test")
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.host", "127.0.0.1").getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  private static Path data(String file) {
    Path p = Path.of(System.getProperty("onlinekernels.data", "../data"), file);
    assertTrue(Files.isRegularFile(p), "data file " + p.toAbsolutePath() + " is missing (data/README.md)");
    return p;
  }

  private static Dataset<Row> read(Path p) {
    return spark.read().format("libsvm").option("numFeatures", Integer.toString(D)).load(p.toString());
  }

  @Test
  void austenOnTwoPartitions(@TempDir Path tmp) throws Exception {
    Path trainFile = data("austen_lines.train.svm");
    Path testFile = data("austen_lines.test.svm");
    JobSpec job = JobSpec.of(TrainerConfig.of(AlgorithmSpec.of("scinol2")));
    SparkModel model = SparkTrainer.train(job, read(trainFile), 2);
    LinearModel m = model.model();

    // The same partitions (row i to partition i mod 2, in order, same shuffles) merged here.
    SparseDataset train = LibSvmReader.read(trainFile, D);
    TrainerConfig config = job.config();
    try (OnlineTrainer merged = new OnlineTrainer(config, D, true, 6, null, StateLayout.PLANAR); Arena arena = Arena.ofConfined()) {
      List<ShardWorker> workers = new ArrayList<>();
      for (int p = 0; p < 2; p++) {
        List<Integer> mine = new ArrayList<>();
        for (int i = p; i < train.size(); i += 2) {
          mine.add(i);
        }
        SparseDataset part = org.onlinekernels.trainer.Datasets.rows(train, mine.stream().mapToInt(x -> x).toArray());
        ShardWorker w = new ShardWorker(config, D, true, 6, org.onlinekernels.trainer.Datasets.maxNnz(train), arena);
        w.run(new Rows(part), SparkTrainer.partitionOrder(job, part.size(), 0, p), 0, part.size());
        workers.add(w);
      }
      for (int c = 0; c < 6; c++) {
        ((AbstractOptimizer) merged.optimizer(c)).merge(List.of(workers.get(0).learners[c], workers.get(1).learners[c]));
      }
      LinearModel local = merged.model();
      for (int c = 0; c < 6; c++) {
        assertArrayEquals(local.weights()[c], m.weights()[c], "output " + c);
      }
    }

    // Evaluated in Spark as here (sums in another order: equal to rounding).
    SparseDataset test = LibSvmReader.read(testFile, D);
    Metrics here = Metrics.evaluate(m, test);
    Metrics there = model.evaluate(read(testFile));
    assertEquals(here.examples(), there.examples());
    assertEquals(here.meanLoss(), there.meanLoss(), 1e-12 * here.meanLoss());
    assertEquals(here.errorRate(), there.errorRate(), 1e-12);
    // Predictions in Spark: the arg max of the same scores.
    List<Row> predicted = model.transform(read(testFile)).select("prediction").limit(200).collectAsList();
    double[] yhat = new double[6];
    for (int r = 0; r < predicted.size(); r++) {
      m.scores(test.indices(), test.values(), test.rowStart(r), test.nnz(r), yhat);
      assertEquals(Metrics.argmax(yhat, 6), predicted.get(r).getDouble(0), 0.0, "row " + r);
    }

    // The command line loads the saved model and predicts with it.
    Path file = tmp.resolve("austen.model");
    model.save(file);
    LinearModel loaded = LinearModel.load(file);
    for (int c = 0; c < 6; c++) {
      assertArrayEquals(m.weights()[c], loaded.weights()[c]);
    }
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(new String[] {"predict", "--model", file.toString(), "--data", testFile.toString(), "--out",
        tmp.resolve("p.txt").toString()}, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
    assertEquals(0, code, err.toString());
    assertEquals(test.size(), Files.readAllLines(tmp.resolve("p.txt")).size());

    // Quality: the margin of SplitPassTest per one-vs-rest output (6 outputs, 0.035 nats each).
    TrainerConfig c = job.config();
    double seq = OnlineTrainer.train(c, train, test, null).test().meanLoss();
    double half = OnlineTrainer.train(c, train.head(train.size() / 2), test, null).test().meanLoss();
    double margin = Math.max(0, half - seq) + 6 * 0.035;
    assertTrue(there.meanLoss() <= seq + margin,
        "Spark, 2 partitions: " + there.meanLoss() + ", sequential " + seq + ", over n/2 " + half);
  }

  @Test
  void aRunIsDeterministic() {
    Path file = data("heart_scale.svm");
    JobSpec job = JobSpec.of(TrainerConfig.of(AlgorithmSpec.of("adagrad")).withEpochs(3));
    Dataset<Row> rows = spark.read().format("libsvm").load(file.toString());
    double[] a = SparkTrainer.train(job, rows, 3).model().weights()[0];
    double[] b = SparkTrainer.train(job, rows, 3).model().weights()[0];
    assertArrayEquals(a, b);
  }
}
