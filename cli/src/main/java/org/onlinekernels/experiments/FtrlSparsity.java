package org.onlinekernels.experiments;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.DataFiles;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * FTRL-Proximal's L1 at work (McMahan et al. 2013, section 3: "FTRL-Proximal with L1 regularization
 * ... produces sparse models"): the fraction of weights that are exactly zero after one pass,
 * against {@code lambda1}, on the largest data set of the repository, with the test loss and error
 * that the sparsity costs. The zeros are the read-out's (docs/ALGORITHMS.md section 13.1: {@code
 * w_i = +0} wherever {@code |z_i| <= lambda1}), counted over every weight of every one-vs-rest
 * output and over the weights of features that occur in the training file (the others are zero at
 * every {@code lambda1}).
 */
public final class FtrlSparsity {
  private FtrlSparsity() {}

  /** The L1 strengths swept; {@code 0} is the unregularised rule. */
  static final double[] LAMBDA1 = {0, 0.01, 0.1, 0.3, 1, 3, 10};

  /** Runs and writes the report. */
  public static void run(Path out, Path dataDir, boolean quick, String command, PrintStream log)
      throws Exception {
    String data = "austen_lines";
    SparseDataset train = DataFiles.readLibSvm(dataDir.resolve(data + ".train.svm"), 0);
    SparseDataset test =
        DataFiles.readLibSvm(dataDir.resolve(data + ".test.svm"), train.dimension());
    if (quick) {
      train = train.head(Math.min(train.size(), 2000));
      test = test.head(Math.min(test.size(), 1000));
    }
    boolean[] seen = new boolean[train.dimension()];
    int[] indices = train.indices(); // a copy: taken once
    for (long j = 0; j < train.totalNonZeros(); j++) {
      seen[indices[(int) j]] = true;
    }
    Table t =
        new Table(
            1,
            "lambda1",
            "zero weights (all)",
            "zero weights (seen features)",
            "nonzero weights",
            "progressive loss",
            "test loss",
            "test error");
    for (double l1 : LAMBDA1) {
      AlgorithmSpec spec = AlgorithmSpec.parse("ftrl", List.of("l1=" + l1));
      TrainResult r =
          OnlineTrainer.train(TrainerConfig.of(spec).withShuffle(true, 1), train, test, null);
      long zeros = 0;
      long zerosSeen = 0;
      long seenWeights = 0;
      long all = 0;
      for (double[] w : r.model().weights()) {
        for (int i = 0; i < w.length; i++) {
          boolean zero = w[i] == 0;
          all++;
          zeros += zero ? 1 : 0;
          if (i < seen.length && seen[i]) {
            seenWeights++;
            zerosSeen += zero ? 1 : 0;
          }
        }
      }
      t.add(
          Report.g(l1),
          Report.g((double) zeros / all),
          Report.g((double) zerosSeen / seenWeights),
          Long.toString(all - zeros),
          Report.g(r.progressive().meanLoss()),
          Report.g(r.test().meanLoss()),
          Report.g(r.test().errorRate()));
    }
    Report rep = new Report(out, "FTRL-Proximal: exact zeros against the L1 strength", command);
    rep.text(
        String.format(
            Locale.ROOT,
            "Setup: ftrl with alpha = 0.5, beta = 1, lambda2 = 0 (the defaults) and"
                + " lambda1 as listed; %s (%d training lines, %d test lines, %d features, %d of them in the training file),"
                + " six books one-vs-rest (one weight vector per book; the loss is the sum of the six logistic losses,"
                + " the error that of the argmax); one pass in a shuffled order (seed 1), float elements, sparse rows."
                + " A weight counts as zero when the model's read-out is exactly 0. \"seen features\": the weights of"
                + " the features that occur in the training file (the others are zero at every lambda1).",
            data,
            train.size(),
            test.size(),
            train.dimension(),
            countTrue(seen)));
    rep.table("sparsity", t);
    rep.finish();
    log.print(t.text());
  }

  private static int countTrue(boolean[] b) {
    int n = 0;
    for (boolean v : b) n += v ? 1 : 0;
    return n;
  }
}
