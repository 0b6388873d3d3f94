package org.onlinekernels.spark;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.onlinekernels.data.HashedZipfStream;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.DataFiles;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * The figures of docs/spark/README.md, for one Spark master per process (run it once per master,
 * alternating, to compare {@code local[1]} with {@code local[2]}):
 *
 * <ul>
 *   <li>examples/s of the batch job ({@link SparkTrainer}, one epoch, as many partitions as the
 *       master has cores, merged every {@code mergeEvery} examples) on a cached input, median of
 *       {@code repeat} runs after one untimed run, beside the sequential trainer in the same JVM,
 *       on austen_lines and on the synthetic stream (written once as LIBSVM files to the scratch
 *       folder);
 *   <li>the latency of a micro-batch of {@link StreamingTrainer}: the synthetic stream cut into
 *       parquet batch files of {@code batchRows} rows, read by a file source one file per trigger;
 *       Spark's own {@code addBatch} and {@code triggerExecution} durations of each batch.
 * </ul>
 *
 * <p>Usage: {@code SparkScaling <master> <data dir> <scratch dir> <mergeEvery> <repeat> <batchRows>
 * <batches> <algorithm>...}.
 */
public final class SparkScaling {
  private SparkScaling() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 8) {
      throw new IllegalArgumentException(
          "usage: SparkScaling <master> <data dir> <scratch dir> <mergeEvery> <repeat>"
              + " <batchRows> <batches> <algorithm>...");
    }
    String master = args[0];
    Path dataDir = Path.of(args[1]);
    Path scratch = Path.of(args[2]);
    int mergeEvery = Integer.parseInt(args[3]);
    int repeat = Integer.parseInt(args[4]);
    int batchRows = Integer.parseInt(args[5]);
    int batches = Integer.parseInt(args[6]);
    List<String> algorithms = Arrays.asList(args).subList(7, args.length);
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
            .master(master)
            .appName("online-kernels-scaling")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    int cores = spark.sparkContext().defaultParallelism();
    System.out.printf(Locale.ROOT, "master %s: %d cores, %d partitions%n", master, cores, cores);
    System.out.println(
        "| data | algorithm | master | run | examples/s (median) | runs (examples/s) | test loss |");
    System.out.println("|---|---|---|---|---:|---|---:|");
    try {
      for (String a : algorithms) {
        Path austen = dataDir.resolve("austen_lines.train.svm");
        Path austenTest = dataDir.resolve("austen_lines.test.svm");
        batch(
            spark, master, cores, "austen_lines", austen, austenTest, 12549, a, mergeEvery, repeat);
        batch(
            spark,
            master,
            cores,
            "synthetic",
            synTrain,
            synTest,
            HashedZipfStream.DIMENSION,
            a,
            mergeEvery,
            repeat);
      }
      System.out.println();
      System.out.println(
          "| algorithm | master | rows per batch | batches | first batch addBatch (ms) |"
              + " later addBatch, median (ms) | later addBatch, range (ms) |"
              + " later triggerExecution, median (ms) | rows/s in a batch |");
      System.out.println("|---|---|---:|---:|---:|---:|---|---:|---:|");
      for (String a : algorithms) {
        stream(spark, master, cores, synTrain, scratch, a, mergeEvery, batchRows, batches);
      }
    } finally {
      spark.stop();
    }
  }

  private static void batch(
      SparkSession spark,
      String master,
      int cores,
      String name,
      Path train,
      Path test,
      int d,
      String algorithm,
      int mergeEvery,
      int repeat)
      throws IOException {
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of(algorithm));
    SparseDataset tr = DataFiles.readLibSvm(train, d);
    SparseDataset te = DataFiles.readLibSvm(test, d);
    OnlineTrainer.train(c, tr, null, null); // untimed: compiles the kernels
    double[] seq = new double[repeat];
    double seqLoss = 0;
    for (int r = 0; r < repeat; r++) {
      TrainResult t = OnlineTrainer.train(c, tr, te, null);
      seq[r] = tr.size() / t.seconds();
      seqLoss = t.test().meanLoss();
    }
    row(name, algorithm, master, "sequential (in process)", seq, seqLoss);
    Dataset<Row> trainRows = SparkTrain.read(spark, train.toString(), Integer.toString(d)).cache();
    Dataset<Row> testRows = SparkTrain.read(spark, test.toString(), Integer.toString(d)).cache();
    long n = trainRows.count();
    testRows.count();
    JobSpec job = JobSpec.of(c, mergeEvery);
    SparkTrainer.train(job, trainRows, cores); // untimed
    double[] rates = new double[repeat];
    double loss = 0;
    for (int r = 0; r < repeat; r++) {
      long t0 = System.nanoTime();
      SparkModel m = SparkTrainer.train(job, trainRows, cores);
      rates[r] = n / ((System.nanoTime() - t0) / 1e9);
      loss = m.evaluate(testRows).meanLoss();
    }
    row(name, algorithm, master, "Spark, " + cores + " partition(s)", rates, loss);
    trainRows.unpersist();
    testRows.unpersist();
  }

  private static void row(
      String data, String algorithm, String master, String run, double[] rates, double loss) {
    StringBuilder all = new StringBuilder();
    for (double r : rates) {
      all.append(all.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%.0f", r));
    }
    System.out.printf(
        Locale.ROOT,
        "| %s | %s | %s | %s | %.0f | %s | %.4f |%n",
        data,
        algorithm,
        master,
        run,
        median(rates),
        all,
        loss);
  }

  /**
   * Trains {@code StreamingTrainer} on the synthetic stream cut into batch files; one table row.
   */
  private static void stream(
      SparkSession spark,
      String master,
      int cores,
      Path synTrain,
      Path scratch,
      String algorithm,
      int mergeEvery,
      int batchRows,
      int batches)
      throws Exception {
    Path run = Files.createTempDirectory(scratch, "stream-" + algorithm + "-");
    Dataset<Row> all =
        SparkTrain.read(spark, synTrain.toString(), Integer.toString(HashedZipfStream.DIMENSION));
    List<Row> rows = all.limit(batchRows * batches).collectAsList();
    Path in = run.resolve("in");
    for (int k = 0; k < batches; k++) {
      ParquetBatches.write(
          spark, rows.subList(k * batchRows, (k + 1) * batchRows), all.schema(), k, in, run);
    }
    JobSpec job = JobSpec.of(TrainerConfig.of(AlgorithmSpec.of(algorithm)), mergeEvery);
    StreamingTrainer t =
        new StreamingTrainer(
            job, HashedZipfStream.DIMENSION, 2, cores, "label", "features", run.resolve("state"));
    StreamingQuery q =
        t.writer(
                spark
                    .readStream()
                    .schema(all.schema())
                    .option("maxFilesPerTrigger", 1)
                    .parquet(in.toString()))
            .option("checkpointLocation", run.resolve("checkpoint").toString())
            .trigger(Trigger.AvailableNow())
            .start();
    q.awaitTermination();
    List<Double> add = new ArrayList<>();
    List<Double> trigger = new ArrayList<>();
    for (StreamingQueryProgress p : q.recentProgress()) {
      if (p.numInputRows() > 0) {
        add.add(p.durationMs().get("addBatch").doubleValue());
        trigger.add(p.durationMs().get("triggerExecution").doubleValue());
      }
    }
    if (add.size() != batches || t.lastBatch() != batches - 1) {
      throw new IllegalStateException(
          "the query trained "
              + add.size()
              + " batches, last "
              + t.lastBatch()
              + "; expected "
              + batches);
    }
    double[] later = add.subList(1, add.size()).stream().mapToDouble(x -> x).toArray();
    double[] laterTrigger =
        trigger.subList(1, trigger.size()).stream().mapToDouble(x -> x).toArray();
    double med = median(later);
    System.out.printf(
        Locale.ROOT,
        "| %s | %s | %d | %d | %.0f | %.0f | %.0f-%.0f | %.0f | %.0f |%n",
        algorithm,
        master,
        batchRows,
        batches,
        add.get(0),
        med,
        Arrays.stream(later).min().orElseThrow(),
        Arrays.stream(later).max().orElseThrow(),
        median(laterTrigger),
        batchRows / (med / 1e3));
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    int m = s.length / 2;
    return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
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
