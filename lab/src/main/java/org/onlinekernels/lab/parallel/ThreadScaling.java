package org.onlinekernels.lab.parallel;

import java.util.Locale;
import org.onlinekernels.data.HashedZipfStream;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.TrainingMode;
import org.onlinekernels.trainer.parallel.ParallelTraining;

/**
 * One training run of the issue-22 workload, for timing one thread count against another as whole
 * processes (docs/parallel/README.md gives the command): the synthetic hashed Zipf stream ({@link
 * HashedZipfStream#standard}, d = 2^20, 40 nonzeros per row), unshuffled epochs, float. Prints the
 * training seconds, examples/s and the test loss on a held-out stream.
 *
 * <p>Usage: {@code ThreadScaling <algorithm> <threads> <mode> [rows] [epochs] [mergeEvery]}, mode
 * {@code sequential} (threads must be 1: {@link OnlineTrainer}), {@code shared} or {@code mixing};
 * rows 200,000, epochs 2 and mergeEvery 0 (once per epoch) by default.
 */
public final class ThreadScaling {
  private ThreadScaling() {}

  public static void main(String[] args) {
    if (args.length < 3) {
      System.err.println(
          "usage: ThreadScaling <algorithm> <threads> <sequential|shared|mixing> [rows] [epochs] [mergeEvery]");
      System.exit(2);
    }
    String algorithm = args[0];
    int threads = Integer.parseInt(args[1]);
    TrainingMode mode = TrainingMode.valueOf(args[2].toUpperCase(Locale.ROOT));
    int rows = args.length > 3 ? Integer.parseInt(args[3]) : 200_000;
    int epochs = args.length > 4 ? Integer.parseInt(args[4]) : 2;
    int mergeEvery = args.length > 5 ? Integer.parseInt(args[5]) : 0;
    HashedZipfStream stream = HashedZipfStream.standard(1);
    SparseDataset train = stream.rows(rows, 2);
    SparseDataset test = stream.rows(50_000, 3);
    TrainerConfig c =
        TrainerConfig.of(AlgorithmSpec.of(algorithm)).withEpochs(epochs).withShuffle(false, 1);
    TrainResult r =
        mode == TrainingMode.SEQUENTIAL
            ? OnlineTrainer.train(c, train, test, null)
            : ParallelTraining.train(c, threads, mode, mergeEvery, train, test);
    System.out.printf(
        Locale.ROOT,
        "%s threads=%d mode=%s rows=%d epochs=%d train_seconds=%.3f ex_per_s=%.0f test_loss=%.5f%n",
        algorithm,
        threads,
        mode.label(),
        rows,
        epochs,
        r.seconds(),
        r.examplesPerSecond(),
        r.test().meanLoss());
  }
}
