package org.onlinekernels.bench.parallel;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.onlinekernels.data.HashedZipfStream;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.parallel.ParallelTrainer;

/**
 * The figures of docs/parallel/README.md: examples/s and test loss of the sequential trainer and of
 * the parallel trainer with T = 1 and 2 threads, runs interleaved (seq, T=1, T=2, seq, ...) so that
 * other load on a shared machine falls on all of them alike; the median of the repetitions.
 *
 * <p>Usage: {@code ParallelScaling <data dir> <repetitions> <dataset>:<algorithm>:<N> ...} with
 * dataset {@code shuttle}, {@code austen_lines} or {@code synthetic} (HashedZipfStream, 300,000
 * training and 50,000 test rows).
 */
public final class ParallelScaling {
  private ParallelScaling() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int reps = Integer.parseInt(args[1]);
    System.out.println(
        "| data | algorithm | N | sequential ex/s | T=1 ex/s | T=2 ex/s | T=2 / seq | test loss seq | T=1 | T=2 |");
    System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (String job : Arrays.copyOfRange(args, 2, args.length)) {
      String[] p = job.split(":");
      SparseDataset[] data = load(dir, p[0]);
      AlgorithmSpec spec = AlgorithmSpec.of(p[1]);
      int n = Integer.parseInt(p[2]);
      TrainerConfig c = TrainerConfig.of(spec);
      List<Double> seq = new ArrayList<>();
      List<Double> one = new ArrayList<>();
      List<Double> two = new ArrayList<>();
      double[] loss = new double[3];
      // Untimed rounds first: the JIT compiles the loops before anything is timed.
      for (int w = 0; w < 2; w++) {
        OnlineTrainer.train(c, data[0], null, null);
        ParallelTrainer.train(c, 1, n, data[0], null);
        ParallelTrainer.train(c, 2, n, data[0], null);
      }
      for (int r = 0; r < reps; r++) {
        TrainResult s = OnlineTrainer.train(c, data[0], data[1], null);
        TrainResult a = ParallelTrainer.train(c, 1, n, data[0], data[1]);
        TrainResult b = ParallelTrainer.train(c, 2, n, data[0], data[1]);
        seq.add(s.examplesPerSecond());
        one.add(a.examplesPerSecond());
        two.add(b.examplesPerSecond());
        loss[0] = s.test().meanLoss();
        loss[1] = a.test().meanLoss();
        loss[2] = b.test().meanLoss();
      }
      double ms = median(seq);
      double m1 = median(one);
      double m2 = median(two);
      System.out.printf(
          Locale.ROOT,
          "| %s | %s | %d | %.0f | %.0f | %.0f | %.2fx | %.4f | %.4f | %.4f |%n",
          p[0],
          p[1],
          n,
          ms,
          m1,
          m2,
          m2 / ms,
          loss[0],
          loss[1],
          loss[2]);
    }
  }

  private static double median(List<Double> v) {
    double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
  }

  /** Train and test sets of a named dataset. */
  public static SparseDataset[] load(Path dir, String name) throws java.io.IOException {
    if (name.equals("synthetic")) {
      HashedZipfStream s = HashedZipfStream.standard(1);
      return new SparseDataset[] {s.rows(300_000, 2), s.rows(50_000, 3)};
    }
    return new SparseDataset[] {
      LibSvmReader.read(dir.resolve(name + ".train.svm")),
      LibSvmReader.read(dir.resolve(name + ".test.svm"))
    };
  }
}
