package org.onlinekernels.bench.workload;

/**
 * One way of doing the job: one online pass (predict, logistic loss, update, per row, in file
 * order) over a {@link Workload}, from a fresh model.
 */
public interface Contender extends AutoCloseable {
  /** Starts from a fresh model (not timed: JMH calls it before every pass). */
  void reset();

  /**
   * One pass over every row from the state {@link #reset} left.
   *
   * @return the mean progressive logistic loss (summed over the outputs of a multiclass model), or
   *     {@code NaN} for a peer that does not predict before it trains (Tribuo)
   */
  double pass();

  /** Frees the model. */
  @Override
  void close();
}
