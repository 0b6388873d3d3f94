package org.onlinekernels.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.onlinekernels.optimizer.parallel.MergeSummary;

/**
 * {@link TreeMerge}: the partitions' results meet in the documented tree (adjacent pairs level by
 * level, an odd one carried up: {@code (p0 p1)(p2 p3)} for 4, {@code ((p0 p1)(p2 p3)) p4} for 5),
 * whatever order they arrive in. Each result's two sums are chosen so that every other tree over
 * them, in any order (a fold as Spark's {@code reduce} or {@code treeReduce} makes, pairs of other
 * neighbours), rounds to another pair of doubles: the job's bits depend on this tree (issue #41:
 * with the tree replaced by Spark's {@code treeReduce}, every Spark test stayed green). Runs Spark:
 * the long stage.
 */
@Tag("long")
class TreeMergeTest {
  @Test
  void resultsMeetInTheDocumentedTreeWhateverOrderTheyArriveIn() {
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(SparkTestSession.get().sparkContext());
    merged(jsc, new double[][] {{3, 7}, {0x1p54, 0x1p53}, {5, 0.5}, {-0x1p53, 1}});
    merged(jsc, new double[][] {{-0x1p54, 7}, {7, 3}, {5, -0x1p54}, {0.5, 0x1p52}, {0x1p54, 3}});
  }

  /** Partition p's result has loss sum {@code sums[p][0]}, error sum {@code sums[p][1]}. */
  private static void merged(JavaSparkContext jsc, double[][] sums) {
    int n = sums.length;
    List<RoundResult> results = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      results.add(new RoundResult(p, new MergeSummary[0], p + 1, sums[p][0], sums[p][1], p));
    }
    double[][] level = sums;
    while (level.length > 1) {
      double[][] up = new double[(level.length + 1) / 2][];
      for (int i = 0; i < up.length; i++) {
        up[i] =
            2 * i + 1 < level.length
                ? new double[] {
                  level[2 * i][0] + level[2 * i + 1][0], level[2 * i][1] + level[2 * i + 1][1]
                }
                : level[2 * i];
      }
      level = up;
    }
    Collections.reverse(results); // the last partition's result first
    RoundResult root = TreeMerge.reduce(jsc.parallelize(results, n), n);
    String what = n + " partitions";
    assertEquals(Double.valueOf(level[0][0]), Double.valueOf(root.lossSum()), what + ": loss sum");
    assertEquals(Double.valueOf(level[0][1]), Double.valueOf(root.errSum()), what + ": error sum");
    assertEquals((long) n * (n + 1) / 2, root.examples(), what);
  }
}
