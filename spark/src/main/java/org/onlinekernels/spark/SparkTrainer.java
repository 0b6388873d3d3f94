package org.onlinekernels.spark;

import org.onlinekernels.optimizer.StateLayout;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.storage.StorageLevel;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.trainer.Datasets;
import org.onlinekernels.trainer.Metrics;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.parallel.Rows;
import org.onlinekernels.trainer.parallel.ShardWorker;
import scala.Tuple2;

/**
 * Online training on Apache Spark by iterative parameter mixing (docs/MERGING.md): the rows of a
 * LIBSVM {@link Dataset} (Spark's own {@code libsvm} reader: a {@code label} and a sparse
 * {@code features} vector) are spread over {@code P} partitions; every epoch the merged state is
 * broadcast, each partition trains its own learners on its rows with our kernels inside
 * {@code mapPartitionsWithIndex}, and the partitions' states come back through
 * {@code treeAggregate} to the driver, which merges them with the optimizers' {@code merge}.
 *
 * <p>Deterministic: row {@code i} of the input (in the reader's order) goes to partition
 * {@code i mod P}, in increasing {@code i}, shuffled per epoch by {@link #partitionOrder}; the
 * merge takes the learners in its canonical order. The model is therefore bit for bit the one the
 * same learners would give in one process, whichever task finishes first.
 *
 * <p>Why the tree gathers states instead of merging them pairwise: the ScInOL and DFEG rule is a
 * mean over the learners, which two-at-a-time merging would weight unevenly; the driver merges all
 * {@code P} states at once ({@code O(P d)} memory on the driver for {@code P} states).
 */
public final class SparkTrainer {
  private SparkTrainer() {}

  /** One LIBSVM row. */
  record LabeledRow(double label, int[] indices, double[] values) implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
  }

  /**
   * Trains on {@code data} with {@code partitions} partitions.
   *
   * @param job algorithm, element type, loss, epochs, seed, shuffling
   * @param data a LIBSVM dataset as Spark's {@code libsvm} source reads it
   * @param partitions {@code P >= 1}
   * @return the merged model and the progressive metrics of each epoch
   */
  public static SparkModel train(JobSpec job, Dataset<Row> data, int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
    }
    TrainerConfig config = job.config();
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(data.sparkSession().sparkContext());
    JavaPairRDD<Long, LabeledRow> rows = rows(data)
        .repartitionAndSortWithinPartitions(new HashPartitioner(partitions))
        .persist(StorageLevel.MEMORY_ONLY());
    try {
      List<Double> labels = rows.map(r -> r._2().label()).distinct().collect();
      if (labels.isEmpty()) {
        throw new IllegalArgumentException("the training data has no rows");
      }
      boolean binary = labels.stream().allMatch(y -> y == 1.0 || y == -1.0);
      int classes = binary ? 1 : classes(labels);
      int d = dimension(data);
      int maxNnz = rows.map(r -> r._2().indices().length).reduce(Math::max);
      Metrics[] epochs = new Metrics[config.epochs()];
      try (OnlineTrainer merged = new OnlineTrainer(config, d, !binary, binary ? 1 : classes, null, StateLayout.PLANAR)) {
        int k = merged.outputs();
        AbstractOptimizer[] master = new AbstractOptimizer[k];
        for (int c = 0; c < k; c++) {
          master[c] = (AbstractOptimizer) merged.optimizer(c);
        }
        for (int e = 0; e < config.epochs(); e++) {
          Broadcast<StateSnapshot> start = jsc.broadcast(new StateSnapshot(master, -1, 0, 0, 0));
          int epoch = e;
          JavaRDD<StateSnapshot> trained = rows.mapPartitionsWithIndex(
              (p, it) -> trainPartition(job, d, !binary, k, maxNnz, start.value(), epoch, p, it), true);
          ArrayList<StateSnapshot> states = trained.treeAggregate(new ArrayList<>(),
              (acc, s) -> {
                acc.add(s);
                return acc;
              },
              (a, b) -> {
                a.addAll(b);
                return a;
              }, 2);
          start.destroy();
          epochs[e] = mergeInto(config, d, master, states);
        }
        return new SparkModel(job, merged.model(), epochs);
      }
    } finally {
      rows.unpersist(false);
    }
  }

  /** The rows keyed by their position in the reader's order. */
  private static JavaPairRDD<Long, LabeledRow> rows(Dataset<Row> data) {
    return data.select("label", "features").javaRDD().zipWithIndex().mapToPair(t -> {
      Row r = t._1();
      SparseVector v = ((Vector) r.get(1)).toSparse();
      return new Tuple2<>(t._2(), new LabeledRow(r.getDouble(0), v.indices(), v.values()));
    });
  }

  private static int classes(List<Double> labels) {
    double max = 0;
    for (double y : labels) {
      if (y < 0 || y != Math.rint(y)) {
        throw new IllegalArgumentException("labels must be +1/-1 (binary) or 0, 1, 2, ... (multiclass), found " + y);
      }
      max = Math.max(max, y);
    }
    return Math.max(2, (int) max + 1);
  }

  /** The features' dimension as the reader gives it (its {@code numFeatures} option, or the largest index). */
  static int dimension(Dataset<Row> data) {
    return Math.max(1, ((Vector) data.select("features").first().get(0)).size());
  }

  /**
   * The order in which partition {@code p} trains on its {@code n} rows in epoch {@code e}: a
   * shuffle seeded by the job's seed, the epoch and the partition (or the stored order).
   */
  static int[] partitionOrder(JobSpec job, int n, int epoch, int p) {
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    if (job.shuffle()) {
      long seed = job.seed() * 0x9E3779B97F4A7C15L + epoch * 0xBF58476D1CE4E5B9L + p;
      Datasets.shuffle(order, new Random(seed));
    }
    return order;
  }

  /** One partition's pass: learners from the broadcast state, trained on the partition's rows. */
  private static Iterator<StateSnapshot> trainPartition(JobSpec job, int d, boolean multi, int k, int maxNnz,
      StateSnapshot start, int epoch, int p, Iterator<Tuple2<Long, LabeledRow>> it) {
    SparseDataset.Builder b = new SparseDataset.Builder().minDimension(d);
    while (it.hasNext()) {
      LabeledRow r = it.next()._2();
      b.addRow(r.label(), r.indices(), r.values());
    }
    SparseDataset part = b.build();
    if (part.size() == 0) {
      return Collections.emptyIterator();
    }
    try (Arena arena = Arena.ofConfined()) {
      ShardWorker w = new ShardWorker(job.config(), d, multi, k, maxNnz, arena);
      start.restore(w.learners);
      w.run(new Rows(part), partitionOrder(job, part.size(), epoch, p), 0, part.size());
      StateSnapshot s = new StateSnapshot(w.learners, p, part.size(), w.lossSum, w.errSum);
      for (AbstractOptimizer o : w.learners) {
        o.close();
      }
      return List.of(s).iterator();
    }
  }

  /** Merges the partitions' states into {@code master}; returns the epoch's progressive metrics. */
  static Metrics mergeInto(TrainerConfig config, int d, AbstractOptimizer[] master, List<StateSnapshot> states) {
    List<StateSnapshot> sorted = new ArrayList<>(states);
    sorted.sort((a, b) -> Integer.compare(a.partition, b.partition));
    long n = 0;
    double loss = 0;
    double err = 0;
    try (Arena arena = Arena.ofConfined()) {
      List<AbstractOptimizer[]> learners = new ArrayList<>();
      for (StateSnapshot s : sorted) {
        AbstractOptimizer[] o = new AbstractOptimizer[master.length];
        for (int c = 0; c < o.length; c++) {
          o[c] = (AbstractOptimizer) config.algorithm().create(d, config.precision(), StateLayout.PLANAR, arena, null);
        }
        s.restore(o);
        learners.add(o);
        n += s.examples;
        loss += s.lossSum;
        err += s.errSum;
      }
      for (int c = 0; c < master.length; c++) {
        List<AbstractOptimizer> column = new ArrayList<>();
        for (AbstractOptimizer[] o : learners) {
          column.add(o[c]);
        }
        master[c].merge(column);
      }
    }
    return new Metrics(n, n == 0 ? Double.NaN : loss / n, n == 0 ? Double.NaN : err / n);
  }
}
