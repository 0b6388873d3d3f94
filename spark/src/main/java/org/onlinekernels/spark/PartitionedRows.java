package org.onlinekernels.spark;

import java.io.Serializable;
import java.util.HashSet;
import java.util.List;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.storage.StorageLevel;
import scala.Tuple2;

/**
 * A data set spread over {@code P} partitions for training: row {@code i} (in the data set's order)
 * goes to partition {@code i mod P}, in increasing {@code i}, packed ({@link PartitionRows}) and
 * kept in memory until {@link #close}; with what the driver needs to know of it.
 */
final class PartitionedRows implements AutoCloseable {
  /**
   * Most distinct labels a training set may have (a regression target is refused, not enumerated).
   */
  static final int MAX_LABELS = 100_000;

  final JavaRDD<PartitionRows> parts;
  final int partitions;

  /** Rows, the largest vector size, the most nonzeros of a row, the distinct labels. */
  final long n;

  final int size;
  final int maxNnz;
  final HashSet<Double> labels;

  private PartitionedRows(JavaRDD<PartitionRows> parts, int partitions, Stats s) {
    this.parts = parts;
    this.partitions = partitions;
    this.n = s.n;
    this.size = s.size;
    this.maxNnz = s.maxNnz;
    this.labels = s.labels;
  }

  /**
   * Partitions {@code data}'s columns {@code labelCol} (numeric) and {@code featuresCol} (vectors).
   *
   * @param partitions {@code P >= 1}
   */
  static PartitionedRows of(Dataset<?> data, String labelCol, String featuresCol, int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
    }
    JavaRDD<PartitionRows> parts =
        data.select(functions.col(labelCol).cast(DataTypes.DoubleType), functions.col(featuresCol))
            .javaRDD()
            .zipWithIndex()
            .mapToPair(t -> new Tuple2<>(t._2(), PartitionRows.LabeledRow.of(t._1())))
            .repartitionAndSortWithinPartitions(new HashPartitioner(partitions))
            .mapPartitionsWithIndex((p, it) -> List.of(PartitionRows.of(p, it)).iterator(), true)
            .persist(StorageLevel.MEMORY_ONLY());
    try {
      return new PartitionedRows(parts, partitions, parts.map(Stats::of).reduce(Stats::add));
    } catch (RuntimeException e) {
      parts.unpersist(false);
      throw e;
    }
  }

  @Override
  public void close() {
    parts.unpersist(false);
  }

  /** Counts of the partitions, added up on the driver. */
  private record Stats(long n, int size, int maxNnz, HashSet<Double> labels)
      implements Serializable {
    static Stats of(PartitionRows p) {
      HashSet<Double> seen = new HashSet<>();
      for (double y : p.labels) {
        seen.add(y);
        if (seen.size() > MAX_LABELS) {
          throw tooMany();
        }
      }
      return new Stats(p.size(), p.size, p.maxNnz, seen);
    }

    Stats add(Stats o) {
      HashSet<Double> all = new HashSet<>(labels);
      all.addAll(o.labels);
      if (all.size() > MAX_LABELS) {
        throw tooMany();
      }
      return new Stats(n + o.n, Math.max(size, o.size), Math.max(maxNnz, o.maxNnz), all);
    }

    private static IllegalArgumentException tooMany() {
      return new IllegalArgumentException(
          "the labels take more than "
              + MAX_LABELS
              + " values: labels must be"
              + " +1/-1, 0/1 or classes 0..K-1");
    }
  }
}
