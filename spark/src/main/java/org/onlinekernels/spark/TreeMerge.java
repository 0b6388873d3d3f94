package org.onlinekernels.spark;

import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import scala.Tuple2;

/**
 * Pairwise merging of the partitions' round results in a fixed binary tree: at level {@code l} the
 * groups of partitions {@code [2j 2^l, (2j + 1) 2^l)} and {@code [(2j + 1) 2^l, (2j + 2) 2^l)}
 * combine (the lower first) in one task of a {@code reduceByKey} by key {@code j}; after {@code
 * ceil(log2 P)} levels one result reaches the driver. No task and not the driver holds more than
 * two groups' summaries, each {@code O(d)} per output, whatever {@code P}; the tree depends on
 * {@code P} only, so the bits do not depend on which task finishes first.
 */
final class TreeMerge {
  private TreeMerge() {}

  /**
   * The combination of every result of {@code results} (partition indices below {@code
   * partitions}), or null if there is none.
   */
  static RoundResult reduce(JavaRDD<RoundResult> results, int partitions) {
    JavaPairRDD<Integer, RoundResult> level =
        results.mapToPair(r -> new Tuple2<>(r.partition(), r));
    for (int width = partitions; width > 1; ) {
      width = (width + 1) / 2;
      level =
          level
              .mapToPair(t -> new Tuple2<>(t._1() / 2, t._2()))
              .reduceByKey(TreeMerge::pair, width);
    }
    List<RoundResult> root = level.values().collect();
    if (root.size() > 1) {
      throw new IllegalStateException(
          "the merge tree ended with " + root.size() + " results instead of one");
    }
    return root.isEmpty() ? null : root.get(0);
  }

  /** Two groups of one level, the lower partitions first, whichever arrives first. */
  static RoundResult pair(RoundResult a, RoundResult b) {
    return a.partition() < b.partition() ? a.then(b) : b.then(a);
  }
}
