package org.onlinekernels.experiments;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.DataFiles;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * Experiment 5: every algorithm, default parameters, on every data set of the repository's data
 * directory: progressive loss and error of one shuffled pass, test loss and error of the final
 * weights, training throughput. Data sets without a test file are split 2/3 : 1/3 with a seeded
 * permutation ({@link Datasets#split}). Logistic loss, float elements, sparse rows; multiclass data
 * one-vs-rest. Throughput is the best of three identical runs (the first pays for the JIT). The
 * losses and errors are deterministic (README.md, results.csv: the same bytes on every run); the
 * throughput is timed, so it goes to a file of its own (throughput.csv) with the machine.
 */
public final class AllDatasets {
  private AllDatasets() {}

  /** Runs and writes the report. */
  public static void run(Path out, Path dataDir, boolean quick, String command, PrintStream log)
      throws Exception {
    String[][] files = {
      {"breast_cancer", "breast_cancer.svm", null},
      {"heart_scale", "heart_scale.svm", null},
      {"digits", "digits.svm", null},
      {"shuttle", "shuttle.train.svm", "shuttle.test.svm"},
      {"austen_lines", "austen_lines.train.svm", "austen_lines.test.svm"}
    };
    Table t =
        new Table(
            2,
            "data set",
            "algorithm",
            "progressive loss",
            "progressive error",
            "test loss",
            "test error");
    Table speed =
        new Table(
            2, "data set", "algorithm", "examples/s", "nonzeros/s", "Java", "CPUs", "kernels");
    String java = System.getProperty("java.version");
    String cpus = Integer.toString(Runtime.getRuntime().availableProcessors());
    String kernels = KernelProvider.get().name();
    for (String[] f : files) {
      SparseDataset train = DataFiles.readLibSvm(dataDir.resolve(f[1]), 0);
      SparseDataset test;
      if (f[2] == null) {
        SparseDataset[] s = Datasets.split(train, 2.0 / 3, 20261122L);
        train = s[0];
        test = s[1];
      } else {
        test = DataFiles.readLibSvm(dataDir.resolve(f[2]), train.dimension());
      }
      if (quick) {
        train = train.head(Math.min(train.size(), 2000));
        test = test.head(Math.min(test.size(), 1000));
      }
      for (String name : AlgorithmSpec.NAMES) {
        TrainerConfig cfg = TrainerConfig.of(AlgorithmSpec.of(name)).withShuffle(true, 1);
        TrainResult best = null;
        String failed = null;
        for (int rep = 0; rep < (quick ? 1 : 3); rep++) {
          try {
            TrainResult r = OnlineTrainer.train(cfg, train, test, null);
            if (best == null || r.seconds() < best.seconds()) {
              best = r;
            }
          } catch (OnlineTrainer.TrainingException e) {
            failed = e.getMessage();
          }
        }
        if (best == null) {
          t.add(f[0], name, "failed: " + failed, "-", "-", "-");
          speed.add(f[0], name, "-", "-", java, cpus, kernels);
          continue;
        }
        t.add(
            f[0],
            name,
            Report.g(best.progressive().meanLoss()),
            Report.g(best.progressive().errorRate()),
            Report.g(best.test().meanLoss()),
            Report.g(best.test().errorRate()));
        speed.add(
            f[0],
            name,
            String.format(Locale.ROOT, "%.0f", best.examplesPerSecond()),
            String.format(Locale.ROOT, "%.0f", best.nonzerosPerSecond()),
            java,
            cpus,
            kernels);
      }
    }
    Report rep = new Report(out, "Every algorithm on every data set of data/", command);
    rep.text(
        "Setup: default parameters (see `train --help`), logistic loss, float elements, sparse rows, one pass"
            + " in a shuffled order (seed 1), kernels: "
            + KernelProvider.get().name()
            + "."
            + " Multiclass data (digits, shuttle, austen_lines) trained one-vs-rest with one output per class:"
            + " the loss is then the sum over the K outputs' logistic losses and the error is that of the argmax."
            + " breast_cancer, heart_scale and digits have no test file: a seeded 2/3 : 1/3 split"
            + " (java.util.Random(20261122) permutation). Features are not scaled (raw scales, as in the files)."
            + " The table is deterministic: every run gives the same bytes.");
    rep.table("results", t);
    rep.text(
        "Throughput is timed, so it differs from run to run and machine to machine; it is in"
            + " throughput.csv, not here: examples/s and nonzeros/s of the training pass only, best of 3 runs;"
            + " one-vs-rest counts an example once for all K outputs. On a few hundred rows it is dominated by"
            + " JIT warm-up: compare it only on shuttle and austen_lines. The speed benchmarks are in bench-report/.");
    rep.csvOnly("throughput", speed);
    rep.finish();
    log.print(t.text());
    log.print(speed.text());
  }
}
