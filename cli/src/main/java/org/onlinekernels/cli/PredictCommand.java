package org.onlinekernels.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.AtomicFiles;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * The {@code predict} subcommand: a saved model applied to a data file, predictions and metrics.
 */
final class PredictCommand {
  static final String USAGE =
      String.join(
          "\n",
          "usage: online-kernels predict --model FILE --data FILE [--out FILE|-] [options]",
          "",
          "  Scores every row of the data with the saved model's weights and reports mean loss (the",
          "  model's loss) and error rate against the file's labels.",
          "",
          "  --model FILE   a model written by 'train --model', or a state written by 'train --save-state'",
          "                 (whose input format, hashing, namespaces, labels and normalization then apply)",
          "  --data FILE    LIBSVM/svmlight or Vowpal Wabbit data (.gz allowed); LIBSVM features beyond",
          "                 the model's d are ignored",
          "  --format F     libsvm or vw (default: vw for names ending in .vw or .vw.gz)",
          "  --bits B       vw: hash bits (default: those of the model, d = 2^B)",
          "  --hash H       vw: signed (default) or unsigned, as in training",
          "  --interactions ab, -q ab, --ignore abc, --keep abc   vw: the namespaces, as in training",
          "  --labels L     auto (default; for a binary model labels all 0/1 or all 1/2 are binary),",
          "                 NEG,POS or C0,C1,... as in training",
          "  --ties T       half (default) or error: what a tie counts as",
          "  --out FILE     write one prediction per line: the score <w,x> for a binary model, for a",
          "                 multiclass model the predicted class then the K scores, space-separated;",
          "                 '-' writes them to standard output (the metrics then go to standard error)",
          "  --normalize    scale every row to unit Euclidean norm (if the model was trained so)",
          "  --audit        print every example's prediction and each feature's index, value, weight",
          "                 and contribution to standard output (the metrics then go to standard error)",
          "  --json         print a one-line JSON summary instead of text",
          "  --help         print this text",
          "");

  private PredictCommand() {}

  static int run(String[] args, PrintStream out, PrintStream err) throws UsageException, Failure {
    Set<String> valued =
        new java.util.HashSet<>(Set.of("--model", "--data", "--out", "--labels", "--ties"));
    valued.addAll(InputFormat.OPTIONS);
    Options o =
        Options.parse(
            InputFormat.aliases(args),
            0,
            Set.of("--json", "--normalize", "--audit"),
            valued,
            Set.of("--interactions"));
    if (o.has("--help")) {
      out.print(USAGE);
      return 0;
    }
    Path modelFile = Path.of(o.require("--model"));
    Path data = Path.of(o.require("--data"));
    String outArg = o.get("--out");
    InputFormat flags = InputFormat.parse(o);
    LabelMap labels = LabelMap.parse(o.get("--labels"));
    Scoring.Ties ties = Scoring.Ties.parse(o.get("--ties"));
    if (o.has("--audit") && "-".equals(outArg)) {
      throw new UsageException(
          "--audit and --out - both write to standard output; give --out a file");
    }
    if (outArg != null && !outArg.equals("-")) {
      OutputFiles.refuseOverwritingAnInput(
          "--out", Path.of(outArg), "--model", modelFile, "--data", data);
      OutputFiles.checkWritableThrough(Path.of(outArg)); // before scoring, not after it
    }
    ModelFiles.Loaded loaded = ModelFiles.load(modelFile);
    LinearModel model = loaded.model();
    InputFormat format = ModelFiles.format(loaded, flags, o, modelFile, data);
    boolean normalize =
        loaded.settings() != null ? loaded.settings().normalize() : o.has("--normalize");
    if (loaded.settings() != null) {
      labels = loaded.settings().labels();
    }
    PredictAudit audit = o.has("--audit") ? new PredictAudit() : null;
    SparseDataset rows =
        format.read(
            data, 0, InputFormat.bitsOf(model.dimension()), LibSvmReader.Limits.NONE, audit);
    if (labels == null) {
      labels = LabelMap.auto(rows, !model.multiclass());
    }
    rows = labels.apply(rows, data.toString());
    final SparseDataset scored = rows;
    final Scoring scoring = new Scoring(ties, model.multiclass(), null);
    if (normalize) {
      rows = Datasets.normalizeRows(rows);
    }
    if (audit != null) {
      audit.data(scored, rows);
      out.println(PredictAudit.header(model, normalize));
    }
    boolean toStdout = "-".equals(outArg) || audit != null;
    PrintStream report = toStdout ? err : out;
    Metrics m;
    Writer w = null;
    try {
      if (outArg != null) {
        w =
            "-".equals(outArg)
                ? new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8))
                : Files.newBufferedWriter(Path.of(outArg), StandardCharsets.UTF_8);
      }
      final Writer sink = w;
      final StringBuilder line = new StringBuilder();
      try {
        m =
            Metrics.evaluate(
                model,
                rows,
                (row, yhat) -> {
                  scoring.accept(0, row, scored.label(row), yhat, model.outputs());
                  if (audit != null) {
                    out.print(audit.text(row, scored.label(row), yhat, model));
                  }
                  if (sink == null) {
                    return;
                  }
                  line.setLength(0);
                  PredictionText.append(line, model.multiclass(), yhat, model.outputs());
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
        if (!"-".equals(outArg)) {
          w.close();
        }
      }
    } catch (IOException e) {
      throw new Failure("cannot write " + outArg + ": " + AtomicFiles.reason(e));
    } catch (java.io.UncheckedIOException e) {
      throw new Failure("cannot write " + outArg + ": " + AtomicFiles.reason(e.getCause()));
    }
    if (o.has("--json")) {
      report.println(
          new Json()
              .put("command", "predict")
              .put("model", modelFile.toString())
              .put("algorithm", model.algorithm().name())
              .put("params", model.algorithm().paramString())
              .put("type", model.type().name().toLowerCase(Locale.ROOT))
              .put("loss", Scoring.lossName(model.loss(), model.multiclass()))
              .put("data", data.toString())
              .put("d", model.dimension())
              .put("outputs", model.outputs())
              .put(
                  "labels",
                  labels.description() == null
                      ? (model.multiclass() ? "classes" : "+1/-1")
                      : labels.description())
              .put("ties", ties.name().toLowerCase(Locale.ROOT))
              .put("test", TrainReport.metrics(m, scoring.errorRate(), scoring))
              .put("predictions", outArg));
    } else {
      if (labels.description() != null) {
        report.println("labels: " + labels.description());
      }
      report.printf(
          Locale.ROOT,
          "%s on %s: n = %d, %s%n",
          modelFile,
          data,
          m.examples(),
          Scoring.line(
              Scoring.lossName(model.loss(), model.multiclass()),
              m,
              scoring.errorRate(),
              scoring,
              ties));
    }
    return 0;
  }
}
