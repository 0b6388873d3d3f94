package org.onlinekernels.spark;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.onlinekernels.trainer.Metrics;

/**
 * The Spark job's entry point (docs/spark/README.md): trains on a LIBSVM file read by Spark's
 * reader, prints the progressive metrics of each epoch and where the time went, writes the model
 * (driver's file system) in the format the command line's {@code predict} reads, then scores the
 * test file with it. Run it with {@code spark-submit}, or on this machine with {@code --master
 * local[N]}. Options are checked before Spark starts; every failure is one line on stderr with the
 * command line's exit codes ({@link JobFailure}).
 */
public final class SparkTrain {
  static final String USAGE =
      String.join(
          "\n",
          "usage: SparkTrain --train FILE [options]       (spark-submit ... online-kernels-spark.jar, or java ... --master local[N])",
          "",
          "  --master URL        Spark master, e.g. local[2] (default: the one spark-submit gives)",
          "  --train FILE        training data, LIBSVM (labels +1/-1 or 0/1: binary; 0..K-1: K classes one-vs-rest)",
          "  --test FILE         test data, scored with the final model (features beyond its dimension count 0)",
          "  --num-features D    dimension (default: the largest index in the training file)",
          "  --partitions P      partitions, each training its own learners (default 2)",
          "  --merge-every N     merge the partitions' learners every N examples (default 0: once per epoch)",
          "  --epochs E          passes over the data (default 1)",
          "  --algorithm NAME    a rule of the library (default scinol2)",
          "  --params K=V,...    its parameters (default: its defaults)",
          "  --type T            float (default), double or mixed",
          "  --loss L            logistic (default), hinge, absolute, squared",
          "  --seed S            seed of the partitions' shuffles (default 1)",
          "  --model FILE        write the model there (on the driver), before the test file is scored",
          "",
          "A local master binds to 127.0.0.1 with no web UI and Spark's logging off (-Dspark.log.level=WARN",
          "turns it on). Exit codes: 0 success, 1 a file or the data, 2 usage, 3 internal error.",
          "");

  private static final Set<String> OPTIONS = new HashSet<>(JobOptions.JOB);

  static {
    OPTIONS.addAll(List.of("train", "test", "num-features", "epochs", "model"));
  }

  private SparkTrain() {}

  public static void main(String[] args) {
    int code = run(args, System.out, System.err);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** Parses {@code args}, runs the job in a session of its own and returns the exit code. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    return JobFailure.run(
        () -> {
          JobOptions a = options(args);
          if (a == null) {
            out.print(USAGE);
            return;
          }
          SparkSession spark = a.session("online-kernels");
          try {
            run(spark, a, out);
          } finally {
            spark.stop();
          }
        },
        err);
  }

  /**
   * The options of {@code args}, checked (the job's rule and parameters, the numbers, the model
   * path: writable, and not an input); null for {@code --help}.
   */
  static JobOptions options(String[] args) {
    JobOptions a = JobOptions.parse(args, OPTIONS, List.of("train"));
    if (a == null) {
      return null;
    }
    a.job(a.number("epochs", 1, 1));
    a.number("partitions", 2, 1);
    if (a.has("num-features")) {
      a.number("num-features", 1, 1);
    }
    a.checkOutput("model", "train", "test");
    return a;
  }

  /** Runs the job with options {@code a} in {@code spark}, reporting to {@code out}. */
  static void run(SparkSession spark, JobOptions a, PrintStream out) throws IOException {
    JobSpec job = a.job(a.number("epochs", 1, 1));
    String trainFile = a.get("train");
    Dataset<Row> train =
        JobFailure.reading(trainFile, () -> read(spark, trainFile, a.get("num-features")).cache());
    try {
      long n = JobFailure.reading(trainFile, train::count);
      long t0 = System.nanoTime();
      SparkModel model =
          JobFailure.reading(
              trainFile, () -> SparkTrainer.train(job, train, a.number("partitions", 2, 1)));
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
          "trained on %d rows in %.2f s (%.0f examples/s; %s)%n",
          n,
          seconds,
          n * job.epochs() / seconds,
          model.timing());
      if (a.has("model")) {
        model.save(Path.of(a.get("model")));
        out.println("model written to " + a.get("model"));
      }
      if (a.has("test")) {
        String testFile = a.get("test");
        // Read at its own width: the model scores features beyond its dimension as 0.
        Metrics m = JobFailure.reading(testFile, () -> model.evaluate(read(spark, testFile, null)));
        out.printf(
            Locale.ROOT,
            "test: loss %.4f, error %.4f on %d rows%n",
            m.meanLoss(),
            m.errorRate(),
            m.examples());
      }
    } finally {
      train.unpersist();
    }
  }

  /** Spark's LIBSVM reader, with {@code numFeatures} when given. */
  static Dataset<Row> read(SparkSession spark, String file, String numFeatures) {
    var r = spark.read().format("libsvm");
    return (numFeatures == null ? r : r.option("numFeatures", numFeatures)).load(file);
  }
}
