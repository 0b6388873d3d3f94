package org.onlinekernels.spark;

import java.io.Serializable;
import org.onlinekernels.optimizer.parallel.MergeSummary;

/**
 * What a group of partitions returns from one round: the merge summary of each output's learners
 * and the progressive sums of the rows they trained on. Groups combine two at a time ({@link
 * TreeMerge}), the lower partition first.
 *
 * @param partition the lowest partition of the group
 * @param outputs one summary per output
 * @param trainNanos the longest time a partition of the group spent in its learners' pass over its
 *     rows (the part of a round that is training, not merging)
 */
record RoundResult(
    int partition,
    MergeSummary[] outputs,
    long examples,
    double lossSum,
    double errSum,
    long trainNanos)
    implements Serializable {

  /** This group followed by {@code later} (a group of higher partitions). */
  RoundResult then(RoundResult later) {
    MergeSummary[] s = new MergeSummary[outputs.length];
    for (int c = 0; c < s.length; c++) {
      s[c] = outputs[c].then(later.outputs[c]);
    }
    return new RoundResult(
        partition,
        s,
        examples + later.examples,
        lossSum + later.lossSum,
        errSum + later.errSum,
        Math.max(trainNanos, later.trainNanos));
  }
}
