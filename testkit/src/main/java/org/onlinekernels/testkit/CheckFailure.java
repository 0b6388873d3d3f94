package org.onlinekernels.testkit;

/**
 * A {@link KernelCheck} found an implementation that disagrees with the reference: the shrunk
 * counterexample, the trial first found, and the seed that reproduces both ({@link
 * KernelCheck#seed(long)}). The cause is the shrunk trial's own failure (which prediction or state
 * element, by how much, against which bound; or the implementation's exception).
 */
public final class CheckFailure extends AssertionError {
  private static final long serialVersionUID = 1L;

  /** The shrunk counterexample. */
  private final transient KernelCheck.Trial counterexample;

  /** The failing trial as first drawn. */
  private final transient KernelCheck.Trial original;

  private final long seed;

  CheckFailure(
      String algorithm,
      KernelCheck.Trial counterexample,
      KernelCheck.Trial original,
      long seed,
      int tryNumber,
      int shrinkSteps,
      int candidates,
      Throwable cause) {
    super(
        String.format(
            "%s: %s falsified on try %d, seed %d (reproduce with .seed(%dL))%n"
                + "  shrunk in %d steps (%d candidates tried) to: %s%n  first found:           %s%n  failure: %s",
            algorithm,
            counterexample.property(),
            tryNumber,
            seed,
            seed,
            shrinkSteps,
            candidates,
            counterexample,
            original,
            cause.getMessage() == null ? cause.toString() : cause.getMessage()),
        cause);
    this.counterexample = counterexample;
    this.original = original;
    this.seed = seed;
  }

  /** The shrunk counterexample. */
  public KernelCheck.Trial counterexample() {
    return counterexample;
  }

  /** The failing trial as first drawn, before shrinking. */
  public KernelCheck.Trial original() {
    return original;
  }

  /** The seed of the run that found it. */
  public long seed() {
    return seed;
  }
}
