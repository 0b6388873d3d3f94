package org.onlinekernels.trainer;

import org.onlinekernels.trainer.handover.KernelHandover;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * What a training run produced.
 *
 * @param model final weights, or null for a run that was asked for its figures alone ({@link
 *     OnlineTrainer#fit(org.onlinekernels.data.RowSource, java.io.PrintStream, int,
 *     OnlineTrainer.Checkpoint, boolean)})
 * @param progressive progressive validation over all epochs: every example's loss and error taken
 *     with the weights before the update on it
 * @param epochs progressive validation per epoch
 * @param test the final model on the test set, or {@code null} without one
 * @param examples examples trained on (rows x epochs)
 * @param nonzeros stored entries read in training (nnz x epochs)
 * @param seconds wall time of the training passes (packing, predict, loss, update; not reading the
 *     file, not the test evaluation)
 * @param steadyExamples examples of the steady-state span: the second half of the examples (0 when
 *     not measured)
 * @param steadySeconds wall time of that span
 * @param handoverAt after how many examples the optimizers moved from the scalar to the vector
 *     kernels ({@link KernelHandover}), or -1 if they did not
 * @param kernels the kernels the optimizers ran on at the end: {@code vector}, {@code scalar}, or
 *     {@code none} (the {@code ogd} baseline); null if not recorded
 * @param threads the threads that trained
 * @param mode how they trained: one thread, shared state, or parameter mixing
 * @param threadReport where the threads spent their time (several threads), or null
 */
public record TrainResult(
    LinearModel model,
    Metrics progressive,
    Metrics[] epochs,
    Metrics test,
    long examples,
    long nonzeros,
    double seconds,
    long steadyExamples,
    double steadySeconds,
    long handoverAt,
    String kernels,
    int threads,
    TrainingMode mode,
    ThreadReport threadReport) {
  /**
   * The shortest span a rate is given for: below it the JVM's own start-up work (class loading, the
   * JIT compiling the loop) is a large share of the time, and the figure would describe the JVM
   * rather than the training.
   */
  public static final double MIN_RATE_SECONDS = 0.1;

  /** A result without a thread report. */
  public TrainResult(
      LinearModel model,
      Metrics progressive,
      Metrics[] epochs,
      Metrics test,
      long examples,
      long nonzeros,
      double seconds,
      long steadyExamples,
      double steadySeconds,
      long handoverAt,
      String kernels,
      int threads,
      TrainingMode mode) {
    this(
        model,
        progressive,
        epochs,
        test,
        examples,
        nonzeros,
        seconds,
        steadyExamples,
        steadySeconds,
        handoverAt,
        kernels,
        threads,
        mode,
        null);
  }

  /** A result of one thread. */
  public TrainResult(
      LinearModel model,
      Metrics progressive,
      Metrics[] epochs,
      Metrics test,
      long examples,
      long nonzeros,
      double seconds,
      long steadyExamples,
      double steadySeconds,
      long handoverAt,
      String kernels) {
    this(
        model,
        progressive,
        epochs,
        test,
        examples,
        nonzeros,
        seconds,
        steadyExamples,
        steadySeconds,
        handoverAt,
        kernels,
        1,
        TrainingMode.SEQUENTIAL);
  }

  /** A result of one thread without a steady-state span and without a handover. */
  public TrainResult(
      LinearModel model,
      Metrics progressive,
      Metrics[] epochs,
      Metrics test,
      long examples,
      long nonzeros,
      double seconds) {
    this(model, progressive, epochs, test, examples, nonzeros, seconds, 0, 0, -1, null);
  }

  /**
   * A result of {@code threads} threads in {@code mode}, without a steady-state span and without a
   * handover.
   */
  public TrainResult(
      LinearModel model,
      Metrics progressive,
      Metrics[] epochs,
      Metrics test,
      long examples,
      long nonzeros,
      double seconds,
      int threads,
      TrainingMode mode) {
    this(
        model,
        progressive,
        epochs,
        test,
        examples,
        nonzeros,
        seconds,
        0,
        0,
        -1,
        null,
        threads,
        mode);
  }

  /** Training examples per second of wall time over all passes. */
  public double examplesPerSecond() {
    return examples / seconds;
  }

  /** Stored input entries per second of wall time over all passes. */
  public double nonzerosPerSecond() {
    return nonzeros / seconds;
  }

  /**
   * Whether the passes took long enough for {@link #examplesPerSecond} to mean something ({@link
   * #MIN_RATE_SECONDS}).
   */
  public boolean rateMeasured() {
    return seconds >= MIN_RATE_SECONDS;
  }

  /**
   * Examples per second over the steady-state span (the second half of the examples, after the
   * JIT's warm-up had the first half), or NaN without one.
   */
  public double steadyExamplesPerSecond() {
    return steadyExamples == 0 ? Double.NaN : steadyExamples / steadySeconds;
  }

  /** Whether the steady-state span lasted at least {@link #MIN_RATE_SECONDS}. */
  public boolean steadyRateMeasured() {
    return steadyExamples > 0 && steadySeconds >= MIN_RATE_SECONDS;
  }
}
