package org.onlinekernels.spark;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.onlinekernels.data.HashedZipfStream;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.DataFiles;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * The figures of docs/spark/README.md: test loss and wall time of the Spark job with 1, 2 and 4
 * partitions in {@code local[2]}, against the sequential trainer in the same JVM, on austen_lines
 * and on the synthetic stream (written once as LIBSVM files to a scratch folder, read back by
 * Spark's reader). Usage: {@code SparkScaling <data dir> <scratch dir> <algorithm>...}.
 */
public final class SparkScaling {
  private SparkScaling() {}

  public static void main(String[] args) throws Exception {
    Path dataDir = Path.of(args[0]);
    Path scratch = Path.of(args[1]);
    Files.createDirectories(scratch);
    Path synTrain = scratch.resolve("synthetic.train.svm");
    Path synTest = scratch.resolve("synthetic.test.svm");
    if (!Files.exists(synTest)) {
      HashedZipfStream s = HashedZipfStream.standard(1);
      write(s.rows(300_000, 2), synTrain);
      write(s.rows(50_000, 3), synTest);
    }
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("online-kernels-scaling")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    System.out.println("| data | algorithm | run | wall time (s) | test loss | test error |");
    System.out.println("|---|---|---|---:|---:|---:|");
    try {
      for (int a = 2; a < args.length; a++) {
        run(
            spark,
            "austen_lines",
            dataDir.resolve("austen_lines.train.svm"),
            dataDir.resolve("austen_lines.test.svm"),
            12549,
            args[a]);
        run(spark, "synthetic", synTrain, synTest, HashedZipfStream.DIMENSION, args[a]);
      }
    } finally {
      spark.stop();
    }
  }

  private static void run(
      SparkSession spark, String name, Path train, Path test, int d, String algorithm)
      throws IOException {
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of(algorithm));
    SparseDataset tr = DataFiles.readLibSvm(train, d);
    SparseDataset te = DataFiles.readLibSvm(test, d);
    OnlineTrainer.train(c, tr, null, null); // warm-up
    TrainResult seq = OnlineTrainer.train(c, tr, te, null);
    System.out.printf(
        Locale.ROOT,
        "| %s | %s | sequential (in process) | %.2f | %.4f | %.4f |%n",
        name,
        algorithm,
        seq.seconds(),
        seq.test().meanLoss(),
        seq.test().errorRate());
    Dataset<Row> trainRows = SparkTrain.read(spark, train.toString(), Integer.toString(d)).cache();
    Dataset<Row> testRows = SparkTrain.read(spark, test.toString(), Integer.toString(d)).cache();
    trainRows.count();
    testRows.count();
    SparkTrainer.train(JobSpec.of(c), trainRows, 2); // warm-up
    for (int p : new int[] {1, 2, 4}) {
      long t0 = System.nanoTime();
      SparkModel m = SparkTrainer.train(JobSpec.of(c), trainRows, p);
      double seconds = (System.nanoTime() - t0) / 1e9;
      var metrics = m.evaluate(testRows);
      System.out.printf(
          Locale.ROOT,
          "| %s | %s | Spark, %d partition%s | %.2f | %.4f | %.4f |%n",
          name,
          algorithm,
          p,
          p == 1 ? "" : "s",
          seconds,
          metrics.meanLoss(),
          metrics.errorRate());
    }
    trainRows.unpersist();
    testRows.unpersist();
  }

  private static void write(SparseDataset data, Path file) throws IOException {
    int[] idx = data.indices();
    double[] val = data.values();
    try (BufferedWriter w = Files.newBufferedWriter(file)) {
      StringBuilder sb = new StringBuilder();
      for (int r = 0; r < data.size(); r++) {
        sb.setLength(0);
        sb.append(data.label(r) > 0 ? "+1" : "-1");
        for (int j = data.rowStart(r); j < data.rowEnd(r); j++) {
          sb.append(' ').append(idx[j] + 1).append(':').append((long) val[j]);
        }
        w.write(sb.append('\n').toString());
      }
    }
  }
}
