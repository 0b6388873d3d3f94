package org.onlinekernels.optimizer.merge;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.onlinekernels.optimizer.state.MergePlan;

/**
 * The arithmetic every merge shares ({@link StateMerger} on live learners, {@link
 * org.onlinekernels.optimizer.parallel.MergeSummary} on their summaries): reading and writing an
 * element in its type, bit equality, and the SUM, AVERAGE and MEAN combinations of docs/MERGING.md,
 * so that both merges give the same bits.
 */
public final class MergeArithmetic {
  private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;

  private MergeArithmetic() {}

  /**
   * {@link MergePlan.Rule#MEAN}: a learner's mixture weight at a coordinate, from its increment of
   * the weighting buffer there (0 without one) and its {@link StateMerger#scalarWeight}.
   */
  public static double meanWeight(double bufferIncrement, double scalarWeight) {
    return Math.max(0, bufferIncrement + scalarWeight);
  }

  /**
   * {@link MergePlan.Rule#MEAN} of {@code count >= 2} contributors: their weighted mean, or their
   * plain mean when the weights sum to 0 or a sum overflowed (before the clamp).
   */
  public static double mean(int count, double sumCw, double sumC, double sumW) {
    return sumC > 0 && Double.isFinite(sumC) && Double.isFinite(sumCw)
        ? sumCw / sumC
        : sumW / count;
  }

  /** Element {@code i} of a dense buffer of floats ({@code f}) or doubles, as a double. */
  public static double get(MemorySegment s, boolean f, int i) {
    return f ? s.getAtIndex(F, i) : s.getAtIndex(D, i);
  }

  /** Sets element {@code i} of a dense buffer of floats ({@code f}, rounded) or doubles. */
  public static void put(MemorySegment s, boolean f, int i, double v) {
    if (f) {
      s.setAtIndex(F, i, (float) v);
    } else {
      s.setAtIndex(D, i, v);
    }
  }

  public static boolean same(double a, double b) {
    return Double.doubleToRawLongBits(a) == Double.doubleToRawLongBits(b);
  }

  /**
   * The contributors' combination from their count {@code m}, the first one's value and the sums of
   * the increments of all of them and of all but the first: none, the start; one, its value as is;
   * several, the first contributor plus the others' increments (SUM), or the start plus the mean
   * increment (AVERAGE).
   */
  public static double finish(
      double x0, double first, double all, double others, int m, boolean average) {
    if (m <= 1) {
      return first;
    }
    return average ? x0 + all / m : first + others;
  }

  /** SUM or AVERAGE of one element or scalar over the learners. */
  public static double combine(double x0, double[] xs, boolean average) {
    double first = x0;
    double all = 0;
    double others = 0;
    int m = 0;
    for (double x : xs) {
      if (same(x, x0)) {
        continue;
      }
      if (m++ == 0) {
        first = x;
      } else {
        others += x - x0;
      }
      all += x - x0;
    }
    return finish(x0, first, all, others, m, average);
  }
}
