package org.onlinekernels.spark;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.onlinekernels.trainer.Metrics;

/**
 * The Spark job's entry point (docs/spark/README.md): trains on a LIBSVM file read by Spark's
 * reader, prints the progressive metrics of each epoch, the test metrics and the wall time of
 * training, and writes the model (driver's file system) in the format the command line's {@code
 * predict} reads. Run it with {@code spark-submit}, or on this machine with {@code --master
 * local[N]}.
 */
public final class SparkTrain {
  static final String USAGE =
      String.join(
          "\n",
          "usage: SparkTrain --train FILE [options]       (spark-submit ... online-kernels-spark.jar, or java ... --master local[N])",
          "",
          "  --master URL        Spark master, e.g. local[2] (default: the one spark-submit gives)",
          "  --train FILE        training data, LIBSVM (labels +1/-1 or 0/1: binary; 0..K-1: K classes one-vs-rest)",
          "  --test FILE         test data, scored with the final model",
          "  --num-features D    dimension (default: the largest index in the training file)",
          "  --partitions P      partitions, each training its own learners (default 2)",
          "  --merge-every N     merge the partitions' learners every N examples (default 0: once per epoch)",
          "  --epochs E          passes over the data (default 1)",
          "  --algorithm NAME    a rule of the library (default scinol2)",
          "  --params K=V,...    its parameters (default: its defaults)",
          "  --type T            float (default), double or mixed",
          "  --loss L            logistic (default), hinge, absolute, squared",
          "  --seed S            seed of the partitions' shuffles (default 1)",
          "  --model FILE        write the model there (on the driver)",
          "");

  private static final Set<String> OPTIONS =
      Set.of(
          "master",
          "train",
          "test",
          "num-features",
          "partitions",
          "merge-every",
          "epochs",
          "algorithm",
          "params",
          "type",
          "loss",
          "seed",
          "model");

  private SparkTrain() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> a = options(args);
    if (a == null) {
      System.out.print(USAGE);
      return;
    }
    SparkSession.Builder b = SparkSession.builder().appName("online-kernels");
    if (a.containsKey("master")) {
      b = b.master(a.get("master"));
    } else if (!new SparkConf().contains("spark.master")) {
      throw new IllegalArgumentException(
          "no Spark master: give --master local[N] to run here, or run the job with"
              + " spark-submit --master URL");
    }
    SparkSession spark = b.getOrCreate();
    try {
      run(spark, a, System.out);
    } finally {
      spark.stop();
    }
  }

  /** Runs the job with options {@code a} in {@code spark}, reporting to {@code out}. */
  static void run(SparkSession spark, Map<String, String> a, PrintStream out) throws IOException {
    JobSpec job =
        new JobSpec(
            a.getOrDefault("algorithm", "scinol2"),
            a.getOrDefault("params", ""),
            a.getOrDefault("type", "float"),
            a.getOrDefault("loss", "logistic"),
            Integer.parseInt(a.getOrDefault("epochs", "1")),
            Long.parseLong(a.getOrDefault("seed", "1")),
            true,
            Integer.parseInt(a.getOrDefault("merge-every", "0")));
    Dataset<Row> train = read(spark, a.get("train"), a.get("num-features")).cache();
    try {
      long n = train.count();
      long t0 = System.nanoTime();
      SparkModel model =
          SparkTrainer.train(job, train, Integer.parseInt(a.getOrDefault("partitions", "2")));
      double seconds = (System.nanoTime() - t0) / 1e9;
      Metrics[] epochs = model.epochs();
      for (int e = 0; e < epochs.length; e++) {
        out.printf(
            Locale.ROOT,
            "epoch %d: progressive loss %.4f, error %.4f%n",
            e + 1,
            epochs[e].meanLoss(),
            epochs[e].errorRate());
      }
      out.printf(
          Locale.ROOT,
          "trained on %d rows in %.2f s (%.0f examples/s)%n",
          n,
          seconds,
          n * job.epochs() / seconds);
      if (a.containsKey("test")) {
        Metrics m =
            model.evaluate(read(spark, a.get("test"), Integer.toString(model.model().dimension())));
        out.printf(
            Locale.ROOT,
            "test: loss %.4f, error %.4f on %d rows%n",
            m.meanLoss(),
            m.errorRate(),
            m.examples());
      }
      if (a.containsKey("model")) {
        model.save(Path.of(a.get("model")));
        out.println("model written to " + a.get("model"));
      }
    } finally {
      train.unpersist();
    }
  }

  /** {@code --name value} pairs, or null for {@code --help}. */
  static Map<String, String> options(String[] args) {
    Map<String, String> a = new HashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      if (List.of("--help", "-h").contains(args[i])) {
        return null;
      }
      String name = args[i].startsWith("--") ? args[i].substring(2) : null;
      if (name == null || !OPTIONS.contains(name)) {
        throw new IllegalArgumentException(
            "unknown option '"
                + args[i]
                + "'; options: --"
                + String.join(", --", OPTIONS.stream().sorted().toList())
                + " (--help)");
      }
      if (i + 1 == args.length) {
        throw new IllegalArgumentException(args[i] + " needs a value");
      }
      a.put(name, args[i + 1]);
    }
    if (!a.containsKey("train")) {
      throw new IllegalArgumentException("--train FILE is required (--help)");
    }
    return a;
  }

  /** Spark's LIBSVM reader, with {@code numFeatures} when given. */
  static Dataset<Row> read(SparkSession spark, String file, String numFeatures) {
    var r = spark.read().format("libsvm");
    return (numFeatures == null ? r : r.option("numFeatures", numFeatures)).load(file);
  }
}
