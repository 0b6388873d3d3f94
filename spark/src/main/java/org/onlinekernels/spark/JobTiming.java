package org.onlinekernels.spark;

import java.util.Locale;

/**
 * Where a job's time went: the rounds' wall time on the driver, and within it the training, i.e.
 * the slowest partition's pass over its slice in each round (partitions train at once, so a round
 * waits for its slowest). The rest of a round is the cost of training apart and merging: the state
 * broadcast and restored in every partition, the summaries, the merge tree, the driver's merge and
 * Spark's scheduling of the tasks. Measured with {@link System#nanoTime} on the driver and in the
 * tasks.
 */
public final class JobTiming {
  private long partitionNanos;
  private long roundNanos;
  private long trainNanos;
  private int rounds;

  /** Time spent spreading the rows over the partitions (once per job). */
  public long partitionNanos() {
    return partitionNanos;
  }

  /** The rounds' wall time on the driver, summed. */
  public long roundNanos() {
    return roundNanos;
  }

  /** The slowest partition's training time of each round, summed. */
  public long trainNanos() {
    return trainNanos;
  }

  /** Rounds run (passes times rounds per pass). */
  public int rounds() {
    return rounds;
  }

  /** The share of the rounds' time that is not training: {@code 1 - train / rounds}. */
  public double mergeShare() {
    return roundNanos == 0 ? Double.NaN : 1 - (double) trainNanos / roundNanos;
  }

  void addPartitioning(long nanos) {
    partitionNanos += nanos;
  }

  void addRound(long wallNanos, long slowestTrainNanos) {
    roundNanos += wallNanos;
    trainNanos += slowestTrainNanos;
    rounds++;
  }

  /** One line: partitioning, rounds, training and the rest (the merges' share). */
  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "partitioning %.2f s; %d rounds %.2f s: training %.2f s, merging and scheduling %.2f s"
            + " (%.0f %%)",
        partitionNanos / 1e9,
        rounds,
        roundNanos / 1e9,
        trainNanos / 1e9,
        (roundNanos - trainNanos) / 1e9,
        100 * mergeShare());
  }
}
