package org.onlinekernels.spark;

import java.io.IOException;
import java.io.PrintStream;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Spark job's failure as one line for its user, with the command line's exit codes: {@link
 * #USAGE} (2) for a bad option, {@link #FAILED} (1) for a file that cannot be read or written or
 * data that cannot be trained on, {@link #INTERNAL} (3) for anything else (a bug: the line names
 * the exception's type). Errors raised in an executor reach the driver wrapped in Spark's
 * exceptions; {@link #reading} unwraps them and says which file they come from, rewriting the
 * messages of Spark's LIBSVM reader (0-based indices) in the terms of the file (1-based).
 */
public final class JobFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Exit code of a failure: a file or the data. */
  public static final int FAILED = 1;

  /** Exit code of a usage error: a bad option. */
  public static final int USAGE = 2;

  /** Exit code of an internal error. */
  public static final int INTERNAL = 3;

  private static final Pattern UNSORTED =
      Pattern.compile(
          "indices should be one-based and in ascending order;"
              + " found current=(-?\\d+), previous=(-?\\d+); line=\"(.*)\"",
          Pattern.DOTALL);

  /** How Spark words a job that failed on a task's exception, when it does not attach it. */
  private static final Pattern TASK =
      Pattern.compile("most recent failure: Lost task [^\n]*?\\): ([\\w.$]+): ([^\n]*)");

  private static final Pattern OUT_OF_BOUNDS =
      Pattern.compile("Index (\\d+) out of bounds for vector of size (\\d+)");

  private final int exitCode;

  private JobFailure(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  /** A bad option or option value (exit code 2). */
  public static JobFailure usage(String message) {
    return new JobFailure(USAGE, message);
  }

  /** A file or the data (exit code 1). */
  public static JobFailure failed(String message) {
    return new JobFailure(FAILED, message);
  }

  /** The exit code to end with. */
  public int exitCode() {
    return exitCode;
  }

  /**
   * Runs {@code work}, a Spark computation over the data of {@code file}; a failure caused by the
   * data (a value the reader or the trainer refuses, a missing file) becomes a {@link JobFailure}
   * naming the file.
   */
  public static <T> T reading(String file, Supplier<T> work) {
    try {
      return work.get();
    } catch (JobFailure e) {
      throw e;
    } catch (Exception e) { // Spark's own SparkException is checked, and thrown all the same
      throw explained(file, e);
    }
  }

  /**
   * The failure {@code e} of reading or training on {@code file}: a {@link JobFailure} where the
   * data or the file caused it, else {@code e} itself (wrapped when it is a checked exception).
   */
  static RuntimeException explained(String file, Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = String.valueOf(t.getMessage());
      if (m.contains("[PATH_NOT_FOUND]")) {
        return failed("cannot read " + file + ": no such file or directory");
      }
    }
    Throwable deepest = e;
    while (deepest.getCause() != null && deepest.getCause() != deepest) {
      deepest = deepest.getCause();
    }
    // A failed task's exception: the cause, or (when Spark could not attach it) in the message.
    Class<?> type = deepest.getClass();
    String m = String.valueOf(deepest.getMessage());
    Matcher task = TASK.matcher(m);
    if (task.find()) {
      type = classNamed(task.group(1));
      m = task.group(2);
    }
    m = m.replaceFirst("^requirement failed: ", "");
    if (NumberFormatException.class.isAssignableFrom(type)) {
      return failed(file + ": not a number: " + m.replaceFirst("^For input string: ", ""));
    }
    Matcher u = UNSORTED.matcher(m);
    if (u.find()) {
      long current = Long.parseLong(u.group(1)) + 1;
      long previous = Long.parseLong(u.group(2)) + 1;
      return failed(
          file
              + ": feature indices must be 1-based and increasing, found "
              + current
              + (previous > 0 ? " after " + previous : "")
              + " in the line \""
              + u.group(3)
              + "\"");
    }
    Matcher b = OUT_OF_BOUNDS.matcher(m);
    if (b.find()) {
      return failed(
          file
              + ": feature index "
              + (Long.parseLong(b.group(1)) + 1)
              + " is beyond the dimension "
              + b.group(2)
              + " (--num-features)");
    }
    if (IllegalArgumentException.class.isAssignableFrom(type)
        || IOException.class.isAssignableFrom(type)) {
      return failed(file + ": " + m);
    }
    return e instanceof RuntimeException r ? r : new Unexplained(e);
  }

  /** A checked exception of Spark's that is not the data's fault, carried to {@link #report}. */
  private static final class Unexplained extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unexplained(Throwable cause) {
      super(cause);
    }
  }

  /** The class of that name, or {@code Object} where it is unknown here. */
  private static Class<?> classNamed(String name) {
    try {
      return Class.forName(name, false, JobFailure.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return Object.class;
    }
  }

  private static String firstLine(Throwable t) {
    String m = String.valueOf(t.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  /**
   * Prints {@code t} as one line on {@code err} ({@code error: ...}) and returns the exit code; an
   * exception that is not a {@link JobFailure} is an internal error.
   */
  public static int report(Throwable t, PrintStream err) {
    if (t instanceof JobFailure f) {
      err.println("error: " + f.getMessage() + (f.exitCode == USAGE ? " (see --help)" : ""));
      return f.exitCode;
    }
    if (t instanceof OutOfMemoryError) {
      err.println(
          "error: out of memory ("
              + t.getMessage()
              + "): give the driver or the executors more (--driver-memory,"
              + " --executor-memory, -Xmx)");
      return FAILED;
    }
    Throwable shown = t instanceof Unexplained u ? u.getCause() : t;
    err.println("error: internal error: " + shown.getClass().getName() + ": " + firstLine(shown));
    return INTERNAL;
  }

  /** Runs an entry point's body and turns what it throws into one line and an exit code. */
  static int run(Body body, PrintStream err) {
    try {
      body.run();
      return 0;
    } catch (Exception | OutOfMemoryError e) {
      return report(e, err);
    }
  }

  /** An entry point's body. */
  interface Body {
    void run() throws Exception;
  }
}
