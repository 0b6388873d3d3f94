package org.onlinekernels.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.AtomicFiles;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.optimizer.Precision;
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

  static final String USAGE =
      String.join(
          "\n",
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
          "  --interactions ab   vw: cross namespaces a and b (first letters; repeatable; alias -q ab;",
          "                      :: crosses every pair), hashed as VW does (docs/CLI.md)",
          "  --ignore abc        vw: drop the namespaces starting with a, b or c",
          "  --keep abc          vw: keep only the namespaces starting with a, b or c",
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
          "  --seed S            seed of the shuffling (default " + Main.DEFAULT_SEED + ")",
          "  --no-shuffle        visit rows in file order (default: a fresh seeded order every epoch;",
          "                      demo, which compares algorithms on one order, never shuffles)",
          "  --ties T            half (default): a tie counts as half an error; error: as a whole one",
          "  --progressive-out FILE  write every training example's progressive prediction, one line",
          "                      each in visiting order: EPOCH ROW LABEL [CLASS] SCORE... (ROW: 1-based",
          "                      example number in the file; CLASS: multiclass prediction)",
          "  --dense             feed dense rows (d elements) instead of sparse index/value rows",
          "  --threads T         train on T threads, or auto: one per available core (default 1; at most",
          "                      "
              + MAX_THREADS
              + ": each thread holds a learner and a shard); the",
          "                      fastest mode for the rule: shared state, lock-free (not reproducible),",
          "                      or parameter mixing where shared state would lock; docs/parallel/README.md",
          "  --deterministic     with --threads: iterative parameter mixing, bit-reproducible for fixed",
          "                      T and N (docs/MERGING.md)",
          "  --merge-every N     with --threads: parameter mixing (as --deterministic), the threads'",
          "                      learners merged every N examples (default "
              + DEFAULT_MERGE_EVERY
              + "; 0: once per epoch)",
          "  --normalize         scale every row (train and test) to unit Euclidean norm first",
          "  --model FILE        save the final model there (format: docs/MODEL_FORMAT.md)",
          "  --save-state FILE   save the whole training state there (optimizer state, settings, label",
          "                      map, hashing) to continue from later; may be the --initial file",
          "  --initial FILE      continue from a state saved by --save-state: its rule, parameters, type,",
          "                      loss, labels, dimension and hashing apply (same flags allowed, others",
          "                      refused); one run on A then this one on B equals one run on A then B",
          "  --holdout-period N  hold out rows N, 2N, ... (not trained; scored as the run goes, as VW",
          "                      does) and report their loss beside the progressive loss; N >= 2",
          "  --invert-hash FILE  write every feature seen with its index, sign and weight per output",
          "  --dimension N       model dimension; feature indices up to N (default: the largest index,",
          "                      which must then be at most " + DEFAULT_MAX_DIMENSION + ")",
          "  --json              print a one-line JSON summary instead of text",
          "  --help              print this text",
          "");

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
    checkOutput("--model", modelOut, "--data", data, "--test", testFile, "--initial", initial);
    refuseSameFileAsProgressive("--model", modelOut, "model");
    refuseSameFileAsProgressive("--save-state", saveState, "state");
    refuseSameFileAsProgressive("--invert-hash", invertHash, "readable model");
    checkOutput("--save-state", saveState, "--data", data, "--test", testFile, "--model", modelOut);
    checkOutput(
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

  /**
   * Refuses an output file that is also the {@code --progressive-out} file: one would replace the
   * other.
   */
  private void refuseSameFileAsProgressive(String flag, Path file, String what)
      throws UsageException {
    if (progressiveOut != null && file != null && OutputFiles.sameFile(progressiveOut, file)) {
      throw new UsageException(
          "--progressive-out and "
              + flag
              + " are the same file "
              + file
              + ": the "
              + what
              + " would replace the predictions; choose two paths");
    }
  }

  /** Refuses an output that names an input, and one that cannot be written, before any work. */
  private static void checkOutput(String flag, Path file, Object... inputs)
      throws UsageException, Failure {
    if (file == null) {
      return;
    }
    OutputFiles.refuseOverwritingAnInput(flag, file, inputs);
    try {
      AtomicFiles.checkWritable(file); // before training, not after it
    } catch (IOException e) {
      throw new Failure(e.getMessage());
    }
  }

  static int run(String[] args, PrintStream out, PrintStream err, PrintStream progress)
      throws UsageException, Failure {
    Set<String> valued =
        new java.util.HashSet<>(
            Set.of(
                "--data",
                "--test",
                "--algorithm",
                "--param",
                "--loss",
                "--type",
                "--epochs",
                "--seed",
                "--model",
                "--labels",
                "--ties",
                "--progressive-out",
                "--threads",
                "--merge-every",
                "--dimension",
                "--save-state",
                "--initial",
                "--holdout-period",
                "--invert-hash"));
    valued.addAll(InputFormat.OPTIONS);
    Options o =
        Options.parse(
            InputFormat.aliases(args),
            0,
            Set.of("--no-shuffle", "--dense", "--normalize", "--json", "--deterministic"),
            valued,
            Set.of("--param", "--interactions"));
    if (o.has("--help")) {
      out.print(USAGE);
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
