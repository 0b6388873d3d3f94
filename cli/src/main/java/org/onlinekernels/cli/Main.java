package org.onlinekernels.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.zip.ZipException;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.data.SyntheticScInOL;
import org.onlinekernels.io.AtomicFiles;
import org.onlinekernels.io.LibSvmFormatException;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.Precision;
import org.onlinekernels.optimizer.StateLayout;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.optimizer.ParameterRangeException;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.LinearModel;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.Table;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainingMode;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.parallel.ParallelTraining;


/**
 * Command-line entry point: {@code train}, {@code predict}, {@code demo} and {@code experiment}.
 *
 * <p>Exit codes: 0 success, 1 a file could not be read or written or training failed, 2 usage
 * error (bad command, option or value). Every error is one line on standard error starting with
 * {@code error:}, never a stack trace.
 */
public final class Main {
  /** Default number of synthetic examples of the demo. */
  public static final int DEFAULT_N = 100_000;
  /** Default seed. */
  public static final long DEFAULT_SEED = 1;
  /**
   * Largest model dimension {@code train} accepts without {@code --dimension}: one row with a huge
   * index would otherwise size the state silently (index 5e8: 8 GB for ScInOL2 in float).
   */
  public static final int DEFAULT_MAX_DIMENSION = 1 << 24;

  /** Default algorithm of {@code train}: untuned, scale-invariant. */
  public static final String DEFAULT_ALGORITHM = "scinol2";

  /** Default merge interval of {@code train --threads}. */
  public static final int DEFAULT_MERGE_EVERY = 10_000;

  static final String USAGE = String.join("\n",
      "usage: online-kernels <command> [options]      (online-kernels <command> --help for its options)",
      "",
      "commands:",
      "  train       train a linear model online on a LIBSVM file, report progressive and test metrics",
      "  predict     apply a saved model to a LIBSVM file: predictions and metrics",
      "  demo        every algorithm on the synthetic problem of Kempka et al. (2019) sec. 4.1",
      "  experiment  reproduce one of the papers' experiments into a directory (see docs/EXPERIMENTS.md)",
      "");

  static final String TRAIN_USAGE = String.join("\n",
      "usage: online-kernels train --data FILE [options]",
      "",
      "  One or more online passes: per example predict, score (progressive validation: loss and",
      "  error before the update), update. Labels +1/-1 give one output (labels all 0/1 or all 1/2",
      "  too: the smaller is -1); class labels 0..K-1 give K outputs trained one-vs-rest on the same",
      "  instance, prediction = class of the largest score. An error is a wrong sign (binary) or a",
      "  wrong class; a tie (yhat = 0, or a shared largest score) counts as half an error (--ties).",
      "",
      "  --data FILE         training data, LIBSVM/svmlight or Vowpal Wabbit text (.gz allowed)",
      "  --test FILE         test data (same format), scored with the final weights",
      "  --format F          libsvm or vw (default: vw for names ending in .vw or .vw.gz, else libsvm)",
      "  --bits B            vw: feature hashing into 2^B weights, B in 1..30 (default 18)",
      "  --hash H            vw: signed (default: bit 31 of the hash signs the value) or unsigned",
      "  --labels L          auto (default), NEG,POS (binary: NEG -> -1, POS -> +1), or C0,C1,...",
      "                      (three or more: class Ci -> i)",
      "  --algorithm NAME    default " + DEFAULT_ALGORITHM + "; one of:",
      AlgorithmSpec.HELP,
      "  --param K=V         an algorithm parameter (repeatable, or K=V,K=V)",
      "  --loss L            logistic (default), hinge, absolute, squared; with K classes the",
      "                      reported loss is the one-vs-rest sum of the K outputs' losses, and the",
      "                      K-way softmax log loss of the scores is reported beside it",
      "  --type T            float (default), double, or mixed (float weights and input, double",
      "                      accumulators; adagrad and scinol2)",
      "  --epochs N          passes over the data (default 1)",
      "  --seed S            seed of the shuffling (default " + DEFAULT_SEED + ")",
      "  --no-shuffle        visit rows in file order (default: a fresh seeded order every epoch;",
      "                      demo, which compares algorithms on one order, never shuffles)",
      "  --ties T            half (default): a tie counts as half an error; error: as a whole one",
      "  --progressive-out FILE  write every training example's progressive prediction, one line",
      "                      each in visiting order: EPOCH ROW LABEL [CLASS] SCORE... (ROW: 1-based",
      "                      example number in the file; CLASS: multiclass prediction)",
      "  --dense             feed dense rows (d elements) instead of sparse index/value rows",
      "  --threads T         train on T threads, or auto: one per available core (default 1); the",
      "                      fastest mode for the rule: shared state, lock-free (not reproducible),",
      "                      or parameter mixing where shared state would lock; docs/parallel/README.md",
      "  --deterministic     with --threads: iterative parameter mixing, bit-reproducible for fixed",
      "                      T and N (docs/MERGING.md)",
      "  --merge-every N     with --threads: parameter mixing (as --deterministic), the threads'",
      "                      learners merged every N examples (default " + DEFAULT_MERGE_EVERY + "; 0: once per epoch)",
      "  --normalize         scale every row (train and test) to unit Euclidean norm first",
      "  --model FILE        save the final model there (format: docs/MODEL_FORMAT.md)",
      "  --dimension N       model dimension; feature indices up to N (default: the largest index,",
      "                      which must then be at most " + DEFAULT_MAX_DIMENSION + ")",
      "  --json              print a one-line JSON summary instead of text",
      "  --help              print this text",
      "");

  static final String PREDICT_USAGE = String.join("\n",
      "usage: online-kernels predict --model FILE --data FILE [--out FILE|-] [options]",
      "",
      "  Scores every row of the data with the saved model's weights and reports mean loss (the",
      "  model's loss) and error rate against the file's labels.",
      "",
      "  --model FILE   a model written by 'train --model'",
      "  --data FILE    LIBSVM/svmlight or Vowpal Wabbit data (.gz allowed); LIBSVM features beyond",
      "                 the model's d are ignored",
      "  --format F     libsvm or vw (default: vw for names ending in .vw or .vw.gz)",
      "  --bits B       vw: hash bits (default: those of the model, d = 2^B)",
      "  --hash H       vw: signed (default) or unsigned, as in training",
      "  --labels L     auto (default; for a binary model labels all 0/1 or all 1/2 are binary),",
      "                 NEG,POS or C0,C1,... as in training",
      "  --ties T       half (default) or error: what a tie counts as",
      "  --out FILE     write one prediction per line: the score <w,x> for a binary model, for a",
      "                 multiclass model the predicted class then the K scores, space-separated;",
      "                 '-' writes them to standard output (the metrics then go to standard error)",
      "  --normalize    scale every row to unit Euclidean norm (if the model was trained so)",
      "  --json         print a one-line JSON summary instead of text",
      "  --help         print this text",
      "");

  static final String DEMO_USAGE = String.join("\n",
      "usage: online-kernels demo [--n N] [--seed S] [--data FILE] [--type T]",
      "",
      "  One online pass of every algorithm (on the SIMD kernels, default parameters) with",
      "  progressive validation: each example's logistic loss and error are recorded before the",
      "  learner trains on it. Rows in file order, not shuffled (unlike train's default), so every",
      "  algorithm sees the same sequence. A tie yhat = 0 counts as half an error.",
      "",
      "  --n N        number of examples (default " + DEFAULT_N + "; with --data: use the first N rows)",
      "  --seed S     seed of the synthetic problem (default " + DEFAULT_SEED + ")",
      "  --data FILE  a LIBSVM/svmlight file (.gz allowed) instead of the synthetic problem of",
      "               Kempka, Kotlowski and Warmuth (2019), section 4.1; multiclass labels are",
      "               trained one-vs-rest with one output per class",
      "  --type T     float (default) or double",
      "  --help       print this text",
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

  /** Same as {@link #run(String[], PrintStream, PrintStream, PrintStream)} without progress display. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, out, err, null);
  }

  /**
   * Runs the command line with the given streams and returns the exit code, so that tests can
   * check output and status without a new JVM.
   *
   * @param progress where long runs show progress (the terminal's stderr), or {@code null}
   */
  public static int run(String[] args, PrintStream out, PrintStream err, PrintStream progress) {
    try {
      if (args.length == 0) {
        throw new UsageException("missing command; commands: train, predict, demo, experiment");
      }
      String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
      return switch (args[0]) {
        case "--help", "-h", "help" -> {
          out.print(USAGE);
          yield 0;
        }
        case "train" -> train(rest, out, err, progress);
        case "predict" -> predict(rest, out, err);
        case "demo" -> demo(rest, out, err);
        case "experiment" -> ExperimentCommand.run(rest, out, err);
        default -> throw new UsageException("unknown command '" + args[0] + "'; commands: train, predict, demo, experiment");
      };
    } catch (UsageException e) {
      err.println("error: " + e.getMessage() + " (see --help)");
      return 2;
    } catch (Failure e) {
      err.println("error: " + e.getMessage());
      return 1;
    } catch (OutOfMemoryError e) {
      // Not a bug: the input or the options need more memory than this JVM has.
      err.println("error: out of memory (" + e.getMessage() + "); this JVM may use "
          + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB of heap: use smaller input or options,"
          + " or give Java more memory (-Xmx, e.g. -Xmx8g)");
      return 1;
    } catch (RuntimeException e) {
      // A bug, not a user error: still one line, with the exception type to report it by.
      err.println("error: internal error: " + e);
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

  /**
   * What {@code train} accepts: feature values within the optimizers' input limit of {@code type}
   * (unless rows are normalized first), indices up to {@code dimension} or, without it, up to
   * {@link #DEFAULT_MAX_DIMENSION}.
   */
  static LibSvmReader.Limits inputLimits(ElementType type, boolean normalize, int dimension) {
    LibSvmReader.Limits l = LibSvmReader.Limits.NONE;
    if (!normalize) {
      l = l.withMaxMagnitude(InputPolicy.magnitudeLimit(type), ", the largest input magnitude "
          + type.name().toLowerCase(Locale.ROOT) + " training accepts (" + (type == ElementType.FLOAT ? "2^40" : "2^480")
          + "): rescale that feature, or use --normalize" + (type == ElementType.FLOAT ? " or --type double" : ""));
    }
    return dimension > 0
        ? l.withMaxDimension(dimension, ", the dimension given by --dimension")
        : l.withMaxDimension(DEFAULT_MAX_DIMENSION, ", the largest dimension train accepts without --dimension"
            + " (the model's state grows with it): give --dimension N to train a larger model");
  }

  /** Reads a LIBSVM file, turning every I/O problem into one line. */
  public static SparseDataset read(Path file, int minDimension) throws Failure {
    return read(file, minDimension, LibSvmReader.Limits.NONE);
  }

  /** Reads a LIBSVM file within {@code limits}, turning every I/O problem into one line. */
  public static SparseDataset read(Path file, int minDimension, LibSvmReader.Limits limits) throws Failure {
    try {
      if (Files.isDirectory(file)) {
        throw new Failure("cannot read " + file + ": it is a directory");
      }
      return LibSvmReader.read(file, minDimension, limits);
    } catch (LibSvmFormatException | ZipException e) {
      throw new Failure(e.getMessage()); // names the file and the line or byte offset
    } catch (NoSuchFileException e) {
      throw new Failure("cannot read " + file + ": no such file");
    } catch (AccessDeniedException e) {
      throw new Failure("cannot read " + file + ": permission denied");
    } catch (IOException e) {
      throw new Failure("cannot read " + file + ": " + AtomicFiles.reason(e));
    }
  }

  /**
   * Refuses an output path that names one of the inputs (the same file by any spelling or link):
   * {@code train --data v.svm --model v.svm} would replace the data by a model.
   *
   * @param inputs flag, path pairs; a null path is skipped
   */
  static void refuseOverwritingAnInput(String outFlag, Path out, Object... inputs) throws UsageException {
    for (int k = 0; k < inputs.length; k += 2) {
      Path in = (Path) inputs[k + 1];
      if (in != null && sameFile(out, in)) {
        throw new UsageException(outFlag + " " + out + " is the " + inputs[k] + " file: refusing to overwrite an input;"
            + " choose another output path");
      }
    }
  }

  private static boolean sameFile(Path a, Path b) {
    try {
      if (Files.exists(a) && Files.exists(b)) {
        return Files.isSameFile(a, b);
      }
    } catch (IOException e) {
      // fall through to comparing the paths
    }
    return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
  }

  private static ElementType type(Options o) throws UsageException {
    String t = o.get("--type");
    try {
      return t == null ? ElementType.FLOAT : ElementType.parse(t);
    } catch (IllegalArgumentException e) {
      if ("mixed".equals(t)) {
        throw new UsageException("--type mixed exists for adagrad and scinol2 only, not for every algorithm of demo;"
            + " use train --type mixed");
      }
      throw new UsageException("--type must be float or double, got '" + t + "'"
          + DidYouMean.hint(t, List.of("float", "double")));
    }
  }

  private static int train(String[] args, PrintStream out, PrintStream err, PrintStream progress)
      throws UsageException, Failure {
    Options o = Options.parse(args, 0, Set.of("--no-shuffle", "--dense", "--normalize", "--json", "--deterministic"),
        Set.of("--data", "--test", "--algorithm", "--param", "--loss", "--type", "--epochs", "--seed", "--model",
            "--format", "--bits", "--hash", "--labels", "--ties", "--progressive-out", "--threads", "--merge-every",
            "--dimension"),
        Set.of("--param"));
    if (o.has("--help")) {
      out.print(TRAIN_USAGE);
      return 0;
    }
    Path data = Path.of(o.require("--data"));
    Path testFile = o.get("--test") == null ? null : Path.of(o.get("--test"));
    Precision precision = Choices.precision(o.get("--type"));
    ElementType type = precision.inputType();
    Loss loss = Choices.loss(o.get("--loss"));
    AlgorithmSpec spec = Choices.algorithm(o.get("--algorithm") == null ? DEFAULT_ALGORITHM : o.get("--algorithm"),
        o.all("--param"), precision);
    InputFormat format = InputFormat.parse(o);
    LabelMap labels = LabelMap.parse(o.get("--labels"));
    Scoring.Ties ties = Scoring.Ties.parse(o.get("--ties"));
    Path progressiveOut = o.get("--progressive-out") == null ? null : Path.of(o.get("--progressive-out"));
    int epochs = o.positiveInt("--epochs", 1);
    long seed = o.longValue("--seed", DEFAULT_SEED);
    int threads = "auto".equals(o.get("--threads")) ? Runtime.getRuntime().availableProcessors()
        : o.positiveInt("--threads", 1);
    long mergeEvery = o.longValue("--merge-every", DEFAULT_MERGE_EVERY);
    if (mergeEvery < 0 || mergeEvery > Integer.MAX_VALUE) {
      throw new UsageException("--merge-every must be between 0 and " + Integer.MAX_VALUE + ", got " + mergeEvery);
    }
    if (threads > 1 && o.has("--dense")) {
      throw new UsageException("--threads trains on sparse rows; drop --dense");
    }
    if (threads > 1 && (progressiveOut != null || ties != Scoring.Ties.HALF)) {
      throw new UsageException("--threads scores each thread's shard by the default tie rule and writes no "
          + "per-example predictions; drop --progressive-out and --ties, or train on one thread");
    }
    Path modelOut = o.get("--model") == null ? null : Path.of(o.get("--model"));
    if (modelOut != null) {
      refuseOverwritingAnInput("--model", modelOut, "--data", data, "--test", testFile);
      try {
        AtomicFiles.checkWritable(modelOut); // before training, not after it
      } catch (IOException e) {
        throw new Failure(e.getMessage());
      }
    }

    int dimension = o.positiveInt("--dimension", 0);
    LibSvmReader.Limits limits = inputLimits(type, o.has("--normalize"), dimension);
    SparseDataset train = format.read(data, dimension, VwReader.DEFAULT_BITS, limits);
    if (train.size() == 0) {
      throw new Failure(data + " has no examples");
    }
    if (labels == null) {
      labels = LabelMap.auto(train, true);
    }
    train = labels.apply(train, data.toString());
    SparseDataset test = testFile == null ? null
        : labels.apply(format.read(testFile, train.dimension(), InputFormat.bitsOf(train.dimension()), limits),
            testFile.toString());
    if (o.has("--normalize")) {
      train = Datasets.normalizeRows(train);
      test = test == null ? null : Datasets.normalizeRows(test);
    }
    TrainerConfig cfg = new TrainerConfig(spec, type, loss, epochs, seed, !o.has("--no-shuffle"), o.has("--dense"))
        .withPrecision(precision);
    boolean multiclass = !train.isBinary();
    TrainResult r;
    Scoring prog;
    try (Writer progWriter = OutputFiles.open(progressiveOut)) {
      prog = new Scoring(ties, multiclass, progWriter);
      // The parallel trainer has no per-example hook: its threads score their own shards.
      boolean scoreHere = threads == 1 && (multiclass || ties != Scoring.Ties.HALF || progWriter != null);
      TrainingMode mode = o.has("--deterministic") || o.has("--merge-every") ? TrainingMode.MIXING
          : ParallelTraining.fastest(cfg);
      r = threads > 1
          ? ParallelTraining.train(cfg, threads, mode, (int) mergeEvery, train, test)
          : OnlineTrainer.train(cfg, train, test, o.has("--json") ? null : progress, scoreHere ? prog : null);
      if (!scoreHere) {
        prog = null;
      }
    } catch (OnlineTrainer.TrainingException e) {
      throw new Failure(e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new Failure(e.getMessage());
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new Failure("cannot write " + progressiveOut + ": " + OutputFiles.reason(e));
    }
    Scoring testScores = test == null || prog == null ? null : Scoring.of(r.model(), test, ties);
    double progError = prog == null ? r.progressive().errorRate() : prog.errorRate();
    double testError = testScores == null ? (r.test() == null ? Double.NaN : r.test().errorRate()) : testScores.errorRate();
    String lossName = Scoring.lossName(loss, multiclass);
    if (modelOut != null) {
      try {
        r.model().save(modelOut);
      } catch (IOException e) {
        throw new Failure(e.getMessage()); // names the file and the reason; the old file is intact
      }
    }
    if (o.has("--json")) {
      Json j = new Json().put("command", "train").put("algorithm", spec.name()).put("params", spec.paramString())
          .put("type", precision.name().toLowerCase(Locale.ROOT)).put("loss", lossName)
          .put("kernels", KernelProvider.get().name())
          .put("epochs", epochs).put("seed", seed).put("shuffle", cfg.shuffle()).put("dense", cfg.dense())
          .put("threads", threads).put("mode", r.mode().label())
          .put("merge_every", r.mode() == TrainingMode.MIXING ? mergeEvery : Double.NaN)
          .put("data", data.toString()).put("n", train.size()).put("d", r.model().dimension())
          .put("outputs", r.model().outputs())
          .put("labels", labels.description() == null ? (multiclass ? "classes" : "+1/-1") : labels.description())
          .put("ties", ties.name().toLowerCase(Locale.ROOT))
          .put("format", format.isVw(data) ? "vw" : "libsvm")
          .put("progressive", metrics(r.progressive(), progError, prog))
          .put("test", r.test() == null ? null : metrics(r.test(), testError, testScores).put("file", testFile.toString()))
          .put("progressive_out", progressiveOut == null ? null : progressiveOut.toString())
          .put("examples", r.examples()).put("nonzeros", r.nonzeros()).put("seconds", r.seconds())
          .put("examples_per_second", r.rateMeasured() ? r.examplesPerSecond() : Double.NaN)
          .put("nonzeros_per_second", r.rateMeasured() ? r.nonzerosPerSecond() : Double.NaN)
          .put("steady_examples", r.steadyExamples()).put("steady_seconds", r.steadySeconds())
          .put("steady_examples_per_second", r.steadyRateMeasured() ? r.steadyExamplesPerSecond() : Double.NaN)
          .put("handover_at", r.handoverAt() < 0 ? Double.NaN : r.handoverAt())
          .put("kernels_at_end", r.kernels())
          .put("model", modelOut == null ? null : modelOut.toString());
      out.println(j);
    } else {
      out.printf(Locale.ROOT, "data: %s; n = %d, d = %d, %s%n", data, train.size(), r.model().dimension(),
          r.model().multiclass() ? r.model().outputs() + " classes (one-vs-rest)" : "binary labels");
      if (labels.description() != null) {
        out.println("labels: " + labels.description());
      }
      out.printf(Locale.ROOT, "algorithm: %s%s; %s elements, %s loss, %d epoch(s), %s, %s%n", spec.name(),
          spec.params().isEmpty() ? " (defaults)" : " " + spec.paramString(), precision.name().toLowerCase(Locale.ROOT),
          loss.name().toLowerCase(Locale.ROOT), epochs,
          cfg.shuffle() ? "shuffled (seed " + seed + ")" : "file order", kernelsLine(r));
      if (r.mode() == TrainingMode.MIXING) {
        out.printf(Locale.ROOT, "threads: %d, parameter mixing, learners merged every %s (docs/MERGING.md)%n", threads,
            mergeEvery == 0 ? "epoch" : mergeEvery + " examples");
      } else if (r.mode() == TrainingMode.SHARED) {
        out.printf(Locale.ROOT, "threads: %d, one shared state (docs/parallel/README.md)%n", threads);
      }
      out.printf(Locale.ROOT, "progressive: %s%n", Scoring.line(lossName, r.progressive(), progError, prog, ties));
      if (r.test() != null) {
        out.printf(Locale.ROOT, "test (%s, n = %d): %s%n", testFile, r.test().examples(),
            Scoring.line(lossName, r.test(), testError, testScores, ties));
      }
      if (progressiveOut != null) {
        out.println("progressive predictions: " + progressiveOut);
      }
      out.println(throughput(r));
      if (modelOut != null) {
        out.println("model: " + modelOut);
      }
    }
    return 0;
  }

  /**
   * The kernels of a {@code train} run: the JVM's choice, and when the trainer started on the
   * scalar kernels (docs/CLI.md, "Cold start"), where it handed over or that it did not.
   */
  static String kernelsLine(TrainResult r) {
    String chosen = KernelProvider.get().name();
    if (r.handoverAt() >= 0) {
      return chosen + " kernels (scalar for the first " + r.handoverAt() + " examples, while the vector ones compiled)";
    }
    if (r.kernels() != null && !r.kernels().equals(chosen) && !r.kernels().equals("none")) {
      return chosen + " kernels chosen, " + r.kernels() + " kernels run (no faster vector path for this run: docs/CLI.md, \"Cold start\")";
    }
    return chosen + " kernels";
  }

  /**
   * The throughput line of {@code train}: the rate of the whole pass and that of its steady state
   * (the second half of the examples), each only when its span lasted at least
   * {@link TrainResult#MIN_RATE_SECONDS}.
   */
  static String throughput(TrainResult r) {
    String whole = r.rateMeasured()
        ? String.format(Locale.ROOT, "%.0f examples/s, %.0f nonzeros/s", r.examplesPerSecond(), r.nonzerosPerSecond())
        : "no rate";
    String steady = r.steadyRateMeasured()
        ? String.format(Locale.ROOT, "%.0f examples/s", r.steadyExamplesPerSecond())
        : "no rate";
    return String.format(Locale.ROOT, "throughput: whole pass %s (%d examples in %.3f s); steady state %s"
        + " (second half: %d examples in %.3f s)%s", whole, r.examples(), r.seconds(), steady, r.steadyExamples(),
        r.steadySeconds(), r.rateMeasured() && r.steadyRateMeasured() ? ""
            : String.format(Locale.ROOT, "; a rate needs at least %.1f s of training", TrainResult.MIN_RATE_SECONDS));
  }

  private static Json metrics(Metrics m) {
    return new Json().put("examples", m.examples()).put("loss", m.meanLoss()).put("error", m.errorRate());
  }

  /** The metrics with the error under the tie rule and, for multiclass, the softmax log loss. */
  private static Json metrics(Metrics m, double error, Scoring s) {
    Json j = new Json().put("examples", m.examples()).put("loss", m.meanLoss()).put("error", error);
    return s == null || Double.isNaN(s.meanSoftmaxLoss()) ? j : j.put("softmax_log_loss", s.meanSoftmaxLoss());
  }

  private static int predict(String[] args, PrintStream out, PrintStream err) throws UsageException, Failure {
    Options o = Options.parse(args, 0, Set.of("--json", "--normalize"),
        Set.of("--model", "--data", "--out", "--format", "--bits", "--hash", "--labels", "--ties"), Set.of());
    if (o.has("--help")) {
      out.print(PREDICT_USAGE);
      return 0;
    }
    Path modelFile = Path.of(o.require("--model"));
    Path data = Path.of(o.require("--data"));
    String outArg = o.get("--out");
    InputFormat format = InputFormat.parse(o);
    LabelMap labels = LabelMap.parse(o.get("--labels"));
    Scoring.Ties ties = Scoring.Ties.parse(o.get("--ties"));
    if (outArg != null && !outArg.equals("-")) {
      refuseOverwritingAnInput("--out", Path.of(outArg), "--model", modelFile, "--data", data);
      try {
        AtomicFiles.checkWritable(Path.of(outArg)); // before scoring, not after it
      } catch (IOException e) {
        throw new Failure(e.getMessage());
      }
    }
    LinearModel model;
    try {
      model = LinearModel.load(modelFile);
    } catch (NoSuchFileException e) {
      throw new Failure("cannot read " + modelFile + ": no such file");
    } catch (LinearModel.ModelFormatException e) {
      throw new Failure(e.getMessage());
    } catch (IOException e) {
      throw new Failure("cannot read " + modelFile + ": " + (Files.isDirectory(modelFile) ? "it is a directory"
          : AtomicFiles.reason(e)));
    }
    if (format.isVw(data) && format.bits() != 0 && 1L << format.bits() != model.dimension()) {
      throw new Failure(modelFile + " has d = " + model.dimension() + " weights, but --bits " + format.bits()
          + " hashes into 2^" + format.bits());
    }
    if (format.isVw(data) && format.bits() == 0 && InputFormat.bitsOf(model.dimension()) == 0) {
      throw new Failure(modelFile + " has d = " + model.dimension() + " weights, not a power of two: it was not"
          + " trained on hashed (vw) data");
    }
    SparseDataset rows = format.read(data, 0, InputFormat.bitsOf(model.dimension()));
    if (labels == null) {
      labels = LabelMap.auto(rows, !model.multiclass());
    }
    rows = labels.apply(rows, data.toString());
    final SparseDataset scored = rows;
    final Scoring scoring = new Scoring(ties, model.multiclass(), null);
    if (o.has("--normalize")) {
      rows = Datasets.normalizeRows(rows);
    }
    boolean toStdout = "-".equals(outArg);
    PrintStream report = toStdout ? err : out;
    Metrics m;
    Writer w = null;
    try {
      if (outArg != null) {
        w = toStdout ? new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8))
            : Files.newBufferedWriter(Path.of(outArg), StandardCharsets.UTF_8);
      }
      final Writer sink = w;
      final StringBuilder line = new StringBuilder();
      try {
        m = Metrics.evaluate(model, rows, (row, yhat) -> {
          scoring.accept(0, row, scored.label(row), yhat, model.outputs());
          if (sink == null) {
            return;
          }
          line.setLength(0);
          if (model.multiclass()) {
            line.append(Metrics.argmax(yhat, model.outputs()));
            for (int k = 0; k < model.outputs(); k++) {
              line.append(' ').append(yhat[k]);
            }
          } else {
            line.append(yhat[0]);
          }
          try {
            sink.write(line.append('\n').toString());
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
      } catch (IllegalArgumentException e) {
        throw new Failure(data + ": " + e.getMessage());
      }
      if (w != null) {
        w.flush();
        if (!toStdout) {
          w.close();
        }
      }
    } catch (IOException e) {
      throw new Failure("cannot write " + outArg + ": " + AtomicFiles.reason(e));
    } catch (java.io.UncheckedIOException e) {
      throw new Failure("cannot write " + outArg + ": " + AtomicFiles.reason(e.getCause()));
    }
    if (o.has("--json")) {
      report.println(new Json().put("command", "predict").put("model", modelFile.toString())
          .put("algorithm", model.algorithm().name()).put("params", model.algorithm().paramString())
          .put("type", model.type().name().toLowerCase(Locale.ROOT))
          .put("loss", Scoring.lossName(model.loss(), model.multiclass())).put("data", data.toString())
          .put("d", model.dimension()).put("outputs", model.outputs())
          .put("labels", labels.description() == null ? (model.multiclass() ? "classes" : "+1/-1") : labels.description())
          .put("ties", ties.name().toLowerCase(Locale.ROOT))
          .put("test", metrics(m, scoring.errorRate(), scoring)).put("predictions", outArg));
    } else {
      if (labels.description() != null) {
        report.println("labels: " + labels.description());
      }
      report.printf(Locale.ROOT, "%s on %s: n = %d, %s%n", modelFile, data, m.examples(),
          Scoring.line(Scoring.lossName(model.loss(), model.multiclass()), m, scoring.errorRate(), scoring, ties));
    }
    return 0;
  }

  private static int demo(String[] args, PrintStream out, PrintStream err) throws UsageException, Failure {
    Options o = Options.parse(args, 0, Set.of(), Set.of("--n", "--seed", "--data", "--type"), Set.of());
    if (o.has("--help")) {
      out.print(DEMO_USAGE);
      return 0;
    }
    if (o.has("--data") && o.has("--seed")) {
      throw new UsageException("--seed only applies to the synthetic problem, not to --data");
    }
    ElementType type = type(o);
    SparseDataset data;
    String description;
    double[] oracle = null;
    if (!o.has("--data")) {
      long seed = o.longValue("--seed", DEFAULT_SEED);
      int n = o.positiveInt("--n", DEFAULT_N);
      data = SyntheticScInOL.generate(n, seed);
      oracle = SyntheticScInOL.trueWeights(seed);
      description = "synthetic problem of Kempka et al. 2019 sec. 4.1 (21 Gaussian features, sigma_j = 2^(j-10)),"
          + " seed " + seed;
    } else {
      Path file = Path.of(o.get("--data"));
      data = read(file, 0);
      if (data.size() == 0) {
        throw new Failure(file + " has no examples");
      }
      int n = o.positiveInt("--n", data.size());
      if (n < data.size()) {
        data = data.head(n);
      }
      description = file.toString();
    }
    out.println("online-kernels demo: one online pass, progressive validation"
        + " (each example's loss and error are taken before training on it)");
    out.printf(Locale.ROOT, "data: %s; n = %d, d = %d, %d nonzeros%n", description, data.size(),
        data.dimension(), data.totalNonZeros());
    out.println(data.isBinary()
        ? "labels: +1/-1; loss: logistic ln(1 + exp(-y yhat)); a tie yhat = 0 counts as half an error"
        : "labels: " + data.numClasses() + " classes, one-vs-rest (one output per class); mean loss ="
            + " ovr-logistic-sum, the sum of the outputs' logistic losses (train reports the softmax log loss too)");
    out.printf(Locale.ROOT, "kernels: %s, %s elements%n%n", KernelProvider.get().name(),
        type.name().toLowerCase(Locale.ROOT));
    Table t = new Table(2, "algorithm", "parameters", "mean loss", "error rate", "examples/s");
    if (data.isBinary()) {
      double[][] zero = {new double[data.dimension()]};
      fixedRow(t, "baseline: zero", "w = 0", new LinearModel(AlgorithmSpec.of("ogd"), type, Loss.LOGISTIC, false, zero),
          data);
      if (oracle != null) {
        fixedRow(t, "baseline: true u", "generating model",
            new LinearModel(AlgorithmSpec.of("ogd"), ElementType.DOUBLE, Loss.LOGISTIC, false, new double[][] {oracle}),
            data);
      }
    }
    for (AlgorithmSpec spec : demoAlgorithms()) {
      TrainerConfig cfg = TrainerConfig.of(spec).withType(type).withShuffle(false, 0);
      try {
        TrainResult r = OnlineTrainer.train(cfg, data, null, null);
        t.add(spec.name(), describe(spec), f6(r.progressive().meanLoss()), f4(r.progressive().errorRate()),
            String.format(Locale.ROOT, "%.0f", r.examplesPerSecond()));
      } catch (OnlineTrainer.TrainingException e) {
        t.add(spec.name(), describe(spec), "failed", "-", "-");
        err.println("note: " + spec.name() + ": " + e.getMessage());
      }
    }
    out.print(t.text());
    return 0;
  }

  /** The demo's algorithms: every algorithm with its defaults, plus the OGD baseline. */
  static List<AlgorithmSpec> demoAlgorithms() {
    List<AlgorithmSpec> list = new ArrayList<>();
    for (String name : AlgorithmSpec.NAMES) {
      list.add(AlgorithmSpec.of(name));
    }
    return list;
  }

  private static String describe(AlgorithmSpec spec) {
    return switch (spec.name()) {
      case "adagrad" -> "eta=1";
      case "adagrad-global" -> "D=1";
      case "aogd-ball", "aogd-coord" -> "R=100";
      case "scinol1", "scinol2" -> "eps=1";
      case "dfeg" -> "a=0.882 L=1 delta=1";
      case "ogd" -> "eta=1 (eta/sqrt(t))";
      default -> spec.paramString();
    };
  }

  private static void fixedRow(Table t, String name, String params, LinearModel m, SparseDataset data) {
    Metrics x = Metrics.evaluate(m, data);
    t.add(name, params, f6(x.meanLoss()), f4(x.errorRate()), "-");
  }

  static String f6(double v) {
    return String.format(Locale.ROOT, "%.6f", v);
  }

  static String f4(double v) {
    return String.format(Locale.ROOT, "%.4f", v);
  }
}
