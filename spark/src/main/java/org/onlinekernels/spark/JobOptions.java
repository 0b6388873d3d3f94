package org.onlinekernels.spark;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;
import org.onlinekernels.io.AtomicFiles;

/**
 * The options of the Spark jobs' entry points ({@link SparkTrain}, {@link SparkStream}): {@code
 * --name value} pairs checked against the entry point's names, the rule's options shared by both
 * ({@link #job}), the session ({@link #session}) and the checks of the files, all done before Spark
 * starts. Every problem is a {@link JobFailure}.
 */
final class JobOptions {
  /** The options of the rule and the merges, common to the entry points. */
  static final List<String> JOB =
      List.of("master", "partitions", "merge-every", "algorithm", "params", "type", "loss", "seed");

  /** Settings a local master gets unless given: everything on the loopback address, no web UI. */
  static final Map<String, String> LOOPBACK =
      Map.of(
          "spark.driver.host", "127.0.0.1",
          "spark.driver.bindAddress", "127.0.0.1",
          "spark.ui.enabled", "false");

  private final Map<String, String> values;

  private JobOptions(Map<String, String> values) {
    this.values = values;
  }

  /**
   * The {@code --name value} pairs of {@code args}, or null for {@code --help}.
   *
   * @param names the options allowed
   * @param required the options that must be given
   */
  static JobOptions parse(String[] args, Set<String> names, List<String> required) {
    Map<String, String> a = new HashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      if (List.of("--help", "-h").contains(args[i])) {
        return null;
      }
      String name = args[i].startsWith("--") ? args[i].substring(2) : null;
      if (name == null || !names.contains(name)) {
        throw JobFailure.usage(
            "unknown option '"
                + args[i]
                + "'; options: --"
                + String.join(", --", new TreeSet<>(names)));
      }
      if (i + 1 == args.length) {
        throw JobFailure.usage(args[i] + " needs a value");
      }
      if (a.put(name, args[i + 1]) != null) {
        throw JobFailure.usage(args[i] + " is given twice");
      }
    }
    for (String r : required) {
      if (!a.containsKey(r)) {
        throw JobFailure.usage("--" + r + " is required");
      }
    }
    return new JobOptions(a);
  }

  boolean has(String name) {
    return values.containsKey(name);
  }

  String get(String name) {
    return values.get(name);
  }

  String get(String name, String otherwise) {
    return values.getOrDefault(name, otherwise);
  }

  /** The whole number of option {@code name}, at least {@code min}. */
  int number(String name, int otherwise, int min) {
    long v = longNumber(name, otherwise);
    if (v < min || v > Integer.MAX_VALUE) {
      throw JobFailure.usage("--" + name + " must be a whole number >= " + min + ", got " + v);
    }
    return (int) v;
  }

  long longNumber(String name, long otherwise) {
    String s = values.get(name);
    if (s == null) {
      return otherwise;
    }
    try {
      return Long.parseLong(s.trim());
    } catch (NumberFormatException e) {
      throw JobFailure.usage("--" + name + " must be a whole number, got '" + s + "'");
    }
  }

  /** The job of the options {@link #JOB}, over {@code epochs} passes. */
  JobSpec job(int epochs) {
    try {
      return new JobSpec(
          get("algorithm", "scinol2"),
          get("params", ""),
          get("type", "float"),
          get("loss", "logistic"),
          epochs,
          longNumber("seed", 1),
          true,
          number("merge-every", 0, 0));
    } catch (JobFailure e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw JobFailure.usage(e.getMessage());
    }
  }

  /**
   * The session: {@code --master} if given, else the one {@code spark-submit} set; a local master
   * binds driver and block manager to 127.0.0.1 and has no web UI unless the configuration says
   * otherwise ({@link #LOOPBACK}), and Spark's logging is off unless {@code spark.log.level} is set
   * (e.g. {@code -Dspark.log.level=WARN}): the entry point reports its progress and any failure
   * itself, in one line, where Spark would log a failed task's stack trace.
   */
  SparkSession session(String appName) {
    SparkConf given = new SparkConf();
    SparkSession.Builder b = SparkSession.builder().appName(appName);
    String master = get("master");
    if (master != null) {
      b = b.master(master);
    } else if (!given.contains("spark.master")) {
      throw JobFailure.usage(
          "no Spark master: give --master local[N] to run here, or run the job with"
              + " spark-submit --master URL");
    } else {
      master = given.get("spark.master");
    }
    if (master.startsWith("local")) {
      for (Map.Entry<String, String> e : LOOPBACK.entrySet()) {
        if (!given.contains(e.getKey())) {
          b = b.config(e.getKey(), e.getValue());
        }
      }
      if (!given.contains("spark.log.level")) {
        b = b.config("spark.log.level", "OFF");
      }
    }
    return b.getOrCreate();
  }

  /**
   * The local file {@code name} names: a path, or a {@code file:} URI; null for another file
   * system's URI ({@code hdfs://...}), which the driver cannot check.
   */
  static Path localPath(String name) {
    try {
      URI u = new URI(name);
      if (u.getScheme() == null) {
        return Path.of(name);
      }
      return "file".equals(u.getScheme()) ? Path.of(u) : null;
    } catch (URISyntaxException | IllegalArgumentException e) {
      return Path.of(name);
    }
  }

  /**
   * Checks, before any work, that {@code --flag} can be written on the driver and names none of the
   * {@code inputs} ({@code --option} names: a file the job reads would be replaced by its output).
   */
  void checkOutput(String flag, String... inputs) {
    String out = get(flag);
    if (out == null) {
      return;
    }
    Path file = Path.of(out);
    for (String in : inputs) {
      Path p = has(in) ? localPath(get(in)) : null;
      if (p != null && sameFile(file, p)) {
        throw JobFailure.usage(
            "--"
                + flag
                + " "
                + out
                + " is the --"
                + in
                + " file: refusing to overwrite an input; choose another output path");
      }
    }
    try {
      AtomicFiles.checkWritable(file);
    } catch (IOException e) {
      throw JobFailure.failed(e.getMessage());
    }
  }

  /** Whether two paths name one file, by any spelling or link. */
  static boolean sameFile(Path a, Path b) {
    try {
      if (Files.exists(a) && Files.exists(b)) {
        return Files.isSameFile(a, b);
      }
    } catch (IOException e) {
      // compared by name below
    }
    return canonical(a).equals(canonical(b));
  }

  /** The path with its directory's links resolved, where that directory exists. */
  private static Path canonical(Path p) {
    Path abs = p.toAbsolutePath().normalize();
    Path dir = abs.getParent();
    try {
      return dir != null && Files.isDirectory(dir)
          ? dir.toRealPath().resolve(abs.getFileName())
          : abs;
    } catch (IOException e) {
      return abs;
    }
  }
}
