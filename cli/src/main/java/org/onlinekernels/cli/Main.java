package org.onlinekernels.cli;

import java.io.PrintStream;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.io.VisibleText;

/**
 * Command-line entry point: {@code train}, {@code predict}, {@code serve}, {@code demo} and {@code
 * experiment}, each in its own class ({@link TrainCommand}, {@link PredictCommand}, {@link
 * ServeCommand}, {@link DemoCommand}, {@link ExperimentCommand}).
 *
 * <p>Exit codes: 0 success, 1 a file could not be read or written or training failed, 2 usage error
 * (bad command, option or value). Every error is one line on standard error starting with {@code
 * error:}, never a stack trace.
 */
public final class Main {
  /** Default seed of {@code train}'s shuffling and of {@code demo}'s synthetic problem. */
  public static final long DEFAULT_SEED = 1;

  static final String USAGE =
      String.join(
          "\n",
          "usage: online-kernels <command> [options]      (online-kernels <command> --help for its options)",
          "",
          "commands:",
          "  train       train a linear model online on a LIBSVM file, report progressive and test metrics",
          "  predict     apply a saved model to a LIBSVM file: predictions and metrics",
          "  serve       answer predictions over TCP, one line in, one out; --learn trains on them",
          "  demo        every algorithm on the synthetic problem of Kempka et al. (2019) sec. 4.1",
          "  experiment  reproduce one of the papers' experiments into a directory (see docs/EXPERIMENTS.md)",
          "");

  private Main() {}

  /** Runs the command line and exits with a non-zero status on failure. */
  public static void main(String[] args) {
    PrintStream progress = System.console() != null ? System.err : null;
    int code = run(args, System.out, System.err, progress);
    System.out.flush();
    if (code != 0) {
      System.exit(code);
    }
  }

  /**
   * Same as {@link #run(String[], PrintStream, PrintStream, PrintStream)} without progress display.
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, out, err, null);
  }

  /**
   * Runs the command line with the given streams and returns the exit code, so that tests can check
   * output and status without a new JVM.
   *
   * @param progress where long runs show progress (the terminal's stderr), or {@code null}
   */
  public static int run(String[] args, PrintStream out, PrintStream err, PrintStream progress) {
    try {
      if (args.length == 0) {
        throw new UsageException(
            "missing command; commands: train, predict, serve, demo, experiment");
      }
      String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
      return switch (args[0]) {
        case "--help", "-h", "help" -> {
          out.print(USAGE);
          yield 0;
        }
        case "train" -> TrainCommand.run(rest, out, err, progress);
        case "predict" -> PredictCommand.run(rest, out, err);
        case "serve" -> ServeCommand.run(rest, out, err);
        case "demo" -> DemoCommand.run(rest, out, err);
        case "experiment" -> ExperimentCommand.run(rest, out, err);
        default ->
            throw new UsageException(
                "unknown command '"
                    + args[0]
                    + "'; commands: train, predict, serve, demo, experiment");
      };
    } catch (UsageException e) {
      err.println("error: " + VisibleText.of(e.getMessage()) + " (see --help)");
      return 2;
    } catch (Failure e) {
      err.println("error: " + VisibleText.of(e.getMessage()));
      return 1;
    } catch (OutOfMemoryError e) {
      // Not a bug: the input or the options need more memory than this JVM has.
      err.println(
          "error: out of memory ("
              + e.getMessage()
              + "); this JVM may use "
              + Runtime.getRuntime().maxMemory() / (1 << 20)
              + " MiB of heap: use smaller input or options,"
              + " or give Java more memory (-Xmx, e.g. -Xmx8g)");
      return 1;
    } catch (RuntimeException e) {
      // A bug, not a user error: still one line, with the exception type to report it by.
      err.println("error: internal error: " + VisibleText.of(e.toString()));
      return 3;
    }
  }

  /** A failure that is not a usage error (a file, training); exit code 1. */
  public static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;

    /** With the one-line message shown to the user. */
    public Failure(String message) {
      super(message);
    }
  }
}
