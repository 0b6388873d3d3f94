package org.onlinekernels.trainer.parallel;

import java.util.Locale;
import org.onlinekernels.data.HashedZipfStream;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.optimizer.parallel.CoordinateMerge;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.BlockLoop;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * Where a round of {@link ParallelTrainer}'s deterministic mode spends its time, phase by phase
 * (train, mark, collect, prepare, check, write, finish): the trainer's rounds replayed with the
 * members run one after another on one thread, each phase timed by the thread's CPU time, so each
 * figure is the CPU time of that phase summed over the members (no barrier waits). Measurement
 * only, not a test: {@code MergePhasesProbe [algorithm] [threads] [mergeEvery] [rows] [epochs]
 * [solo|combine]} on the issue-22 stream ({@link HashedZipfStream#standard}); the second half of
 * the epochs is counted.
 */
final class MergePhasesProbe {
  private MergePhasesProbe() {}

  private static final String[] PHASES = {
    "train", "mark", "collect", "prepare", "check", "write", "finish"
  };

  private static final java.lang.management.ThreadMXBean CPU =
      java.lang.management.ManagementFactory.getThreadMXBean();

  /** This thread's allocated bytes so far (the merge phases' allocation per round). */
  private static long allocated() {
    return ((com.sun.management.ThreadMXBean) CPU).getCurrentThreadAllocatedBytes();
  }

  /** This thread's CPU time, so that a busy machine does not inflate a phase. */
  private static long now() {
    return CPU.getCurrentThreadCpuTime();
  }

  public static void main(String[] args) {
    String algorithm = args.length > 0 ? args[0] : "scinol2";
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    int every = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
    int n = args.length > 3 ? Integer.parseInt(args[3]) : 200_000;
    int epochs = args.length > 4 ? Integer.parseInt(args[4]) : 4;
    // "combine": every coordinate combined, as before the solo copies (for comparison).
    boolean solo = !(args.length > 5 && args[5].equals("combine"));
    SparseDataset data = HashedZipfStream.standard(1).rows(n, 2);
    TrainerConfig c =
        TrainerConfig.of(AlgorithmSpec.of(algorithm)).withEpochs(epochs).withShuffle(false, 1);
    int d = data.dimension();
    long[] nanos = new long[PHASES.length];
    long coords = 0;
    long merges = 0;
    long mergeBytes = 0;
    try (Learners learners = new Learners(c, d, threads, 1, KernelProvider.scalar());
        AbstractOptimizer into =
            (AbstractOptimizer)
                c.algorithm().create(d, c.precision(), c.stateLayout(), null, null)) {
      Rows rows = new Rows(data);
      rows.indices();
      SparseRows sparse = rows.sparse(c);
      Loss loss = c.loss();
      int[] order = rows.fileOrder();
      DirtyCoordinates dirty = new DirtyCoordinates(d, threads);
      BlockLoop[] loops = new BlockLoop[threads];
      BlockLoop.Rounds[] train = new BlockLoop.Rounds[threads];
      for (int j = 0; j < threads; j++) {
        loops[j] = new BlockLoop(1, false, epochs, BlockLoop.IN_ORDER);
        AbstractOptimizer[] mine = learners.of(j);
        mine[0].copyStateFrom(into);
        train[j] =
            (o, from, to, y, yhat, losses) ->
                mine[o].rounds(sparse, order, from, to, y, loss, yhat, losses);
      }
      for (int e = 0; e < epochs; e++) {
        boolean counted = e >= epochs / 2;
        for (int lo = 0; lo < n; lo += every) {
          int hi = Math.min(n, lo + every);
          long[] t = new long[PHASES.length + 1];
          t[0] = now();
          for (int j = 0; j < threads; j++) {
            int from = lo + (int) ((long) (hi - lo) * j / threads);
            int to = lo + (int) ((long) (hi - lo) * (j + 1) / threads);
            loops[j].run(rows.labels, order, from, to, BlockLoop.BLOCK, e + 1, train[j]);
          }
          t[1] = now();
          for (int j = 0; j < threads; j++) {
            int from = lo + (int) ((long) (hi - lo) * j / threads);
            int to = lo + (int) ((long) (hi - lo) * (j + 1) / threads);
            dirty.mark(j, rows, order, from, to);
          }
          t[2] = now();
          long bytes = allocated();
          for (int j = 0; j < threads; j++) {
            dirty.collect(j);
          }
          int[] list = dirty.gather();
          t[3] = now();
          CoordinateMerge m =
              CoordinateMerge.prepare(
                  into, learners.output(0), list, dirty.count(), solo ? dirty.owners() : null);
          t[4] = now();
          if (m.checks()) {
            m.check(0, m.size());
          }
          t[5] = now();
          // The trainer's shares, in turn.
          for (int j = 0; j < threads; j++) {
            m.write(
                (int) ((long) m.size() * j / threads), (int) ((long) m.size() * (j + 1) / threads));
          }
          t[6] = now();
          m.finish();
          t[7] = now();
          bytes = allocated() - bytes;
          if (counted) {
            mergeBytes += bytes;
            for (int p = 0; p < PHASES.length; p++) {
              nanos[p] += t[p + 1] - t[p];
            }
            coords += dirty.count();
            merges++;
          }
        }
        for (BlockLoop l : loops) {
          l.endEpoch(e);
        }
      }
    }
    long total = 0;
    for (long x : nanos) {
      total += x;
    }
    StringBuilder out =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%s T=%d N=%d rows=%d epochs=%d merges=%d coords/merge=%d merge_bytes/merge=%d"
                    + " total_ms=%.1f",
                algorithm,
                threads,
                every,
                n,
                epochs,
                merges,
                merges == 0 ? 0 : coords / merges,
                merges == 0 ? 0 : mergeBytes / merges,
                total / 1e6));
    for (int p = 0; p < PHASES.length; p++) {
      out.append(
          String.format(
              Locale.ROOT,
              " %s=%.1fms(%.1f%%)",
              PHASES[p],
              nanos[p] / 1e6,
              100.0 * nanos[p] / Math.max(1, total)));
    }
    System.out.println(out);
  }
}
