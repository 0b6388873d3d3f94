package org.onlinekernels.spark;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * The Spark job's entry point for {@code spark-submit} (docs/spark/README.md):
 *
 * <pre>
 *   --train FILE  --test FILE  --num-features D  --partitions P  --epochs E
 *   --algorithm NAME  --params k=v,...  --type float|double  --loss logistic|hinge|...
 *   --seed S  --model OUT
 * </pre>
 *
 * Prints the progressive loss of each epoch, the test metrics and the wall time of training, and
 * writes the model (driver's file system) in the format the command line's {@code predict} reads.
 */
public final class SparkTrain {
  private SparkTrain() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --name value pairs, got '" + args[i] + "'");
      }
      a.put(args[i].substring(2), args[i + 1]);
    }
    if (!a.containsKey("train")) {
      throw new IllegalArgumentException("--train FILE is required");
    }
    AlgorithmSpec spec = AlgorithmSpec.parse(a.getOrDefault("algorithm", "scinol2"), List.of(a.getOrDefault("params", "")));
    TrainerConfig config = new TrainerConfig(spec, ElementType.parse(a.getOrDefault("type", "float")),
        Loss.parse(a.getOrDefault("loss", "logistic")), Integer.parseInt(a.getOrDefault("epochs", "1")),
        Long.parseLong(a.getOrDefault("seed", "1")), true, false);
    SparkSession spark = SparkSession.builder().appName("online-kernels").getOrCreate();
    try {
      Dataset<Row> train = read(spark, a.get("train"), a.get("num-features")).cache();
      long n = train.count();
      long t0 = System.nanoTime();
      SparkModel model = SparkTrainer.train(JobSpec.of(config), train, Integer.parseInt(a.getOrDefault("partitions", "2")));
      double seconds = (System.nanoTime() - t0) / 1e9;
      Metrics[] epochs = model.epochs();
      for (int e = 0; e < epochs.length; e++) {
        System.out.printf(Locale.ROOT, "epoch %d: progressive loss %.4f, error %.4f%n", e + 1, epochs[e].meanLoss(),
            epochs[e].errorRate());
      }
      System.out.printf(Locale.ROOT, "trained on %d rows in %.2f s%n", n, seconds);
      if (a.containsKey("test")) {
        Metrics m = model.evaluate(read(spark, a.get("test"), Integer.toString(model.model().dimension())));
        System.out.printf(Locale.ROOT, "test: loss %.4f, error %.4f on %d rows%n", m.meanLoss(), m.errorRate(), m.examples());
      }
      if (a.containsKey("model")) {
        model.save(Path.of(a.get("model")));
        System.out.println("model written to " + a.get("model"));
      }
    } finally {
      spark.stop();
    }
  }

  /** Spark's LIBSVM reader, with {@code numFeatures} when given. */
  static Dataset<Row> read(SparkSession spark, String file, String numFeatures) {
    var r = spark.read().format("libsvm");
    return (numFeatures == null ? r : r.option("numFeatures", numFeatures)).load(file);
  }
}
