package org.onlinekernels.spark;

import java.lang.foreign.Arena;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.parallel.MergeSummary;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.parallel.Rows;
import org.onlinekernels.trainer.parallel.ShardWorker;

/**
 * Online training on Apache Spark by iterative parameter mixing (docs/MERGING.md): the rows are
 * spread over {@code P} partitions ({@link PartitionedRows}); every pass is cut into rounds of
 * about {@code mergeEvery} examples (all partitions together; one round per pass when 0). In each
 * round the driver broadcasts the merged state, each partition trains its own learners on its next
 * slice of rows with our kernels, summarizes them ({@link MergeSummary}), and the summaries combine
 * pairwise up a fixed tree ({@link TreeMerge}) to the driver, which merges the root into the state.
 *
 * <p>Deterministic: partition {@code p}'s rows are visited in the order {@link #partitionOrder}
 * gives for the pass, its round {@code r} of {@code R} takes positions {@code [n_p r / R, n_p (r +
 * 1) / R)}, and the tree depends only on {@code P}; the model is the same bits on every run,
 * whichever task finishes first.
 */
public final class SparkTrainer {
  private SparkTrainer() {}

  /**
   * Trains a model on {@code data}'s {@code label} and {@code features} columns (as Spark's {@code
   * libsvm} reader names them) with {@code partitions} partitions.
   */
  public static SparkModel train(JobSpec job, Dataset<?> data, int partitions) {
    return train(job, data, "label", "features", partitions);
  }

  /**
   * Trains a model for {@code job.epochs()} passes over {@code data}.
   *
   * @param labelCol numeric labels: {@code +1/-1} or {@code 0/1} (binary), or classes {@code
   *     0..K-1}
   * @param featuresCol feature vectors; the model's dimension is their size
   * @param partitions {@code P >= 1}
   * @return the merged model and the progressive metrics of each epoch
   */
  public static SparkModel train(
      JobSpec job, Dataset<?> data, String labelCol, String featuresCol, int partitions) {
    JobTiming timing = new JobTiming();
    long t0 = System.nanoTime();
    try (PartitionedRows rows = PartitionedRows.of(data, labelCol, featuresCol, partitions);
        MergedState state =
            new MergedState(job.config(), Math.max(1, rows.size), Labels.seen(rows.labels))) {
      timing.addPartitioning(System.nanoTime() - t0);
      Metrics[] epochs = new Metrics[job.epochs()];
      for (int e = 0; e < epochs.length; e++) {
        epochs[e] = pass(job, rows, state, e, timing);
      }
      return new SparkModel(state.model(), epochs, timing);
    }
  }

  /** {@link #pass(JobSpec, PartitionedRows, MergedState, long, JobTiming)}, untimed. */
  static Metrics pass(JobSpec job, PartitionedRows rows, MergedState state, long pass) {
    return pass(job, rows, state, pass, new JobTiming());
  }

  /**
   * One pass over {@code rows} from the merged state, merged every {@code job.mergeEvery()}
   * examples and at the end.
   *
   * @param pass the pass's number, which seeds the partitions' shuffles
   * @param timing adds each round's wall time and its slowest partition's training time
   * @return the pass's progressive metrics
   */
  static Metrics pass(
      JobSpec job, PartitionedRows rows, MergedState state, long pass, JobTiming timing) {
    if (rows.size > state.d) {
      throw new IllegalArgumentException(
          "the feature vectors have size " + rows.size + "; the model's dimension is " + state.d);
    }
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(rows.parts.context());
    int rounds =
        job.mergeEvery() == 0
            ? 1
            : (int) Math.max(1, (rows.n + job.mergeEvery() - 1) / job.mergeEvery());
    long n = 0;
    double loss = 0;
    double err = 0;
    for (int r = 0; r < rounds; r++) {
      long t0 = System.nanoTime();
      Broadcast<StateSnapshot> start = jsc.broadcast(state.snapshot());
      try {
        int d = state.d;
        Labels labels = state.labels;
        int maxNnz = Math.max(1, rows.maxNnz);
        int round = r;
        JavaRDD<RoundResult> trained =
            rows.parts.mapPartitions(
                it -> trainSlice(job, d, labels, maxNnz, start.value(), pass, round, rounds, it));
        RoundResult root = TreeMerge.reduce(trained, rows.partitions);
        if (root != null) {
          state.merge(root);
          n += root.examples();
          loss += root.lossSum();
          err += root.errSum();
        }
        timing.addRound(System.nanoTime() - t0, root == null ? 0 : root.trainNanos());
      } finally {
        start.destroy();
      }
    }
    return new Metrics(n, n == 0 ? Double.NaN : loss / n, n == 0 ? Double.NaN : err / n);
  }

  /**
   * The order in which partition {@code p} visits its {@code n} rows in pass {@code pass}: a
   * shuffle seeded by the job's seed, the pass and the partition (or the stored order).
   */
  static int[] partitionOrder(JobSpec job, int n, long pass, int p) {
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    if (job.shuffle()) {
      long seed = job.seed() * 0x9E3779B97F4A7C15L + pass * 0xBF58476D1CE4E5B9L + p;
      Datasets.shuffle(order, new Random(seed));
    }
    return order;
  }

  /** Positions {@code [from, to)} of round {@code r} of {@code rounds} over {@code n} rows. */
  static int[] roundSlice(int n, int r, int rounds) {
    return new int[] {(int) ((long) n * r / rounds), (int) ((long) n * (r + 1) / rounds)};
  }

  /** One partition's round: learners from the broadcast state, trained on its slice, summarized. */
  private static Iterator<RoundResult> trainSlice(
      JobSpec job,
      int d,
      Labels labels,
      int maxNnz,
      StateSnapshot start,
      long pass,
      int round,
      int rounds,
      Iterator<PartitionRows> it) {
    if (!it.hasNext()) {
      return Collections.emptyIterator();
    }
    PartitionRows part = it.next();
    int[] order = partitionOrder(job, part.size(), pass, part.partition);
    int[] slice = roundSlice(part.size(), round, rounds);
    if (slice[0] == slice[1]) {
      return Collections.emptyIterator();
    }
    SparseDataset rows = part.slice(order, slice[0], slice[1], d, labels);
    TrainerConfig config = job.config();
    int k = labels.outputs();
    try (Arena arena = Arena.ofConfined()) {
      AbstractOptimizer[] from = new AbstractOptimizer[k];
      for (int c = 0; c < k; c++) {
        from[c] =
            (AbstractOptimizer)
                config.algorithm().create(d, config.precision(), StateLayout.PLANAR, arena, null);
      }
      start.restore(from);
      ShardWorker w = new ShardWorker(config, d, !labels.binary(), k, maxNnz, arena);
      MergeSummary[] summaries = new MergeSummary[k];
      for (int c = 0; c < k; c++) {
        w.learners[c].copyStateFrom(from[c]);
      }
      int[] identity = java.util.stream.IntStream.range(0, rows.size()).toArray();
      long t0 = System.nanoTime();
      w.run(new Rows(rows), identity, 0, rows.size());
      long trainNanos = System.nanoTime() - t0;
      for (int c = 0; c < k; c++) {
        summaries[c] = MergeSummary.of(from[c], List.of(w.learners[c]));
        w.learners[c].close();
        from[c].close();
      }
      return List.of(
              new RoundResult(
                  part.partition, summaries, rows.size(), w.lossSum, w.errSum, trainNanos))
          .iterator();
    }
  }
}
