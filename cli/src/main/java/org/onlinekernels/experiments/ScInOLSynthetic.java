package org.onlinekernels.experiments;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.data.SyntheticScInOL;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.TrainingData;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * Experiment 1, Kempka, Kotlowski and Warmuth (2019) section 4.1: average test cross-entropy on the
 * synthetic problem of ScInOL1/2 (untuned) against AdaGrad and SGD ({@code eta/sqrt(t)}) over the
 * paper's learning-rate grid, 10 training sets, with the zero vector's and the true model's test
 * loss as reference lines. One pass over 5,000 training examples in file order, test loss on
 * 100,000 examples every {@value #EVERY} iterations.
 */
public final class ScInOLSynthetic {
  /** The paper's learning-rate grid. */
  public static final double[] RATES = {0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10};

  static final int EVERY = 250;

  private ScInOLSynthetic() {}

  /** Runs and writes the report; {@code quick} uses 2 seeds and smaller sets (for tests). */
  public static void run(Path out, boolean quick, String command, PrintStream log)
      throws Exception {
    int seeds = quick ? 2 : 10;
    int nTrain = quick ? 1000 : SyntheticScInOL.PAPER_TRAIN_SIZE;
    int nTest = quick ? 5000 : SyntheticScInOL.PAPER_TEST_SIZE;
    List<AlgorithmSpec> algs = new ArrayList<>();
    algs.add(AlgorithmSpec.of("scinol1"));
    algs.add(AlgorithmSpec.of("scinol2"));
    for (double r : RATES) {
      algs.add(AlgorithmSpec.of("adagrad").with("eta", r));
    }
    for (double r : RATES) {
      algs.add(AlgorithmSpec.of("ogd").with("eta", r));
    }
    int points = nTrain / EVERY;
    // curves[alg][seed][checkpoint]
    double[][][] curves = new double[algs.size()][seeds][points];
    double[] zero = new double[seeds];
    double[] truth = new double[seeds];
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.max(1, Math.min(seeds, Runtime.getRuntime().availableProcessors())));
    try {
      List<Future<?>> jobs = new ArrayList<>();
      for (int s = 0; s < seeds; s++) {
        final int si = s;
        jobs.add(
            pool.submit(
                () -> {
                  long seed = si + 1;
                  SparseDataset train = SyntheticScInOL.generate(nTrain, seed);
                  TrainingData test = TrainingData.of(SyntheticScInOL.generate(nTest, seed, 1));
                  zero[si] =
                      Metrics.evaluate(
                              new LinearModel(
                                  AlgorithmSpec.of("ogd"),
                                  ElementType.DOUBLE,
                                  Loss.LOGISTIC,
                                  false,
                                  new double[1][SyntheticScInOL.DIMENSION]),
                              test)
                          .meanLoss();
                  truth[si] =
                      Metrics.evaluate(
                              new LinearModel(
                                  AlgorithmSpec.of("ogd"),
                                  ElementType.DOUBLE,
                                  Loss.LOGISTIC,
                                  false,
                                  new double[][] {SyntheticScInOL.trueWeights(seed)}),
                              test)
                          .meanLoss();
                  TrainingData prepared = TrainingData.of(train);
                  for (int a = 0; a < algs.size(); a++) {
                    final int ai = a;
                    TrainerConfig cfg =
                        TrainerConfig.of(algs.get(a))
                            .withType(ElementType.DOUBLE)
                            .withShuffle(false, 0);
                    try (OnlineTrainer t =
                        new OnlineTrainer(cfg, SyntheticScInOL.DIMENSION, false, 1)) {
                      t.fit(
                          prepared,
                          null,
                          EVERY,
                          (seen, tr) -> {
                            curves[ai][si][(int) (seen / EVERY) - 1] =
                                Metrics.evaluate(tr.model(), test).meanLoss();
                          });
                    } catch (OnlineTrainer.TrainingException e) {
                      for (int p = 0; p < points; p++) {
                        if (curves[ai][si][p] == 0) {
                          curves[ai][si][p] = Double.NaN;
                        }
                      }
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : jobs) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    double zeroMean = mean(zero);
    double truthMean = mean(truth);
    Table t =
        new Table(
            2,
            "algorithm",
            "rate",
            "final test CE (mean)",
            "std over seeds",
            "best-checkpoint CE",
            "worse than zero vector");
    double[] finals = new double[algs.size()];
    for (int a = 0; a < algs.size(); a++) {
      double[] fin = new double[seeds];
      double best = Double.POSITIVE_INFINITY;
      for (int s = 0; s < seeds; s++) {
        fin[s] = curves[a][s][points - 1];
      }
      for (int p = 0; p < points; p++) {
        double m = 0;
        for (int s = 0; s < seeds; s++) {
          m += curves[a][s][p];
        }
        best = Math.min(best, m / seeds);
      }
      finals[a] = mean(fin);
      AlgorithmSpec sp = algs.get(a);
      t.add(
          sp.name(),
          sp.params().containsKey("eta") ? Report.g(sp.params().get("eta")) : "(none)",
          Report.g(finals[a]),
          Report.g(std(fin)),
          Report.g(best),
          finals[a] > zeroMean ? "yes" : "no");
    }
    t.add("zero vector", "-", Report.g(zeroMean), Report.g(std(zero)), "-", "-");
    t.add("true model u", "-", Report.g(truthMean), Report.g(std(truth)), "-", "-");
    int worseAda = 0;
    int worseSgd = 0;
    for (int i = 0; i < RATES.length; i++) {
      worseAda += finals[2 + i] > zeroMean ? 1 : 0;
      worseSgd += finals[2 + RATES.length + i] > zeroMean ? 1 : 0;
    }
    Report rep = new Report(out, "ScInOL sec. 4.1: synthetic problem, test cross-entropy", command);
    rep.text(
        String.format(
            java.util.Locale.ROOT,
            "Setup: %d training sets (seeds 1..%d, a fresh true model u per seed), %d training and %d test examples,"
                + " one online pass in generation order, logistic loss, double elements, kernels: %s. Test cross-entropy"
                + " of the current weights every %d iterations. ScInOL1/2 with eps=1 (untuned); AdaGrad with eta over the"
                + " grid, delta=0, Q0=0, no box; SGD = OGD with eta/sqrt(t), no projection.",
            seeds,
            seeds,
            nTrain,
            nTest,
            KernelProvider.get().name(),
            EVERY));
    rep.table("final_test_loss", t);
    rep.text(
        String.format(
            java.util.Locale.ROOT,
            "Summary: ScInOL2 final test CE %s vs true model %s and zero vector %s; ScInOL1 %s."
                + " AdaGrad is worse than the zero vector at %d of %d rates, SGD at %d of %d.",
            Report.g(finals[1]),
            Report.g(truthMean),
            Report.g(zeroMean),
            Report.g(finals[0]),
            worseAda,
            RATES.length,
            worseSgd,
            RATES.length));
    // Plot 1: final loss vs rate.
    LineChart p =
        new LineChart(
            "Final test cross-entropy vs learning rate (mean of " + seeds + " seeds)",
            "learning rate eta",
            "test cross-entropy",
            true,
            true);
    double[] ada = new double[RATES.length];
    double[] sgd = new double[RATES.length];
    for (int i = 0; i < RATES.length; i++) {
      ada[i] = finals[2 + i];
      sgd[i] = finals[2 + RATES.length + i];
    }
    double[] ends = {RATES[0], RATES[RATES.length - 1]};
    p.line("AdaGrad", RATES, ada)
        .line("SGD eta/sqrt(t)", RATES, sgd)
        .line("ScInOL1 (no rate)", ends, new double[] {finals[0], finals[0]})
        .line("ScInOL2 (no rate)", ends, new double[] {finals[1], finals[1]})
        .dashed("zero vector", ends, new double[] {zeroMean, zeroMean})
        .dashed("true model u", ends, new double[] {truthMean, truthMean});
    rep.plot("final_loss_vs_rate", p);
    // Plot 2: curves of ScInOL and each rate's AdaGrad/SGD.
    double[] xs = new double[points];
    for (int i = 0; i < points; i++) {
      xs[i] = (i + 1) * (double) EVERY;
    }
    LineChart c =
        new LineChart(
            "Test cross-entropy during training (mean of " + seeds + " seeds)",
            "iteration",
            "test cross-entropy",
            false,
            true);
    for (int a : new int[] {0, 1, 2 + 4, 2 + 6, 2 + RATES.length + 4, 2 + RATES.length + 6}) {
      double[] y = new double[points];
      for (int q = 0; q < points; q++) {
        double m = 0;
        for (int s = 0; s < seeds; s++) {
          m += curves[a][s][q];
        }
        y[q] = m / seeds;
      }
      c.line(algs.get(a).label(), xs, y);
    }
    c.dashed(
        "zero vector", new double[] {xs[0], xs[points - 1]}, new double[] {zeroMean, zeroMean});
    c.dashed(
        "true model u", new double[] {xs[0], xs[points - 1]}, new double[] {truthMean, truthMean});
    rep.plot("test_loss_curves", c);
    rep.finish();
    log.print(t.text());
  }

  static double mean(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s / v.length;
  }

  static double std(double[] v) {
    double m = mean(v);
    double s = 0;
    for (double x : v) {
      s += (x - m) * (x - m);
    }
    return v.length > 1 ? Math.sqrt(s / (v.length - 1)) : 0;
  }
}
