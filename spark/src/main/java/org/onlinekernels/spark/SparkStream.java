package org.onlinekernels.spark;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructType;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * The streaming trainer's entry point (docs/spark/README.md, "Training on a stream"): a {@link
 * StreamingTrainer} on a directory source, LIBSVM text or parquet files read as they arrive ({@code
 * --files-per-batch} per micro-batch, oldest first), its state and model in {@code --state} on the
 * driver and the query's checkpoint in {@code --checkpoint}. Run again with the same three folders,
 * it continues where it stopped. Like {@link SparkTrain}: options checked before Spark starts, a
 * local master bound to 127.0.0.1, every failure one line.
 */
public final class SparkStream {
  static final String USAGE =
      String.join(
          "\n",
          "usage: SparkStream --input DIR --state DIR --checkpoint DIR --num-features D [options]",
          "",
          "  --master URL          Spark master, e.g. local[2] (default: the one spark-submit gives)",
          "  --input DIR           the source folder: files appear in it (written elsewhere, then moved in)",
          "  --format F            libsvm (default) or parquet (columns label, features)",
          "  --files-per-batch N   files per micro-batch, oldest first (default 1)",
          "  --trigger T           now (default: the files there now, then stop) or a period in seconds",
          "  --state DIR           the model's state and its model file (DIR/model), on the driver",
          "  --checkpoint DIR      the query's checkpoint",
          "  --num-features D      the model's dimension",
          "  --classes K           2 (binary, default) or K >= 3 classes 0..K-1",
          "  --partitions P, --merge-every N, --algorithm NAME, --params K=V,..., --type T, --loss L, --seed S",
          "                        as SparkTrain's (one pass per micro-batch)",
          "",
          "Exit codes: 0 success, 1 a file or the data, 2 usage, 3 internal error.",
          "");

  /**
   * The rows of the source: the columns of Spark's LIBSVM reader, whose file format reads the
   * dimension from the features column's metadata ({@code numFeatures}).
   */
  static StructType schema(int numFeatures) {
    return new StructType()
        .add("label", DataTypes.DoubleType, false)
        .add(
            "features",
            SQLDataTypes.VectorType(),
            false,
            new MetadataBuilder().putLong("numFeatures", numFeatures).build());
  }

  private static final Set<String> OPTIONS = new HashSet<>(JobOptions.JOB);

  static {
    OPTIONS.addAll(
        List.of(
            "input",
            "format",
            "files-per-batch",
            "trigger",
            "state",
            "checkpoint",
            "num-features",
            "classes"));
  }

  private SparkStream() {}

  public static void main(String[] args) {
    int code = run(args, System.out, System.err);
    if (code != 0) {
      System.exit(code);
    }
  }

  /** Parses {@code args}, runs the query in a session of its own and returns the exit code. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    return JobFailure.run(
        () -> {
          JobOptions a = options(args);
          if (a == null) {
            out.print(USAGE);
            return;
          }
          SparkSession spark = a.session("online-kernels-stream");
          try {
            run(spark, a, out);
          } finally {
            spark.stop();
          }
        },
        err);
  }

  /** The options of {@code args}, checked; null for {@code --help}. */
  static JobOptions options(String[] args) {
    JobOptions a =
        JobOptions.parse(args, OPTIONS, List.of("input", "state", "checkpoint", "num-features"));
    if (a == null) {
      return null;
    }
    trainer(a);
    a.number("files-per-batch", 1, 1);
    trigger(a);
    if (!List.of("libsvm", "parquet").contains(a.get("format", "libsvm"))) {
      throw JobFailure.usage("--format must be libsvm or parquet, got '" + a.get("format") + "'");
    }
    return a;
  }

  private static StreamingTrainer trainer(JobOptions a) {
    try {
      return new StreamingTrainer(
          a.job(1),
          a.number("num-features", 1, 1),
          a.number("classes", 2, 2),
          a.number("partitions", 2, 1),
          "label",
          "features",
          Path.of(a.get("state")));
    } catch (JobFailure e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw JobFailure.usage(e.getMessage());
    }
  }

  private static Trigger trigger(JobOptions a) {
    String t = a.get("trigger", "now");
    if ("now".equals(t)) {
      return Trigger.AvailableNow();
    }
    return Trigger.ProcessingTime(1000L * a.number("trigger", 1, 1));
  }

  /**
   * Runs the query of options {@code a} in {@code spark} until it ends, reporting to {@code out}.
   */
  static void run(SparkSession spark, JobOptions a, PrintStream out) throws Exception {
    StreamingTrainer t = trainer(a);
    String input = a.get("input");
    long before = lastBatch(t);
    Dataset<Row> source =
        spark
            .readStream()
            .format(a.get("format", "libsvm"))
            .schema(schema(a.number("num-features", 1, 1)))
            .option("maxFilesPerTrigger", a.number("files-per-batch", 1, 1))
            .load(input);
    StreamingQuery q;
    try {
      q =
          t.writer(source)
              .option("checkpointLocation", a.get("checkpoint"))
              .trigger(trigger(a))
              .start();
    } catch (TimeoutException e) {
      throw JobFailure.failed("the query did not start: " + e.getMessage());
    }
    try {
      q.awaitTermination();
    } catch (StreamingQueryException e) {
      throw JobFailure.explained(input, e);
    }
    long last = lastBatch(t);
    if (last == before) {
      out.println("no new files in " + input + "; the model is that of batch " + last);
      return;
    }
    LinearModel m = StreamingTrainer.latest(Path.of(a.get("state")));
    out.printf(
        Locale.ROOT,
        "batches %d to %d trained; model (d = %d, %d output(s)) in %s%n",
        before + 1,
        last,
        m.dimension(),
        m.outputs(),
        Path.of(a.get("state"), StreamState.MODEL));
  }

  /** The last batch {@code --state} holds; a folder of another model or unreadable fails. */
  private static long lastBatch(StreamingTrainer t) {
    try {
      return t.lastBatch();
    } catch (IOException | IllegalStateException e) {
      throw JobFailure.failed(e.getMessage());
    }
  }
}
