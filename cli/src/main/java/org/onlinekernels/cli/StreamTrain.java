package org.onlinekernels.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Random;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.data.RowBlock;
import org.onlinekernels.data.RowFeed;
import org.onlinekernels.data.RowSource;
import org.onlinekernels.data.ShuffleFeed;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.io.RowCache;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.TrainingMode;
import org.onlinekernels.trainer.handover.KernelHandover;
import org.onlinekernels.trainer.model.LinearModel;
import org.onlinekernels.trainer.parallel.ParallelTrainer;
import org.onlinekernels.trainer.parallel.ParallelTraining;
import org.onlinekernels.trainer.parallel.SharedStateTrainer;

/**
 * {@code train} over an input larger than its shuffle buffer: the rows are trained as they are
 * parsed, never all held (docs/CLI.md, "Streaming"). Pass 1 reads the text (or a valid {@code
 * --cache}); with {@code --epochs N > 1} it writes the rows to the cache (a temporary one without
 * {@code --cache}) and later passes read it back. Each pass goes through {@link StreamPrep}
 * (labels, normalization, the holdout) and, when shuffling, a {@link ShuffleFeed} of {@code
 * --shuffle-buffer} rows. Memory: the model, the buffer, and a few blocks per parser thread.
 */
final class StreamTrain {
  /** Rows per chunk of a stream trained with {@code --threads}. */
  static final int THREAD_CHUNK = 1 << 14;

  private final TrainCommand c;
  private final StreamInput text;
  private final RowFeed first;
  private final RowStore store;
  private final String name;
  private final int d;
  private final LabelFit labels;
  private final BitSet seen;
  private RowCache.Writer writer;
  private final Path cache;
  private final boolean temporaryCache;
  private final java.util.Map<String, String> key;
  private final Random shuffler;

  /**
   * @param text the text input being read, or null (pass 1 reads an existing cache)
   * @param first pass 1's rows after those in {@code store}
   * @param writer the cache being written in pass 1, or null
   * @param cache the cache later passes read (null: one pass)
   */
  StreamTrain(
      TrainCommand c,
      StreamInput text,
      RowFeed first,
      RowStore store,
      int d,
      LabelFit labels,
      RowCache.Writer writer,
      Path cache,
      boolean temporaryCache,
      java.util.Map<String, String> key) {
    this.c = c;
    this.text = text;
    this.first = first;
    this.store = store;
    this.name = c.data.toString();
    this.d = d;
    this.labels = labels;
    this.seen = c.invertHash != null && !c.format.isVw(c.data) ? new BitSet() : null;
    this.writer = writer;
    this.cache = cache;
    this.temporaryCache = temporaryCache;
    this.key = key;
    this.shuffler = new Random(c.seed);
  }

  /** The indices seen in training rows (LIBSVM {@code --invert-hash}), or null. */
  BitSet seen() {
    return seen;
  }

  /** The rows of pass {@code epoch} (1-based), before {@link StreamPrep}. */
  private RowFeed rawPass(int epoch) throws IOException {
    if (epoch == 1) {
      RowFeed rest = writer == null ? first : tee(first, writer);
      return store.feed(rest);
    }
    commitCache();
    return CacheReading.open(cache, key);
  }

  /** Ends the cache pass 1 wrote, if any. */
  void commitCache() throws IOException {
    if (writer != null) {
      writer.commit();
      writer.close();
      writer = null;
    }
  }

  /** Removes a temporary cache and an unfinished one; closes the input. */
  void close() {
    try {
      if (writer != null) {
        writer.close();
      }
      first.close();
      if (temporaryCache && cache != null) {
        Files.deleteIfExists(cache);
      }
    } catch (IOException e) {
      // Best effort: the run's outcome is already decided.
    }
  }

  private static RowFeed tee(RowFeed feed, RowCache.Writer w) {
    return new RowFeed() {
      @Override
      public boolean next(RowBlock block) throws IOException {
        boolean more = feed.next(block);
        if (more) {
          w.write(block);
        }
        return more;
      }

      @Override
      public double progress() {
        return feed.progress();
      }

      @Override
      public void close() throws IOException {
        feed.close();
      }
    };
  }

  /** The source of the passes: prepared, and shuffled when the run shuffles. */
  private RowSource source(Holdout holdout, Learner learner) {
    return epoch -> {
      StreamPrep.HeldOut scorer =
          holdout == null
              ? null
              : (idx, val, s, e, y, id) ->
                  learner.scoreHeldOut(holdout, idx, val, s, e, y, epoch, id);
      RowFeed prepared =
          new StreamPrep(
              rawPass(epoch), name, labels, c.normalize, holdout, scorer, epoch == 1 ? seen : null);
      return c.shuffle ? new ShuffleFeed(prepared, c.shuffleBuffer, shuffler) : prepared;
    };
  }

  /** The outcome: the result and the scorings the report prints. */
  record Outcome(
      TrainResult result,
      TrainReport.Shape shape,
      Scoring progressive,
      Scoring test,
      Holdout holdout) {}

  /**
   * Trains: the passes, then the test file.
   *
   * @param resumed the learner to train (resumed from a state, or made before the read-ahead),
   *     which this closes; null: a fresh one is made here
   */
  Outcome run(TrainerConfig cfg, PrintStream progress, Learner resumed) throws Failure {
    TrainerConfig inTrainer = cfg.withShuffle(false, cfg.seed());
    boolean multiclass = labels.multiclass();
    int classes = multiclass ? labels.classes() : 1;
    TrainResult r;
    TrainReport.Shape shape;
    Scoring prog;
    Holdout holdout = null;
    try (Writer progWriter = OutputFiles.open(c.progressiveOut)) {
      prog = new Scoring(c.ties, multiclass, progWriter);
      boolean scoreHere =
          c.threads == 1 && (multiclass || c.ties != Scoring.Ties.HALF || progWriter != null);
      if (c.threads > 1) {
        r = parallel(inTrainer, multiclass, classes);
        shape = TrainReport.Shape.of(r.model());
      } else {
        try (Learner learner =
            resumed != null ? resumed : new Learner(inTrainer, d, multiclass, classes)) {
          holdout =
              c.holdoutPeriod == 0
                  ? null
                  : new Holdout(
                      c.holdoutPeriod, d, c.type, c.loss, multiclass, learner.outputs(), c.ties);
          r =
              learner.trainStream(
                  source(holdout, learner),
                  c.options.has("--json") ? null : progress,
                  scoreHere ? prog : null,
                  c.needsModel());
          shape = TrainReport.Shape.of(learner);
          commitCache();
          if (c.saveState != null) {
            TrainingState.save(
                c.saveState, c.settings(multiclass, learner, r).toMap(), learner.resumables());
          }
        } finally {
          if (holdout != null) {
            holdout.close();
          }
        }
      }
      commitCache();
      if (!scoreHere) {
        prog = null;
      }
    } catch (OnlineTrainer.TrainingException | IllegalArgumentException e) {
      throw new Failure(e.getMessage());
    } catch (IOException | java.io.UncheckedIOException e) {
      throw readFailure(e);
    } finally {
      close();
    }
    Scoring testScores = null;
    if (c.testFile != null) {
      testScores = new Scoring(c.ties, multiclass, null);
      Metrics test = test(r.model(), testScores);
      r = withTest(r, test);
      if (prog == null) {
        testScores = null;
      }
    }
    return new Outcome(r, shape, prog, testScores, holdout);
  }

  /** A failure while training: of the input, the cache or the progressive output. */
  private Failure readFailure(Exception e) {
    Throwable t = e instanceof java.io.UncheckedIOException u ? u.getCause() : e;
    if (t instanceof IOException io && !(e instanceof java.io.UncheckedIOException)) {
      if (t.getMessage() != null && t.getMessage().startsWith(name)) {
        return new Failure(t.getMessage());
      }
      if (t.getMessage() != null && cache != null && t.getMessage().startsWith(cache.toString())) {
        return new Failure(t.getMessage());
      }
      return StreamInput.failure(name, io);
    }
    return new Failure("cannot write " + c.progressiveOut + ": " + OutputFiles.reason(e));
  }

  /** The final model on the test file, read as a stream; {@code scores} sees every row. */
  private Metrics test(LinearModel model, Scoring scores) throws Failure {
    boolean vw = c.format.isVw(c.testFile);
    LibSvmReader.Limits limits = c.limitsForRun(d);
    try (StreamInput in =
        StreamInput.open(
            c.testFile, vw, c.format, InputFormat.bitsOf(d), limits, null, c.parserThreads)) {
      LabelFit fit =
          new LabelFit(labels.map(), labels.multiclass(), labels.classes(), labels.decided());
      in.expect(fit);
      RowFeed feed = new StreamPrep(in, c.testFile.toString(), fit, c.normalize, null, null, null);
      int k = model.outputs();
      return Metrics.evaluate(model, feed, (id, y, yhat) -> scores.accept(0, id, y, yhat, k));
    } catch (IOException e) {
      if (e.getMessage() != null && e.getMessage().startsWith(c.testFile.toString())) {
        throw new Failure(e.getMessage());
      }
      throw StreamInput.failure(c.testFile.toString(), e);
    } catch (IllegalArgumentException e) {
      throw new Failure(c.testFile + ": " + e.getMessage());
    }
  }

  private static TrainResult withTest(TrainResult r, Metrics test) {
    return new TrainResult(
        r.model(),
        r.progressive(),
        r.epochs(),
        test,
        r.examples(),
        r.nonzeros(),
        r.seconds(),
        r.steadyExamples(),
        r.steadySeconds(),
        r.handoverAt(),
        r.kernels(),
        r.threads(),
        r.mode(),
        r.threadReport());
  }

  /**
   * {@code --threads T}: the stream cut into chunks of {@value #THREAD_CHUNK} rows (a multiple of
   * {@code --merge-every} in parameter mixing), each trained by the T threads as the parallel
   * trainers train a data set of one epoch, in the stream's order.
   */
  private TrainResult parallel(TrainerConfig cfg, boolean multiclass, int classes)
      throws IOException, Failure {
    TrainerConfig one = cfg.withEpochs(1);
    TrainingMode mode =
        c.options.has("--deterministic") || c.options.has("--merge-every")
            ? TrainingMode.MIXING
            : ParallelTraining.fastest(cfg);
    if (mode == TrainingMode.MIXING && c.mergeEvery == 0) {
      throw new Failure(
          "--merge-every 0 merges once per epoch, which needs the whole epoch in memory; "
              + name
              + " has more rows than --shuffle-buffer "
              + c.shuffleBuffer
              + ": give --merge-every N, or a larger --shuffle-buffer");
    }
    int chunk =
        mode == TrainingMode.MIXING
            ? (int) Math.max(c.mergeEvery, THREAD_CHUNK / c.mergeEvery * c.mergeEvery)
            : THREAD_CHUNK;
    KernelHandover handover = KernelHandover.forConfig(one);
    Metrics[] epochs = new Metrics[c.epochs];
    long examples = 0;
    long nonzeros = 0;
    long t0 = System.nanoTime();
    double steadySeconds = 0;
    long steadyExamples = 0;
    RowSource source = source(null, null);
    try (ParallelTraining.Fit t =
        mode == TrainingMode.SHARED
            ? new SharedStateTrainer(one, c.threads, d, multiclass, classes, handover)
            : new ParallelTrainer(
                one,
                c.threads,
                (int) c.mergeEvery,
                d,
                multiclass,
                classes,
                Integer.MAX_VALUE,
                handover)) {
      for (int e = 0; e < c.epochs; e++) {
        java.util.List<Metrics> parts = new java.util.ArrayList<>();
        try (RowFeed feed = source.open(e + 1)) {
          RowBlock b = new RowBlock();
          SparseDataset.Builder part = new SparseDataset.Builder().minDimension(d);
          int[] idx = new int[64];
          double[] val = new double[64];
          boolean more = true;
          while (more) {
            more = feed.next(b);
            for (int r = 0; r < b.size(); r++) {
              int n = b.nnz(r);
              if (idx.length < n) {
                idx = new int[n];
                val = new double[n];
              }
              System.arraycopy(b.indexArray(), b.rowStart(r), idx, 0, n);
              System.arraycopy(b.valueArray(), b.rowStart(r), val, 0, n);
              part.addRow(b.label(r), idx, val, n);
            }
            if (part.size() >= chunk || (!more && part.size() > 0)) {
              SparseDataset data = part.build();
              long t1 = System.nanoTime();
              Metrics m = t.fit(data)[0];
              steadySeconds += (System.nanoTime() - t1) / 1e9;
              parts.add(m);
              examples += data.size();
              nonzeros += data.totalNonZeros();
              part = new SparseDataset.Builder().minDimension(d);
            }
          }
        }
        epochs[e] = Metrics.combine(parts.toArray(new Metrics[0]));
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      steadyExamples = examples;
      return new TrainResult(
          t.model(),
          Metrics.combine(epochs),
          epochs,
          null,
          examples,
          nonzeros,
          seconds,
          steadyExamples,
          steadySeconds,
          -1,
          null,
          c.threads,
          mode,
          t.threadReport());
    }
  }
}
