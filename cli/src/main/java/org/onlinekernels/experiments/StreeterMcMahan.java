package org.onlinekernels.experiments;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.DataFiles;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * Experiment 3, Streeter and McMahan (2010) section 5.1: per-coordinate against global learning
 * rate, box {@code [-R, R]}, {@code R = 100}, hinge loss, one shuffled pass with progressive
 * validation. Their tuning: the per-coordinate rate (Theorem 3, {@code eta_i = D_i / sqrt(sum
 * g^2)}, {@code D_i = 2R}) scaled by {@code 0.6/R}; the global rate (Theorem 2) scaled by {@code
 * 0.2/R}. Data: {@code austen_lines.train} (each class against the rest) and {@code breast_cancer},
 * with rows as read and with rows scaled to unit length (the paper's preprocessing of its text
 * data).
 */
public final class StreeterMcMahan {
  static final double R = 100;

  private StreeterMcMahan() {}

  /** Runs and writes the report; needs the data directory. */
  public static void run(Path out, Path dataDir, boolean quick, String command, PrintStream log)
      throws Exception {
    int seeds = quick ? 2 : 10;
    AlgorithmSpec perCoord = AlgorithmSpec.of("adagrad").with("alpha", 0.6 / R).with("R", R);
    AlgorithmSpec global = AlgorithmSpec.of("adagrad-global").with("alpha", 0.2 / R).with("R", R);
    List<String> names = new ArrayList<>();
    List<SparseDataset> sets = new ArrayList<>();
    SparseDataset austen = DataFiles.readLibSvm(dataDir.resolve("austen_lines.train.svm"), 0);
    if (quick) {
      austen = austen.head(5000);
    }
    SparseDataset bc = DataFiles.readLibSvm(dataDir.resolve("breast_cancer.svm"), 0);
    for (int c = 0; c < austen.numClasses(); c++) {
      SparseDataset b = Datasets.oneVsRest(austen, c);
      names.add("austen_lines class " + c + " vs rest, raw counts");
      sets.add(b);
      names.add("austen_lines class " + c + " vs rest, unit rows");
      sets.add(Datasets.normalizeRows(b));
    }
    names.add("breast_cancer, raw");
    sets.add(bc);
    names.add("breast_cancer, unit rows");
    sets.add(Datasets.normalizeRows(bc));
    Table t =
        new Table(
            1,
            "data set",
            "Global hinge",
            "Per-Coord hinge",
            "Global error",
            "Per-Coord error",
            "Per-Coord wins (hinge)");
    int wins = 0;
    for (int i = 0; i < sets.size(); i++) {
      double[] g = meanOver(global, sets.get(i), seeds);
      double[] p = meanOver(perCoord, sets.get(i), seeds);
      wins += p[0] < g[0] ? 1 : 0;
      t.add(
          names.get(i),
          Report.g(g[0]),
          Report.g(p[0]),
          Report.g(g[1]),
          Report.g(p[1]),
          p[0] < g[0] ? "yes" : "no");
    }
    Report rep =
        new Report(
            out, "Streeter & McMahan sec. 5.1: per-coordinate vs global learning rate", command);
    rep.text(
        "Setup: hinge loss, feasible set [-"
            + (int) R
            + ", "
            + (int) R
            + "]^d, float elements, one pass in a"
            + " shuffled order with progressive validation (loss and error on each example before training on it),"
            + " mean over "
            + seeds
            + " shuffles (seeds 1.."
            + seeds
            + ")"
            + (quick ? ", first 5000 austen rows" : "")
            + ". Per-Coord = `"
            + perCoord.label()
            + "` (eta_i = alpha * D_i = 0.6/R * 2R);"
            + " Global = `"
            + global.label()
            + "` with D the box's Euclidean diameter 2R sqrt(d)"
            + " (the paper estimated D online from the number of attributes seen so far; the library takes a fixed D)."
            + " Error: wrong sign, a zero score counts half.");
    rep.table("hinge_and_error", t);
    rep.text(
        "Per-Coord has the lower mean hinge loss on "
            + wins
            + " of "
            + sets.size()
            + " data sets.");
    rep.finish();
    log.print(t.text());
  }

  private static double[] meanOver(AlgorithmSpec spec, SparseDataset data, int seeds) {
    double loss = 0;
    double err = 0;
    for (int s = 1; s <= seeds; s++) {
      TrainerConfig cfg =
          TrainerConfig.of(spec)
              .withLoss(Loss.HINGE)
              .withType(ElementType.FLOAT)
              .withShuffle(true, s);
      TrainResult r = OnlineTrainer.train(cfg, data, null, null);
      loss += r.progressive().meanLoss() / seeds;
      err += r.progressive().errorRate() / seeds;
    }
    return new double[] {loss, err};
  }
}
