package org.onlinekernels.trainer.parallel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.BlockLoop;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * The deterministic mode's merge, run by ranges of the named coordinates on {@code T} threads (the
 * coordinates one thread's rows alone named copied from its learner), gives the bits of the
 * sequential merge ({@code StatefulOptimizer.merge} over every coordinate, on one thread) for
 * {@code T = 1..4}: {@link ParallelTrainer}'s model and progressive metrics against a replay of its
 * rounds in which the same learners train the same slices one after another and are merged by
 * {@code merge}. Sparse rows whose low indices are common, so every round has coordinates named by
 * one thread and by several. Not global AdaGrad (its full merge may move an unnamed coordinate by
 * one ulp, which the coordinate merge leaves: CoordinateMergeTest) nor the ball (merged over every
 * coordinate either way).
 */
class ParallelMergeReplayTest {
  private static final int D = 3_000;
  private static final int ROWS = 1_200;
  private static final int EVERY = 250;
  private static final SparseDataset DATA = rows();

  @ParameterizedTest
  @ValueSource(strings = {"adagrad", "scinol1", "scinol2", "dfeg", "ftrl", "kt", "freegrad"})
  void theParallelMergeIsTheSequentialMergeForOneToFourThreads(String algorithm) {
    TrainerConfig c =
        TrainerConfig.of(AlgorithmSpec.of(algorithm)).withEpochs(2).withShuffle(false, 1);
    for (int threads = 1; threads <= 4; threads++) {
      String what = algorithm + " T=" + threads;
      double[] got;
      Metrics[] gotMetrics;
      try (ParallelTrainer t = new ParallelTrainer(c, threads, EVERY, D, false, 0, 8, null)) {
        gotMetrics = t.fit(DATA);
        got = t.model().weights()[0];
      }
      try (OnlineTrainer ref = new OnlineTrainer(c, D, false, 0, null, c.stateLayout());
          Learners learners = new Learners(c, D, threads, 1, null)) {
        Metrics[] want = replay(c, threads, (AbstractOptimizer) ref.optimizer(0), learners);
        assertArrayEquals(ref.model().weights()[0], got, what + ": the merged model");
        assertEquals(List.of(want), List.of(gotMetrics), what + ": the progressive metrics");
      }
    }
  }

  /**
   * {@link ParallelTrainer#fit}'s rounds on one thread: each learner trains its slice of the round
   * as the trainer's thread would, then {@code into.merge} (every coordinate) and every learner
   * takes the merged state.
   */
  private static Metrics[] replay(
      TrainerConfig c, int threads, AbstractOptimizer into, Learners learners) {
    Rows rows = new Rows(DATA);
    SparseRows sparse = rows.sparse(c);
    Loss loss = c.loss();
    int[] order = rows.fileOrder();
    int n = rows.size();
    BlockLoop[] loops = new BlockLoop[threads];
    for (int j = 0; j < threads; j++) {
      loops[j] = new BlockLoop(1, false, c.epochs(), BlockLoop.IN_ORDER);
      learners.of(j)[0].copyStateFrom(into);
    }
    for (int e = 0; e < c.epochs(); e++) {
      for (int lo = 0; lo < n; lo += EVERY) {
        int hi = Math.min(n, lo + EVERY);
        for (int j = 0; j < threads; j++) {
          AbstractOptimizer mine = learners.of(j)[0];
          int from = lo + (int) ((long) (hi - lo) * j / threads);
          int to = lo + (int) ((long) (hi - lo) * (j + 1) / threads);
          loops[j].run(
              rows.labels,
              order,
              from,
              to,
              BlockLoop.BLOCK,
              e + 1,
              (o, f, t, y, yhat, losses) ->
                  mine.rounds(sparse, order, f, t, y, loss, yhat, losses));
        }
        into.merge(learners.output(0));
        for (int j = 0; j < threads; j++) {
          learners.of(j)[0].copyStateFrom(into);
        }
      }
      for (BlockLoop l : loops) {
        l.endEpoch(e);
      }
    }
    return BlockLoop.metrics(loops, n);
  }

  /** Rows of 8 nonzeros over {@code [0, D)}, low indices common, labels from two of them. */
  private static SparseDataset rows() {
    SparseDataset.Builder b = new SparseDataset.Builder();
    Random r = new Random(21);
    for (int i = 0; i < ROWS; i++) {
      TreeSet<Integer> idx = new TreeSet<>();
      while (idx.size() < 8) {
        idx.add((int) Math.min(D - 1, Math.floor(Math.pow(r.nextDouble(), 3) * D)));
      }
      int[] ix = idx.stream().mapToInt(Integer::intValue).toArray();
      double[] v = new double[ix.length];
      for (int q = 0; q < v.length; q++) {
        v[q] = r.nextGaussian();
      }
      b.addRow(v[0] + v[1] > 0 ? 1 : -1, ix, v);
    }
    return b.build();
  }
}
