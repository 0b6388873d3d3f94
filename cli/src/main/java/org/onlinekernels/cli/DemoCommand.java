package org.onlinekernels.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.data.SyntheticScInOL;
import org.onlinekernels.experiments.Table;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * The {@code demo} subcommand: one online pass of every algorithm with progressive validation, on
 * the synthetic problem of Kempka et al. (2019) or on a LIBSVM file, as one table.
 */
final class DemoCommand {
  /** Default number of synthetic examples. */
  static final int DEFAULT_N = 100_000;

  static final String USAGE =
      String.join(
          "\n",
          "usage: online-kernels demo [--n N] [--seed S] [--data FILE] [--type T]",
          "",
          "  One online pass of every algorithm (on the SIMD kernels, default parameters) with",
          "  progressive validation: each example's logistic loss and error are recorded before the",
          "  learner trains on it. Rows in file order, not shuffled (unlike train's default), so every",
          "  algorithm sees the same sequence. A tie yhat = 0 counts as half an error.",
          "",
          "  --n N        number of examples (default "
              + DEFAULT_N
              + "; with --data: use the first N rows)",
          "  --seed S     seed of the synthetic problem (default " + Main.DEFAULT_SEED + ")",
          "  --data FILE  a LIBSVM/svmlight file (.gz allowed) instead of the synthetic problem of",
          "               Kempka, Kotlowski and Warmuth (2019), section 4.1; multiclass labels are",
          "               trained one-vs-rest with one output per class",
          "  --type T     float (default) or double",
          "  --help       print this text",
          "");

  private DemoCommand() {}

  static int run(String[] args, PrintStream out, PrintStream err) throws UsageException, Failure {
    Options o =
        Options.parse(args, 0, Set.of(), Set.of("--n", "--seed", "--data", "--type"), Set.of());
    if (o.has("--help")) {
      out.print(USAGE);
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
      long seed = o.longValue("--seed", Main.DEFAULT_SEED);
      int n = o.positiveInt("--n", DEFAULT_N);
      data = SyntheticScInOL.generate(n, seed);
      oracle = SyntheticScInOL.trueWeights(seed);
      description =
          "synthetic problem of Kempka et al. 2019 sec. 4.1 (21 Gaussian features, sigma_j = 2^(j-10)),"
              + " seed "
              + seed;
    } else {
      Path file = Path.of(o.get("--data"));
      data = InputFormat.readLibSvm(file, 0, LibSvmReader.Limits.NONE);
      if (data.size() == 0) {
        throw new Failure(file + " has no examples");
      }
      int n = o.positiveInt("--n", data.size());
      if (n < data.size()) {
        data = data.head(n);
      }
      description = file.toString();
    }
    out.println(
        "online-kernels demo: one online pass, progressive validation"
            + " (each example's loss and error are taken before training on it)");
    out.printf(
        Locale.ROOT,
        "data: %s; n = %d, d = %d, %d nonzeros%n",
        description,
        data.size(),
        data.dimension(),
        data.totalNonZeros());
    out.println(
        data.isBinary()
            ? "labels: +1/-1; loss: logistic ln(1 + exp(-y yhat)); a tie yhat = 0 counts as half an error"
            : "labels: "
                + data.numClasses()
                + " classes, one-vs-rest (one output per class); mean loss ="
                + " ovr-logistic-sum, the sum of the outputs' logistic losses (train reports the softmax log loss too)");
    out.printf(
        Locale.ROOT,
        "kernels: %s, %s elements%n%n",
        KernelProvider.get().name(),
        type.name().toLowerCase(Locale.ROOT));
    Table t = new Table(2, "algorithm", "parameters", "mean loss", "error rate", "examples/s");
    if (data.isBinary()) {
      double[][] zero = {new double[data.dimension()]};
      fixedRow(
          t,
          "baseline: zero",
          "w = 0",
          new LinearModel(AlgorithmSpec.of("ogd"), type, Loss.LOGISTIC, false, zero),
          data);
      if (oracle != null) {
        fixedRow(
            t,
            "baseline: true u",
            "generating model",
            new LinearModel(
                AlgorithmSpec.of("ogd"),
                ElementType.DOUBLE,
                Loss.LOGISTIC,
                false,
                new double[][] {oracle}),
            data);
      }
    }
    for (AlgorithmSpec spec : demoAlgorithms()) {
      TrainerConfig cfg = TrainerConfig.of(spec).withType(type).withShuffle(false, 0);
      try {
        TrainResult r = OnlineTrainer.train(cfg, data, null, null);
        t.add(
            spec.name(),
            describe(spec),
            f6(r.progressive().meanLoss()),
            f4(r.progressive().errorRate()),
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

  /**
   * The parameters column of {@code spec}'s row: its defaults as {@code train --help} lists them
   * ({@link AlgorithmSpec#HELP}), where that list is not the plain {@code name=value} column.
   */
  static String describe(AlgorithmSpec spec) {
    return switch (spec.name()) {
      case "adagrad" -> "eta=1";
      case "adagrad-global" -> "D=1";
      case "ogd" -> "eta=1 (eta/sqrt(t))";
      default -> helpDefaults(spec.name());
    };
  }

  /**
   * The defaults column of {@code name}'s first line in {@link AlgorithmSpec#HELP} (the text after
   * the name up to the next run of spaces), or "" when there is no such line.
   */
  static String helpDefaults(String name) {
    for (String line : AlgorithmSpec.HELP.split("\n")) {
      String s = line.strip();
      if (s.startsWith(name + " ")) {
        String rest = s.substring(name.length()).strip();
        int gap = rest.indexOf("   ");
        return gap < 0 ? rest : rest.substring(0, gap);
      }
    }
    return "";
  }

  private static void fixedRow(
      Table t, String name, String params, LinearModel m, SparseDataset data) {
    Metrics x = Metrics.evaluate(m, data);
    t.add(name, params, f6(x.meanLoss()), f4(x.errorRate()), "-");
  }

  private static String f6(double v) {
    return String.format(Locale.ROOT, "%.6f", v);
  }

  private static String f4(double v) {
    return String.format(Locale.ROOT, "%.4f", v);
  }

  private static ElementType type(Options o) throws UsageException {
    String t = o.get("--type");
    try {
      return t == null ? ElementType.FLOAT : ElementType.parse(t);
    } catch (IllegalArgumentException e) {
      if ("mixed".equals(t)) {
        throw new UsageException(
            "--type mixed exists for adagrad and scinol2 only, not for every algorithm of demo;"
                + " use train --type mixed");
      }
      throw new UsageException(
          "--type must be float or double, got '"
              + t
              + "'"
              + DidYouMean.hint(t, List.of("float", "double")));
    }
  }
}
