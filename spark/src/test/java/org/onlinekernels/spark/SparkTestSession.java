package org.onlinekernels.spark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/**
 * The one {@code local[2]} session every Spark test of the module shares (started once, in seconds;
 * stopped when the test JVM exits), and the repository's data files.
 */
public final class SparkTestSession {
  private static SparkSession spark;

  private SparkTestSession() {}

  /** The shared session. */
  public static synchronized SparkSession get() {
    if (spark == null) {
      SparkSession.Builder b =
          SparkSession.builder()
              .master("local[2]")
              .appName("online-kernels-test")
              .config("spark.sql.shuffle.partitions", "2");
      // The entry points' local settings: on the loopback address only, no web UI.
      for (var e : JobOptions.LOOPBACK.entrySet()) {
        b = b.config(e.getKey(), e.getValue());
      }
      spark = b.getOrCreate();
      spark.sparkContext().setLogLevel("WARN");
      SparkSession s = spark;
      Runtime.getRuntime().addShutdownHook(new Thread(s::stop));
    }
    return spark;
  }

  /** A file of the repository's {@code data/}; fails, naming it, when it is missing. */
  public static Path data(String file) {
    Path p = Path.of(System.getProperty("onlinekernels.data", "../data"), file);
    assertTrue(
        Files.isRegularFile(p), "data file " + p.toAbsolutePath() + " is missing (data/README.md)");
    return p;
  }
}
