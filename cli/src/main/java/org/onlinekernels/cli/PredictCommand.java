package org.onlinekernels.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.AtomicFiles;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.LinearModel;
import org.onlinekernels.trainer.Metrics;

/** The {@code predict} subcommand: a saved model applied to a data file, predictions and metrics. */
final class PredictCommand {
  static final String USAGE = String.join("\n",
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

  private PredictCommand() {}

  static int run(String[] args, PrintStream out, PrintStream err) throws UsageException, Failure {
    Options o = Options.parse(args, 0, Set.of("--json", "--normalize"),
        Set.of("--model", "--data", "--out", "--format", "--bits", "--hash", "--labels", "--ties"), Set.of());
    if (o.has("--help")) {
      out.print(USAGE);
      return 0;
    }
    Path modelFile = Path.of(o.require("--model"));
    Path data = Path.of(o.require("--data"));
    String outArg = o.get("--out");
    InputFormat format = InputFormat.parse(o);
    LabelMap labels = LabelMap.parse(o.get("--labels"));
    Scoring.Ties ties = Scoring.Ties.parse(o.get("--ties"));
    if (outArg != null && !outArg.equals("-")) {
      OutputFiles.refuseOverwritingAnInput("--out", Path.of(outArg), "--model", modelFile, "--data", data);
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
          .put("test", TrainReport.metrics(m, scoring.errorRate(), scoring)).put("predictions", outArg));
    } else {
      if (labels.description() != null) {
        report.println("labels: " + labels.description());
      }
      report.printf(Locale.ROOT, "%s on %s: n = %d, %s%n", modelFile, data, m.examples(),
          Scoring.line(Scoring.lossName(model.loss(), model.multiclass()), m, scoring.errorRate(), scoring, ties));
    }
    return 0;
  }
}
