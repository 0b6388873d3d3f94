package org.onlinekernels.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.file.Path;
import java.util.Locale;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.rules.Rules;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.TrainingMode;
import org.onlinekernels.trainer.parallel.ParallelTraining;

/**
 * The {@code train} subcommand: its options, checked before any data is read, then the run (read,
 * train, save); {@link TrainReport} prints the outcome.
 */
final class TrainCommand {
  /**
   * Largest model dimension {@code train} accepts without {@code --dimension}: one row with a huge
   * index would otherwise size the state silently (index 5e8: 8 GB for ScInOL2 in float).
   */
  static final int DEFAULT_MAX_DIMENSION = 1 << 24;

  /** Default algorithm: untuned, scale-invariant. */
  static final String DEFAULT_ALGORITHM = "scinol2";

  /**
   * Largest {@code --threads}: each thread holds a whole learner, and more threads than this only
   * share cores.
   */
  static final int MAX_THREADS = 256;

  /** Default merge interval of {@code --threads}. */
  static final int DEFAULT_MERGE_EVERY = 10_000;

  final Options options;
  final Path data;
  final Path testFile;
  Precision precision;
  ElementType type;
  Loss loss;
  AlgorithmSpec spec;
  InputFormat format;
  final Scoring.Ties ties;
  final Path progressiveOut;
  final int epochs;
  final long seed;
  final int threads;
  final long mergeEvery;
  final Path modelOut;
  final Path saveState;
  final Path initial;
  final Path invertHash;
  final int holdoutPeriod;

  /** The settings of the {@code --initial} state, or null. */
  final RunSettings resumed;

  final TrainingState state;
  boolean dense;
  boolean normalize;
  final int dimension;

  /**
   * From {@code --labels} or the state, or decided from the training data ({@code null} until
   * then).
   */
  LabelMap labels;

  /** Parses and checks the options; nothing is read yet. */
  private TrainCommand(Options o) throws UsageException, Failure {
    options = o;
    data = Path.of(o.require("--data"));
    testFile = path(o, "--test");
    precision = Choices.precision(o.get("--type"));
    type = precision.inputType();
    loss = Choices.loss(o.get("--loss"));
    spec =
        Choices.algorithm(
            o.get("--algorithm") == null ? DEFAULT_ALGORITHM : o.get("--algorithm"),
            o.all("--param"),
            precision);
    format = InputFormat.parse(o);
    labels = LabelMap.parse(o.get("--labels"));
    ties = Scoring.Ties.parse(o.get("--ties"));
    progressiveOut = path(o, "--progressive-out");
    epochs = o.positiveInt("--epochs", 1);
    seed = o.longValue("--seed", Main.DEFAULT_SEED);
    boolean autoThreads = "auto".equals(o.get("--threads"));
    threads =
        autoThreads ? Runtime.getRuntime().availableProcessors() : o.positiveInt("--threads", 1);
    if (threads > MAX_THREADS) {
      throw new UsageException(
          "--threads must be at most "
              + MAX_THREADS
              + " (each thread holds a learner and a"
              + " shard), got "
              + (autoThreads ? "auto = " + threads + " available cores" : threads));
    }
    mergeEvery = o.longValue("--merge-every", DEFAULT_MERGE_EVERY);
    if (mergeEvery < 0 || mergeEvery > Integer.MAX_VALUE) {
      throw new UsageException(
          "--merge-every must be between 0 and " + Integer.MAX_VALUE + ", got " + mergeEvery);
    }
    if (threads > 1 && o.has("--dense")) {
      throw new UsageException("--threads trains on sparse rows; drop --dense");
    }
    if (threads > 1 && (progressiveOut != null || ties != Scoring.Ties.HALF)) {
      throw new UsageException(
          "--threads scores each thread's shard by the default tie rule and writes no "
              + "per-example predictions; drop --progressive-out and --ties, or train on one thread");
    }
    modelOut = path(o, "--model");
    saveState = path(o, "--save-state");
    initial = path(o, "--initial");
    invertHash = path(o, "--invert-hash");
    holdoutPeriod = o.positiveInt("--holdout-period", 0);
    dense = o.has("--dense");
    normalize = o.has("--normalize");
    dimension = o.positiveInt("--dimension", 0);
    if (o.has("--holdout-period") && holdoutPeriod < 2) {
      throw new UsageException(
          "--holdout-period must be at least 2 (1 would hold out every example), got "
              + holdoutPeriod);
    }
    if (threads > 1 && (saveState != null || initial != null || holdoutPeriod > 0)) {
      throw new UsageException(
          "--save-state, --initial and --holdout-period train on one thread; drop --threads");
    }
    if ((saveState != null || initial != null) && !Rules.names().contains(spec.name())) {
      throw new UsageException(
          spec.name()
              + " (the baseline) keeps no resumable state; --save-state and --initial"
              + " need one of the rules: "
              + String.join(", ", Rules.names()));
    }
    if (progressiveOut != null) {
      OutputFiles.refuseOverwritingAnInput(
          "--progressive-out",
          progressiveOut,
          "--data",
          data,
          "--test",
          testFile,
          "--initial",
          initial);
    }
    OutputFiles.checkOutput(
        "--model", modelOut, "--data", data, "--test", testFile, "--initial", initial);
    OutputFiles.refuseSameFileAsProgressive(progressiveOut, "--model", modelOut, "model");
    OutputFiles.refuseSameFileAsProgressive(progressiveOut, "--save-state", saveState, "state");
    OutputFiles.refuseSameFileAsProgressive(
        progressiveOut, "--invert-hash", invertHash, "readable model");
    OutputFiles.checkOutput(
        "--save-state", saveState, "--data", data, "--test", testFile, "--model", modelOut);
    OutputFiles.checkOutput(
        "--invert-hash",
        invertHash,
        "--data",
        data,
        "--test",
        testFile,
        "--model",
        modelOut,
        "--save-state",
        saveState,
        "--initial",
        initial);
    if (initial == null) {
      state = null;
      resumed = null;
      return;
    }
    state = TrainingState.load(initial);
    resumed = RunSettings.of(state, initial);
    ResumeChecks.requireSame(
        o,
        new ResumeChecks.Requested(spec, precision, loss, labels, dimension, format),
        resumed,
        initial);
    precision = resumed.precision();
    type = precision.inputType();
    loss = resumed.loss();
    spec = resumed.spec();
    format = resumed.input();
    labels = resumed.labels();
    dense = resumed.dense();
    normalize = resumed.normalize();
  }

  private static Path path(Options o, String flag) {
    return o.get(flag) == null ? null : Path.of(o.get(flag));
  }

  static int run(String[] args, PrintStream out, PrintStream err, PrintStream progress)
      throws UsageException, Failure {
    Options o = TrainUsage.parse(args);
    if (o.has("--help")) {
      out.print(TrainUsage.TEXT);
      return 0;
    }
    return new TrainCommand(o).train(out, progress);
  }

  private int train(PrintStream out, PrintStream progress) throws UsageException, Failure {
    int d = resumed != null ? resumed.d() : dimension;
    LibSvmReader.Limits limits =
        resumed != null
            ? inputLimits(type, normalize, 0)
                .withMaxDimension(
                    d,
                    ", the dimension of the state in "
                        + initial
                        + " (give a first run --dimension N to leave room for later features)")
            : inputLimits(type, normalize, d);
    InvertHash names = invertHash == null ? null : new InvertHash();
    SparseDataset train = format.read(data, d, VwReader.DEFAULT_BITS, limits, names);
    if (train.size() == 0) {
      throw new Failure(data + " has no examples");
    }
    if (labels == null) {
      labels = LabelMap.auto(train, true);
    }
    train = labels.apply(train, data.toString());
    SparseDataset test =
        testFile == null
            ? null
            : labels.apply(
                format.read(
                    testFile,
                    train.dimension(),
                    InputFormat.bitsOf(train.dimension()),
                    limits,
                    null),
                testFile.toString());
    if (normalize) {
      train = Datasets.normalizeRows(train);
      test = test == null ? null : Datasets.normalizeRows(test);
    }
    TrainerConfig cfg =
        new TrainerConfig(spec, type, loss, epochs, seed, !options.has("--no-shuffle"), dense)
            .withPrecision(precision);
    boolean multiclass = resumed != null ? resumed.multiclass() : !train.isBinary();
    TrainResult r;
    Scoring prog;
    Holdout holdout = null;
    try (Writer progWriter = OutputFiles.open(progressiveOut)) {
      prog = new Scoring(ties, multiclass, progWriter);
      // The parallel trainer has no per-example hook: its threads score their own shards.
      boolean scoreHere =
          threads == 1 && (multiclass || ties != Scoring.Ties.HALF || progWriter != null);
      if (threads > 1) {
        TrainingMode mode =
            options.has("--deterministic") || options.has("--merge-every")
                ? TrainingMode.MIXING
                : ParallelTraining.fastest(cfg);
        r = ParallelTraining.train(cfg, threads, mode, (int) mergeEvery, train, test);
      } else {
        try (Learner learner = learner(cfg, train, test, multiclass)) {
          holdout =
              holdoutPeriod == 0
                  ? null
                  : new Holdout(
                      train, holdoutPeriod, type, loss, multiclass, learner.outputs(), ties);
          r =
              learner.train(
                  train,
                  test,
                  options.has("--json") ? null : progress,
                  scoreHere ? prog : null,
                  holdout);
          if (saveState != null) {
            new TrainingState(settings(train, multiclass, learner, r).toMap(), learner.images())
                .save(saveState);
          }
        } finally {
          if (holdout != null) {
            holdout.close();
          }
        }
      }
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
    if (modelOut != null) {
      try {
        r.model().save(modelOut);
      } catch (IOException e) {
        throw new Failure(e.getMessage()); // names the file and the reason; the old file is intact
      }
    }
    if (names != null) {
      names.write(invertHash, r.model(), format.isVw(data) ? null : train);
    }
    new TrainReport(this, cfg, train, r, prog, testScores, holdout).print(out);
    return 0;
  }

  /** A fresh learner for the data, or one resumed from the {@code --initial} state. */
  private Learner learner(
      TrainerConfig cfg, SparseDataset train, SparseDataset test, boolean multiclass)
      throws Failure {
    if (resumed != null) {
      return Learner.resume(state, resumed, cfg, initial);
    }
    int d = Math.max(1, Math.max(train.dimension(), test == null ? 0 : test.dimension()));
    int classes =
        multiclass
            ? Math.max(train.numClasses(), test == null || test.isBinary() ? 0 : test.numClasses())
            : 1;
    return new Learner(cfg, d, multiclass, classes);
  }

  /** The settings a {@code --save-state} file records after this run. */
  private RunSettings settings(
      SparseDataset train, boolean multiclass, Learner learner, TrainResult r) {
    long before = resumed == null ? 0 : resumed.examples();
    String f = format.isVw(data) ? "vw" : "libsvm";
    InputFormat in =
        new InputFormat(
            f,
            f.equals("vw") ? InputFormat.bitsOf(learner.dimension()) : 0,
            format.signed(),
            format.namespaces());
    return new RunSettings(
        spec,
        precision,
        loss,
        dense,
        learner.dimension(),
        learner.outputs(),
        multiclass,
        labels,
        normalize,
        in,
        before + r.examples());
  }

  /**
   * What {@code train} accepts: feature values within the optimizers' input limit of {@code type}
   * (unless rows are normalized first), indices up to {@code dimension} or, without it, up to
   * {@link #DEFAULT_MAX_DIMENSION}.
   */
  static LibSvmReader.Limits inputLimits(ElementType type, boolean normalize, int dimension) {
    LibSvmReader.Limits l = LibSvmReader.Limits.NONE;
    if (!normalize) {
      l =
          l.withMaxMagnitude(
              InputPolicy.magnitudeLimit(type),
              ", the largest input magnitude "
                  + type.name().toLowerCase(Locale.ROOT)
                  + " training accepts ("
                  + (type == ElementType.FLOAT ? "2^40" : "2^480")
                  + "): rescale that feature, or use --normalize"
                  + (type == ElementType.FLOAT ? " or --type double" : ""));
    }
    return dimension > 0
        ? l.withMaxDimension(dimension, ", the dimension given by --dimension")
        : l.withMaxDimension(
            DEFAULT_MAX_DIMENSION,
            ", the largest dimension train accepts without --dimension"
                + " (the model's state grows with it): give --dimension N to train a larger model");
  }
}
