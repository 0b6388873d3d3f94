package org.onlinekernels.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.data.RowBlock;
import org.onlinekernels.data.RowFeed;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.io.RowCache;
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
import org.onlinekernels.trainer.parallel.SharedStateTrainer;
import org.onlinekernels.trainer.parallel.ThreadChoice;

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

  /** Default {@code --shuffle-buffer}: 65,536 rows. */
  static final int DEFAULT_SHUFFLE_BUFFER = 1 << 16;

  /**
   * Default {@code --parser-threads}: one per available core beside the learner's, at least one, at
   * most four.
   */
  static int defaultParserThreads() {
    return Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors() - 1));
  }

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

  /**
   * {@code --threads}: the threads asked for; with {@code auto}, the available cores until the run
   * knows its input, then what {@link ThreadChoice} picked.
   */
  int threads;

  /** {@code --threads auto}: the count is chosen once the input is known. */
  final boolean autoThreads;

  /** Why the run trains on {@link #threads} threads ({@code --threads auto}), or null. */
  String threadsReason;

  final long mergeEvery;
  final Path modelOut;
  final Path saveState;
  final Path initial;
  final Path invertHash;
  final int holdoutPeriod;

  /** Whether every epoch visits the rows in a fresh seeded order (not {@code --no-shuffle}). */
  final boolean shuffle;

  /**
   * {@code --shuffle-buffer}: the rows read ahead and held for shuffling; an input of at most this
   * many rows is trained in memory (a full shuffle per epoch), a longer one as a stream.
   */
  final int shuffleBuffer;

  /** {@code --parser-threads}: threads parsing the text beside the learner. */
  final int parserThreads;

  /** {@code --cache}: the binary cache of the parsed rows, or null. */
  final Path cacheFile;

  /** The settings of the {@code --initial} state, or null. */
  final RunSettings resumed;

  final TrainingState state;
  boolean dense;
  boolean normalize;
  final int dimension;

  /**
   * The learner made before the read-ahead ({@link #earlyLearner}) while an input that fit in
   * memory has not yet picked its own: in-memory training adopts it where it is the learner that
   * training would make ({@link #learner}), else drops it; closed at the end of the run if neither
   * happened.
   */
  private Learner spare;

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
    // With --initial and no --algorithm, --param belongs to the state's rule: read with the state.
    spec =
        o.get("--algorithm") == null && o.get("--initial") != null
            ? null
            : Choices.algorithm(
                o.get("--algorithm") == null ? DEFAULT_ALGORITHM : o.get("--algorithm"),
                o.all("--param"),
                precision);
    format = InputFormat.parse(o);
    labels = LabelMap.parse(o.get("--labels"));
    ties = Scoring.Ties.parse(o.get("--ties"));
    progressiveOut = path(o, "--progressive-out");
    epochs = o.positiveInt("--epochs", 1);
    seed = o.longValue("--seed", Main.DEFAULT_SEED);
    autoThreads = "auto".equals(o.get("--threads"));
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
    holdoutPeriod = o.wholeNumber("--holdout-period", 0);
    shuffle = !o.has("--no-shuffle");
    shuffleBuffer = o.positiveInt("--shuffle-buffer", DEFAULT_SHUFFLE_BUFFER);
    parserThreads =
        "auto".equals(o.get("--parser-threads"))
            ? defaultParserThreads()
            : o.positiveInt("--parser-threads", defaultParserThreads());
    if (parserThreads > MAX_THREADS) {
      throw new UsageException(
          "--parser-threads must be at most " + MAX_THREADS + ", got " + parserThreads);
    }
    cacheFile = path(o, "--cache");
    if (cacheFile != null && o.has("--invert-hash")) {
      throw new UsageException(
          "--invert-hash needs the feature names of the text, which a --cache does not keep;"
              + " drop one of them");
    }
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
    if (threads > 1 && spec != null && !Rules.names().contains(spec.name())) {
      // A usage error, before any data is read (the parallel trainer refused it: exit 1).
      throw new UsageException(
          "--threads trains one of the rules in parallel; "
              + spec.name()
              + " (the baseline) has no merge rule (docs/MERGING.md)");
    }
    if ((saveState != null || initial != null)
        && spec != null
        && !Rules.names().contains(spec.name())) {
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
    if (cacheFile != null) {
      OutputFiles.refuseOverwritingAnInput(
          "--cache", cacheFile, "--data", data, "--test", testFile, "--initial", initial);
      OutputFiles.checkOutput(
          "--cache",
          cacheFile,
          "--model",
          modelOut,
          "--save-state",
          saveState,
          "--progressive-out",
          progressiveOut);
    }
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
    AlgorithmSpec requested =
        spec != null
            ? spec
            : Choices.algorithm(resumed.spec().name(), o.all("--param"), resumed.precision());
    ResumeChecks.requireSame(
        o,
        new ResumeChecks.Requested(requested, precision, loss, labels, dimension, format),
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
    LibSvmReader.Limits limits = limitsForRun(d);
    boolean vw = format.isVw(data);
    if (!vw && (format.bits() != 0 || !format.signed() || format.namespaces().any())) {
      throw new UsageException(
          (format.namespaces().any() ? "--interactions, --ignore and --keep" : "--bits and --hash")
              + " apply to Vowpal Wabbit files (--format vw or a .vw name), not to "
              + data);
    }
    int bits =
        !vw
            ? 0
            : resumed != null
                ? InputFormat.bitsOf(resumed.d())
                : format.bits() != 0 ? format.bits() : VwReader.DEFAULT_BITS;
    InvertHash names = invertHash == null ? null : new InvertHash();
    java.util.Map<String, String> key = cacheKey(vw, bits, limits);
    StreamInput text = null;
    RowFeed first = null;
    RowCache.Writer writer = null;
    Learner early = null;
    boolean streaming = false;
    try {
      if (cacheFile != null && Files.exists(cacheFile)) {
        if (StreamInput.stdin(data)) {
          throw new Failure(
              "--cache "
                  + cacheFile
                  + " exists, and a cache cannot be checked against standard input: delete it"
                  + " to write a new one, or read a file");
        }
        first = CacheReading.open(cacheFile, key);
      } else {
        text = StreamInput.open(data, vw, format, bits, limits, names, parserThreads);
        first = text;
        if (cacheFile != null) {
          writer = RowCache.create(cacheFile, key);
        }
      }
      RowStore store = new RowStore();
      early = earlyLearner(vw ? 1 << bits : d);
      boolean all = store.fill(first, shuffleBuffer, writer == null ? null : writer::write);
      if (all) {
        if (writer != null) {
          writer.commit();
        }
        // In-memory training adopts it or drops it (its state is as large as the model).
        spare = early;
        early = null;
        return trainInMemory(store.dataset(vw ? 1 << bits : d), names, out, progress);
      }
      streaming = true;
      if (autoThreads) {
        choose(ThreadChoice.stream(threads));
      }
      Learner given = early;
      early = null;
      return trainStream(store, text, first, writer, given, vw, bits, d, key, names, out, progress);
    } catch (IOException e) {
      if (e.getMessage() != null
          && (e.getMessage().startsWith(data.toString())
              || cacheFile != null && e.getMessage().startsWith(cacheFile.toString()))) {
        throw new Failure(e.getMessage());
      }
      throw StreamInput.failure(data.toString(), e);
    } finally {
      if (!streaming) {
        closeQuietly(writer, first, early, spare);
        spare = null;
      }
    }
  }

  /**
   * Drops the learner made before the read-ahead, and its state with a collection ({@link
   * HeapRelease}), before a run allocates another.
   */
  private void dropSpare() {
    if (spare != null) {
      closeQuietly(spare);
      spare = null;
      HeapRelease.now();
    }
  }

  /**
   * The learner of a streamed run, made before the read-ahead wherever its dimension is known up
   * front (Vowpal Wabbit's {@code --bits}, LIBSVM's {@code --dimension}, an {@code --initial}
   * state), for binary labels (a multiclass run makes its own): its state, one heap block as large
   * as the model, is then allocated while the heap is empty. Made after the read-ahead it needs
   * that much free heap in one piece beside the read-ahead's rows, which sit in the old generation
   * (in G1: in regions between the free ones), so a heap with room for both in total refused it.
   * Null where the dimension is not known, and with {@code --threads} (each thread makes its own).
   */
  private Learner earlyLearner(int dim) throws Failure {
    // With --threads auto a stream trains on one thread (ThreadChoice.stream).
    if (threads > 1 && !autoThreads || dim <= 0) {
      return null;
    }
    TrainerConfig cfg = streamConfig().withShuffle(false, seed);
    return resumed != null
        ? Learner.resume(state, resumed, cfg, initial)
        : new Learner(cfg, dim, false, 1);
  }

  /** The trainer's settings of a streamed run (it shuffles through its own buffer). */
  private TrainerConfig streamConfig() {
    return new TrainerConfig(spec, type, loss, epochs, seed, shuffle, dense)
        .withPrecision(precision);
  }

  private static void closeQuietly(AutoCloseable... all) {
    for (AutoCloseable a : all) {
      try {
        if (a != null) {
          a.close();
        }
      } catch (Exception e) {
        // The run's outcome is decided already.
      }
    }
  }

  /** What a cache of this run's rows must have been written with ({@link RowCache}). */
  private java.util.Map<String, String> cacheKey(boolean vw, int bits, LibSvmReader.Limits limits) {
    java.util.Map<String, String> k = new java.util.LinkedHashMap<>();
    k.put("source", StreamInput.stdin(data) ? "-" : data.toAbsolutePath().normalize().toString());
    try {
      if (!StreamInput.stdin(data) && Files.isRegularFile(data)) {
        k.put("size", Long.toString(Files.size(data)));
        k.put("modified", Files.getLastModifiedTime(data).toString());
      }
    } catch (IOException e) {
      // An unreadable file fails when it is opened.
    }
    k.put("format", vw ? "vw" : "libsvm");
    if (vw) {
      k.put("bits", Integer.toString(bits));
      k.put("hash", format.signed() ? "signed" : "unsigned");
      k.put("interactions", format.namespaces().interactions());
      k.put("ignore", format.namespaces().ignore());
      k.put("keep", format.namespaces().keep());
    }
    k.put("max-value", Double.toString(limits.maxMagnitude()));
    k.put("max-index", Integer.toString(limits.maxDimension()));
    return k;
  }

  /** The run on an input that fits the shuffle buffer, held in memory (a full shuffle). */
  private int trainInMemory(
      SparseDataset train, InvertHash names, PrintStream out, PrintStream progress)
      throws UsageException, Failure {
    int d = resumed != null ? resumed.d() : dimension;
    LibSvmReader.Limits limits = limitsForRun(d);
    if (train.size() == 0) {
      throw new Failure(data + " has no examples");
    }
    if (holdoutPeriod > train.size()) {
      throw new UsageException(
          "--holdout-period "
              + holdoutPeriod
              + " holds out no row: "
              + data
              + " has "
              + train.size()
              + " examples; give at most "
              + train.size());
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
        new TrainerConfig(spec, type, loss, epochs, seed, shuffle, dense).withPrecision(precision);
    boolean multiclass = resumed != null ? resumed.multiclass() : !train.isBinary();
    if (autoThreads) {
      int outputs = multiclass ? Datasets.shape(train, test).classes() : 1;
      choose(
          ThreadChoice.auto(
              threads,
              train.size(),
              train.totalNonZeros(),
              epochs,
              outputs,
              spec.name(),
              SharedStateTrainer.keepsHotRecords(cfg, Math.max(2, threads))));
    }
    TrainResult r;
    TrainReport.Shape shape = null;
    Scoring prog;
    Holdout holdout = null;
    try (Writer progWriter = OutputFiles.open(progressiveOut)) {
      prog = new Scoring(ties, multiclass, progWriter);
      // The parallel trainer has no per-example hook: its threads score their own shards.
      boolean scoreHere =
          threads == 1 && (multiclass || ties != Scoring.Ties.HALF || progWriter != null);
      if (threads > 1) {
        dropSpare();
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
                  holdout,
                  needsModel());
          shape = TrainReport.Shape.of(learner);
          if (saveState != null) {
            TrainingState.save(
                saveState, settings(multiclass, learner, r).toMap(), learner.resumables());
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
    save(r);
    if (names != null) {
      names.write(invertHash, r.model(), format.isVw(data) ? null : indicesOf(train));
    }
    new TrainReport(
            this,
            cfg,
            train.size(),
            !train.isBinary(),
            shape != null ? shape : TrainReport.Shape.of(r.model()),
            r,
            prog,
            testScores,
            holdout)
        .print(out);
    return 0;
  }

  /** Trains on the threads {@code --threads auto} picked. */
  private void choose(ThreadChoice c) {
    threads = c.threads();
    threadsReason = c.reason();
  }

  private static java.util.BitSet indicesOf(SparseDataset data) {
    java.util.BitSet seen = new java.util.BitSet();
    for (int i : data.indices()) {
      seen.set(i);
    }
    return seen;
  }

  /**
   * Whether the run needs the trained model's weights: to write them ({@code --model}, {@code
   * --invert-hash}) or to score a {@code --test} file. Without, a single-thread run reads no weight
   * out of the optimizers' state (a small job's largest end-of-run cost at {@code --bits 22}).
   */
  boolean needsModel() {
    return modelOut != null || invertHash != null || testFile != null;
  }

  /** Writes the model file, if asked for. */
  private void save(TrainResult r) throws Failure {
    if (modelOut != null) {
      try {
        r.model().save(modelOut);
      } catch (IOException e) {
        throw new Failure(e.getMessage()); // names the file and the reason; the old file is intact
      }
    }
  }

  /**
   * The run on an input longer than the shuffle buffer: its labels and dimension decided before the
   * first update (docs/CLI.md, "Streaming"), then trained as it is read ({@link StreamTrain}).
   */
  private int trainStream(
      RowStore store,
      StreamInput text,
      RowFeed first,
      RowCache.Writer writer,
      Learner early,
      boolean vw,
      int bits,
      int d,
      java.util.Map<String, String> key,
      InvertHash names,
      PrintStream out,
      PrintStream progress)
      throws UsageException, Failure, IOException {
    StreamTrain run = null;
    Path cache = cacheFile;
    boolean temporary = false;
    try {
      if (epochs > 1 && cache == null) {
        cache = Files.createTempFile("online-kernels-", ".okrc");
        temporary = true;
        writer = RowCache.create(cache, key);
        store.forEach(writer::write);
      }
      LabelStats stats = new LabelStats();
      int dim;
      if (vw) {
        dim = 1 << bits;
      } else if (d > 0) {
        dim = d;
      } else if (StreamInput.stdin(data)) {
        throw new Failure(
            "standard input holds more than --shuffle-buffer "
                + shuffleBuffer
                + " rows, so it is trained as a stream: give the model's dimension, --dimension N"
                + " (the largest feature index of LIBSVM input)");
      } else {
        dim = Math.max(1, prescan(data, stats));
        if (testFile != null) {
          dim = Math.max(dim, prescan(testFile, null));
        }
      }
      if (stats.rows == 0) {
        double[] y = store.labels();
        for (double v : y) {
          stats.add(v);
        }
      }
      LabelFit fit = labelFit(stats);
      labels = fit.map();
      if (text != null) {
        text.expect(fit);
      }
      if (early != null && resumed == null && (fit.multiclass() || early.dimension() != dim)) {
        early.close();
        early = null;
        HeapRelease.now();
      }
      run = new StreamTrain(this, text, first, store, dim, fit, writer, cache, temporary, key);
      TrainerConfig cfg = streamConfig();
      Learner learner =
          early != null || resumed == null
              ? early
              : Learner.resume(state, resumed, cfg.withShuffle(false, seed), initial);
      early = null;
      StreamTrain.Outcome o = run.run(cfg, progress, learner);
      TrainResult r = o.result();
      save(r);
      if (names != null) {
        names.write(invertHash, r.model(), vw ? null : run.seen());
      }
      long held = o.holdout() == null ? 0 : o.holdout().metrics().examples() / epochs;
      new TrainReport(
              this,
              cfg,
              r.examples() / epochs + held,
              fit.multiclass(),
              o.shape(),
              r,
              o.progressive(),
              o.test(),
              o.holdout())
          .print(out);
      return 0;
    } finally {
      closeQuietly(early);
      if (run != null) {
        run.close();
      } else {
        closeQuietly(writer, first);
        if (temporary) {
          Files.deleteIfExists(cache);
        }
      }
    }
  }

  /** The labels' kinds seen: all +1/-1, all 0/1, all 1/2, the largest class. */
  private static final class LabelStats {
    long rows;
    boolean binary = true;
    boolean only01 = true;
    boolean only12 = true;
    double max = -1;

    void add(double y) {
      rows++;
      binary &= y == 1 || y == -1;
      only01 &= y == 0 || y == 1;
      only12 &= y == 1 || y == 2;
      max = Math.max(max, y);
    }
  }

  /**
   * The labels of a stream: from the state, {@code --labels}, or decided from {@code stats} (the
   * whole file after a pre-scan, else the rows read ahead) by {@link LabelMap#auto}'s rule.
   */
  private LabelFit labelFit(LabelStats stats) {
    if (resumed != null) {
      return new LabelFit(
          resumed.labels(), resumed.multiclass(), resumed.outputs(), "of the state " + initial);
    }
    if (labels != null) {
      return new LabelFit(
          labels, !labels.binary(), labels.binary() ? 1 : labels.size(), LabelFit.GIVEN);
    }
    String decided =
        stats.rows < shuffleBuffer
            ? "decided from the whole file"
            : "decided from the first " + stats.rows + " rows (--shuffle-buffer)";
    if (stats.binary) {
      return new LabelFit(LabelMap.IDENTITY, false, 1, decided);
    }
    LabelMap auto =
        stats.only01
            ? LabelMap.auto(i -> i, 2)
            : stats.only12 ? LabelMap.auto(i -> i + 1, 2) : LabelMap.IDENTITY;
    return auto.binary()
        ? new LabelFit(auto, false, 1, decided)
        : new LabelFit(LabelMap.IDENTITY, true, Math.max(2, (int) stats.max + 1), decided);
  }

  /**
   * Reads a LIBSVM file once, for what a stream must know before its first update: its largest
   * index (the returned dimension) and, into {@code stats} when not null, its labels.
   */
  private int prescan(Path file, LabelStats stats) throws Failure, IOException {
    LibSvmReader.Limits limits = limitsForRun(0);
    int max = -1;
    try (StreamInput in = StreamInput.open(file, false, format, 0, limits, null, parserThreads)) {
      RowBlock b = new RowBlock();
      while (in.next(b)) {
        int[] start = b.startArray();
        for (int r = 0; r < b.size(); r++) {
          if (start[r + 1] > start[r]) {
            max = Math.max(max, b.indexArray()[start[r + 1] - 1]);
          }
          if (stats != null) {
            stats.add(b.label(r));
          }
        }
      }
    }
    return max + 1;
  }

  /**
   * A fresh learner for the data, or one resumed from the {@code --initial} state: the one made
   * before the read-ahead where it is that learner (untrained, same settings, dimension and labels:
   * the same bits), so that a small job makes and zeroes one state, not two.
   */
  private Learner learner(
      TrainerConfig cfg, SparseDataset train, SparseDataset test, boolean multiclass)
      throws Failure {
    int d =
        resumed != null
            ? resumed.d()
            : Math.max(1, Math.max(train.dimension(), test == null ? 0 : test.dimension()));
    if (spare != null && !multiclass && spare.dimension() == d && spare.config().equals(cfg)) {
      Learner adopted = spare;
      spare = null;
      return adopted;
    }
    dropSpare();
    if (resumed != null) {
      return Learner.resume(state, resumed, cfg, initial);
    }
    int classes =
        multiclass
            ? Math.max(train.numClasses(), test == null || test.isBinary() ? 0 : test.numClasses())
            : 1;
    return new Learner(cfg, d, multiclass, classes);
  }

  /** The settings a {@code --save-state} file records after this run. */
  RunSettings settings(boolean multiclass, Learner learner, TrainResult r) {
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

  /** What this run accepts of its input, {@code d} its dimension if known (else 0). */
  LibSvmReader.Limits limitsForRun(int d) {
    return resumed != null
        ? inputLimits(type, normalize, 0)
            .withMaxDimension(
                d,
                ", the dimension of the state in "
                    + initial
                    + " (give a first run --dimension N to leave room for later features)")
        : inputLimits(type, normalize, d);
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
