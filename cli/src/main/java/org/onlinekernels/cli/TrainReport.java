package org.onlinekernels.cli;

import java.io.PrintStream;
import java.util.Locale;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.TrainingMode;
import org.onlinekernels.trainer.handover.KernelHandover;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * What {@code train} prints: the text report or the one-line JSON summary of a finished run.
 *
 * @param c the command, with its options
 * @param cfg the trainer configuration it ran
 * @param n the training file's rows (held-out ones included)
 * @param multiclass whether the labels are classes
 * @param shape the trained model's dimension and outputs (the result may carry no model: {@link
 *     TrainCommand#needsModel})
 * @param r the result
 * @param prog the progressive scoring under the tie rule, or {@code null} when the trainer's own
 *     counts stand
 * @param testScores the test scoring under the tie rule, or {@code null} likewise
 * @param holdout the held-out examples' scoring, or {@code null} without {@code --holdout-period}
 */
record TrainReport(
    TrainCommand c,
    TrainerConfig cfg,
    long n,
    boolean multiclass,
    Shape shape,
    TrainResult r,
    Scoring prog,
    Scoring testScores,
    Holdout holdout) {

  /**
   * A trained model's shape, known without its weights.
   *
   * @param d dimension
   * @param outputs outputs {@code K}
   * @param multiclass whether the outputs are classes (one-vs-rest)
   */
  record Shape(int d, int outputs, boolean multiclass) {
    static Shape of(LinearModel m) {
      return new Shape(m.dimension(), m.outputs(), m.multiclass());
    }

    static Shape of(Learner l) {
      return new Shape(l.dimension(), l.outputs(), l.multiclass());
    }
  }

  void print(PrintStream out) {
    double progError = prog == null ? r.progressive().errorRate() : prog.errorRate();
    double testError =
        testScores == null
            ? (r.test() == null ? Double.NaN : r.test().errorRate())
            : testScores.errorRate();
    String lossName = Scoring.lossName(c.loss, multiclass);
    if (c.options.has("--json")) {
      Json j =
          new Json()
              .put("command", "train")
              .put("algorithm", c.spec.name())
              .put("params", c.spec.paramString())
              .put("type", c.precision.name().toLowerCase(Locale.ROOT))
              .put("loss", lossName)
              .put("kernels", KernelProvider.get().name())
              .put("epochs", c.epochs)
              .put("seed", c.seed)
              .put("shuffle", cfg.shuffle())
              .put("dense", cfg.dense())
              .put("threads", c.threads)
              .put("threads_reason", c.threadsReason)
              .put("mode", r.mode().label())
              .put("merge_every", r.mode() == TrainingMode.MIXING ? c.mergeEvery : Double.NaN)
              .put("data", c.data.toString())
              .put("n", n)
              .put("d", shape.d())
              .put("outputs", shape.outputs())
              .put(
                  "labels",
                  c.labels.description() == null
                      ? (multiclass ? "classes" : "+1/-1")
                      : c.labels.description())
              .put("ties", c.ties.name().toLowerCase(Locale.ROOT))
              .put("format", c.format.isVw(c.data) ? "vw" : "libsvm")
              .put(
                  "namespaces",
                  c.format.namespaces().any() ? c.format.namespaces().describe() : null)
              .put("progressive", metrics(r.progressive(), progError, prog))
              .put(
                  "holdout",
                  holdout == null
                      ? null
                      : metrics(holdout.metrics(), holdout.metrics().errorRate(), holdout.scoring())
                          .put("period", c.holdoutPeriod))
              .put(
                  "test",
                  r.test() == null
                      ? null
                      : metrics(r.test(), testError, testScores).put("file", c.testFile.toString()))
              .put("progressive_out", c.progressiveOut == null ? null : c.progressiveOut.toString())
              .put("examples", r.examples())
              .put("nonzeros", r.nonzeros())
              .put("seconds", r.seconds())
              .put("examples_per_second", r.rateMeasured() ? r.examplesPerSecond() : Double.NaN)
              .put("nonzeros_per_second", r.rateMeasured() ? r.nonzerosPerSecond() : Double.NaN)
              .put("steady_examples", r.steadyExamples())
              .put("steady_seconds", r.steadySeconds())
              .put(
                  "steady_examples_per_second",
                  r.steadyRateMeasured() ? r.steadyExamplesPerSecond() : Double.NaN)
              .put("handover_at", r.handoverAt() < 0 ? Double.NaN : r.handoverAt())
              .put("kernels_at_end", r.kernels())
              .put("thread_report", ThreadLines.json(r.threadReport()))
              .put("model", c.modelOut == null ? null : c.modelOut.toString())
              .put("initial", c.initial == null ? null : c.initial.toString())
              .put("examples_before", c.resumed == null ? 0 : c.resumed.examples())
              .put("state", c.saveState == null ? null : c.saveState.toString())
              .put("invert_hash", c.invertHash == null ? null : c.invertHash.toString());
      out.println(j);
    } else {
      out.printf(
          Locale.ROOT,
          "data: %s; n = %d, d = %d, %s%n",
          c.data,
          n,
          shape.d(),
          shape.multiclass() ? shape.outputs() + " classes (one-vs-rest)" : "binary labels");
      if (c.labels.description() != null) {
        out.println("labels: " + c.labels.description());
      }
      if (c.format.namespaces().any()) {
        out.println("namespaces: " + c.format.namespaces().describe());
      }
      if (c.resumed != null) {
        out.printf(
            Locale.ROOT,
            "resumed from: %s (%d examples trained before)%n",
            c.initial,
            c.resumed.examples());
      }
      out.printf(
          Locale.ROOT,
          "algorithm: %s%s; %s elements, %s loss, %d epoch(s), %s, %s%n",
          c.spec.name(),
          c.spec.params().isEmpty() ? " (defaults)" : " " + c.spec.paramString(),
          c.precision.name().toLowerCase(Locale.ROOT),
          c.loss.name().toLowerCase(Locale.ROOT),
          c.epochs,
          cfg.shuffle() ? "shuffled (seed " + c.seed + ")" : "file order",
          kernelsLine(r));
      if (r.mode() == TrainingMode.MIXING) {
        out.printf(
            Locale.ROOT,
            "threads: %d, parameter mixing, learners merged every %s (docs/MERGING.md)%n",
            c.threads,
            c.mergeEvery == 0 ? "epoch" : c.mergeEvery + " examples");
      } else if (r.mode() == TrainingMode.SHARED) {
        out.printf(
            Locale.ROOT, "threads: %d, one shared state (docs/parallel/README.md)%n", c.threads);
      }
      if (c.threadsReason != null) {
        out.println("threads chosen: " + c.threadsReason);
      }
      out.printf(
          Locale.ROOT,
          "progressive: %s%n",
          Scoring.line(lossName, r.progressive(), progError, prog, c.ties));
      if (holdout != null) {
        Metrics h = holdout.metrics();
        out.printf(
            Locale.ROOT,
            "holdout (rows %d, %d, ...; n = %d): %s%n",
            c.holdoutPeriod,
            2 * c.holdoutPeriod,
            h.examples(),
            Scoring.line(lossName, h, h.errorRate(), holdout.scoring(), c.ties));
        out.println("holdout cost: " + holdout.cost());
      }
      if (r.test() != null) {
        out.printf(
            Locale.ROOT,
            "test (%s, n = %d): %s%n",
            c.testFile,
            r.test().examples(),
            Scoring.line(lossName, r.test(), testError, testScores, c.ties));
      }
      if (c.progressiveOut != null) {
        out.println("progressive predictions: " + c.progressiveOut);
      }
      out.println(throughput(r));
      if (c.options.has("--verbose")) {
        ThreadLines.text(r.threadReport()).forEach(out::println);
      }
      if (c.modelOut != null) {
        out.println("model: " + c.modelOut);
      }
      if (c.saveState != null) {
        out.printf(
            Locale.ROOT,
            "state: %s (%d examples trained in all)%n",
            c.saveState,
            (c.resumed == null ? 0 : c.resumed.examples()) + r.examples());
      }
      if (c.invertHash != null) {
        out.println("invert-hash: " + c.invertHash);
      }
    }
  }

  /**
   * The kernels of a {@code train} run: the JVM's choice, and when the trainer started on the
   * scalar kernels (docs/CLI.md, "Cold start"), where it handed over, or that it did not in a run
   * long enough to race; a shorter run names the kernels it ran on and nothing more.
   */
  static String kernelsLine(TrainResult r) {
    String chosen = KernelProvider.get().name();
    if (r.handoverAt() >= 0) {
      return chosen
          + " kernels (scalar for the first "
          + r.handoverAt()
          + " examples, while the vector ones compiled)";
    }
    if (r.kernels() != null && !r.kernels().equals(chosen) && !r.kernels().equals("none")) {
      if (r.seconds() < KernelHandover.SHORTEST_RACED_RUN_SECONDS) {
        return r.kernels() + " kernels"; // a short run: the scalar kernels by design
      }
      return chosen
          + " kernels chosen, "
          + r.kernels()
          + " kernels run (no faster vector path for this run: docs/CLI.md, \"Cold start\")";
    }
    return chosen + " kernels";
  }

  /**
   * The throughput line of {@code train}: the rate of the whole pass and that of its steady state
   * (the second half of the examples), each only when its span lasted at least {@link
   * TrainResult#MIN_RATE_SECONDS}.
   */
  static String throughput(TrainResult r) {
    String whole =
        r.rateMeasured()
            ? String.format(
                Locale.ROOT,
                "%.0f examples/s, %.0f nonzeros/s",
                r.examplesPerSecond(),
                r.nonzerosPerSecond())
            : "no rate";
    String steady =
        r.steadyExamples() == 0
            // e.g. a holdout period longer than half the run: no call fell in the second half
            ? "not measured"
            : String.format(
                Locale.ROOT,
                "%s (second half: %d examples in %.3f s)",
                r.steadyRateMeasured()
                    ? String.format(Locale.ROOT, "%.0f examples/s", r.steadyExamplesPerSecond())
                    : "no rate",
                r.steadyExamples(),
                r.steadySeconds());
    return String.format(
        Locale.ROOT,
        "throughput: whole pass %s (%d examples in %.3f s); steady state %s%s",
        whole,
        r.examples(),
        r.seconds(),
        steady,
        r.rateMeasured() && (r.steadyRateMeasured() || r.steadyExamples() == 0)
            ? ""
            : String.format(
                Locale.ROOT,
                "; a rate needs at least %.1f s of training",
                TrainResult.MIN_RATE_SECONDS));
  }

  /** The metrics with the error under the tie rule and, for multiclass, the softmax log loss. */
  static Json metrics(Metrics m, double error, Scoring s) {
    Json j = new Json().put("examples", m.examples()).put("loss", m.meanLoss()).put("error", error);
    return s == null || Double.isNaN(s.meanSoftmaxLoss())
        ? j
        : j.put("softmax_log_loss", s.meanSoftmaxLoss());
  }
}
