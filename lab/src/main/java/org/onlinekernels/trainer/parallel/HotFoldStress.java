package org.onlinekernels.trainer.parallel;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.Locale;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.parallel.HotRecords;
import org.onlinekernels.optimizer.state.StateStore;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * Issue 39, session 8: does a shared-state fit with private hot records ever fold a record into a
 * state no race-free run could reach? Runs the two-worker fit ({@link SharedStateTrainer} on a
 * LIBSVM file held in memory, the workload's Zipf stream from {@code exec:exec@zipf-file}; logistic
 * loss, float, file order) {@code RUNS} times per capacity {@code K}, watches every fold of a
 * variable both workers changed ({@link HotRecords#watch}) and checks it: a wealth ({@code eta},
 * {@code W}) keeps its start's sign (with a logistic loss each ScInOL2 or KT round multiplies it by
 * a positive factor), a sum of squares ({@code S2}, {@code Q}) is at least either side's, a maximum
 * ({@code M}) is the larger side, every value finite. It prints the first fold that breaks one
 * (coordinate, both sides' increments, the merged value), how many folds the additive fold of
 * session 7 ({@code a + (p - x0)}) would have turned a wealth's sign in, the run's progressive loss
 * against one thread's, and after the run the coordinates' wealths not positive and whether the
 * weights are finite.
 *
 * <p>{@code HotFoldStress FILE RULE K[,K...] RUNS [EPOCHS]}, e.g. {@code
 * target/threads/zipf_20_40-200000.svm scinol2 64,256 100 10}; lab/README.md.
 */
final class HotFoldStress {
  private HotFoldStress() {}

  /** The checks of one run's folds. */
  private static final class Watch implements HotRecords.FoldWatch {
    long twoSided;
    long wealthFolds;
    long additiveFlips;
    long broken;
    String first;

    @Override
    public void folded(
        int worker,
        int coordinate,
        String variable,
        double start,
        double shared,
        double mine,
        double merged,
        boolean kept) {
      twoSided++;
      double v = kept ? shared : merged;
      String why = null;
      if (!Double.isFinite(v)) {
        why = "not finite";
      } else if (variable.equals("eta") || variable.equals("W")) {
        wealthFolds++;
        double additive = shared + (mine - start);
        if (start > 0 && additive <= 0) {
          additiveFlips++;
        }
        if (start > 0 && v <= 0) {
          why = "wealth not positive";
        }
      } else if (variable.equals("S2") || variable.equals("Q")) {
        if (v < Math.max(shared, mine) * (1 - 1e-6)) {
          why = "sum of squares below a side's";
        }
      } else if (variable.equals("M") && v != Math.max(shared, mine)) {
        why = "maximum not the larger side";
      }
      if (why != null) {
        broken++;
        if (first == null) {
          first =
              String.format(
                  Locale.ROOT,
                  "fold %d worker %d coord %d %s: %s; start %.6g shared %.6g (+%.6g) mine %.6g"
                      + " (+%.6g) merged %.6g kept %b",
                  twoSided,
                  worker,
                  coordinate,
                  variable,
                  why,
                  start,
                  shared,
                  shared - start,
                  mine,
                  mine - start,
                  merged,
                  kept);
        }
      }
    }
  }

  public static void main(String[] args) throws IOException {
    SparseDataset data = LibSvmReader.read(Path.of(args[0]));
    String rule = args[1];
    String[] ks = args[2].split(",");
    int runs = Integer.parseInt(args[3]);
    int epochs = args.length > 4 ? Integer.parseInt(args[4]) : 10;
    int rows = data.size();
    int d = data.dimension();
    TrainerConfig c =
        TrainerConfig.of(AlgorithmSpec.of(rule)).withEpochs(epochs).withShuffle(false, 1);
    double one;
    System.setProperty(SharedStateTrainer.HOT_PROPERTY, "0");
    try (SharedStateTrainer t = new SharedStateTrainer(c, 1, d, false, 1)) {
      one = progressive(t.fit(data));
    }
    System.out.printf(
        Locale.ROOT, "# %s rows=%d epochs=%d one thread loss %.5f%n", rule, rows, epochs, one);
    int diverged = 0;
    int brokenRuns = 0;
    for (int run = 1; run <= runs; run++) {
      for (String k : ks) {
        System.setProperty(SharedStateTrainer.HOT_PROPERTY, k);
        Watch w = new Watch();
        double loss;
        String after;
        try (SharedStateTrainer t = new SharedStateTrainer(c, 2, d, false, 1)) {
          t.hotRecords(0).watch(w);
          Metrics[] m = t.fit(data);
          loss = progressive(m);
          after = afterRun(t.state(0).owner(), d);
        }
        boolean bad = !(loss <= 2 * one);
        diverged += bad ? 1 : 0;
        brokenRuns += w.broken > 0 ? 1 : 0;
        System.out.printf(
            Locale.ROOT,
            "%s K=%s run %d loss %.5f%s two-sided %d wealth %d additive-flips %d broken %d %s%s%n",
            rule,
            k,
            run,
            loss,
            bad ? " DIVERGED" : "",
            w.twoSided,
            w.wealthFolds,
            w.additiveFlips,
            w.broken,
            after,
            w.first == null ? "" : " first: " + w.first);
      }
    }
    System.out.printf(
        Locale.ROOT,
        "# %d runs per K (%s): diverged %d, runs with a broken fold %d%n",
        runs,
        String.join(",", ks),
        diverged,
        brokenRuns);
  }

  /** The progressive loss over all epochs (each of the same rows). */
  private static double progressive(Metrics[] epochs) {
    double sum = 0;
    for (Metrics m : epochs) {
      sum += m.meanLoss();
    }
    return sum / epochs.length;
  }

  /** The wealths not positive and the weights not finite among the data's coordinates. */
  private static String afterRun(AbstractOptimizer o, int d) {
    StateStore s = o.stateAccess().store();
    String wealth = s.names().contains("eta") ? "eta" : s.names().contains("W") ? "W" : null;
    int notPositive = 0;
    if (wealth != null) {
      StateStore.Field f = s.field(wealth);
      for (int i = 0; i < d; i++) {
        notPositive += f.get(i) > 0 ? 0 : 1;
      }
    }
    String weights = "finite";
    try (Arena arena = Arena.ofConfined()) {
      o.readWeights(arena.allocate((long) o.dimension() * o.elementType().bytes(), 8));
    } catch (ArithmeticException e) {
      weights = "NOT finite";
    }
    return "after: wealth<=0 " + notPositive + " weights " + weights;
  }
}
