package org.onlinekernels.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.trainer.TrainResult;

/**
 * {@code train}'s throughput and kernels lines: a rate only where its span lasted 0.1 s
 * (docs/CLI.md).
 */
class ThroughputLineTest {
  private static TrainResult result(
      long examples, double seconds, double steadySeconds, long handoverAt, String kernels) {
    return new TrainResult(
        null,
        null,
        null,
        null,
        examples,
        10 * examples,
        seconds,
        examples - examples / 2,
        steadySeconds,
        handoverAt,
        kernels);
  }

  @Test
  void bothRatesWhenBothSpansLastedLongEnough() {
    assertEquals(
        "throughput: whole pass 500 examples/s, 5000 nonzeros/s (1000 examples in 2.000 s); "
            + "steady state 1000 examples/s (second half: 500 examples in 0.500 s)",
        TrainReport.throughput(result(1000, 2.0, 0.5, -1, "vector")));
  }

  @Test
  void noRateForATooShortRun() {
    assertEquals(
        "throughput: whole pass no rate (270 examples in 0.046 s); steady state no rate "
            + "(second half: 135 examples in 0.016 s); a rate needs at least 0.1 s of training",
        TrainReport.throughput(result(270, 0.046, 0.016, -1, "scalar")));
  }

  @Test
  void theSteadyStateAloneCanBeTooShort() {
    assertEquals(
        "throughput: whole pass 2000 examples/s, 20000 nonzeros/s (300 examples in 0.150 s); "
            + "steady state no rate (second half: 150 examples in 0.050 s); a rate needs at least 0.1 s of training",
        TrainReport.throughput(result(300, 0.15, 0.05, -1, "vector")));
  }

  @Test
  void theKernelsLineSaysWhereTheHandoverFell() {
    String chosen = KernelProvider.get().name();
    assertEquals(
        chosen + " kernels (scalar for the first 4096 examples, while the vector ones compiled)",
        TrainReport.kernelsLine(result(10_000, 1, 0.4, 4096, "vector")));
    assertEquals(chosen + " kernels", TrainReport.kernelsLine(result(10_000, 1, 0.4, -1, chosen)));
    assertEquals(chosen + " kernels", TrainReport.kernelsLine(result(10_000, 1, 0.4, -1, "none")));
    String other = chosen.equals("vector") ? "scalar" : "vector";
    assertEquals(
        chosen
            + " kernels chosen, "
            + other
            + " kernels run (no faster vector path for this run: docs/CLI.md, \"Cold start\")",
        TrainReport.kernelsLine(result(100_000, 6, 2, -1, other)));
    // A run too short to race ends where it started, by design: only the kernels it ran on.
    assertEquals(other + " kernels", TrainReport.kernelsLine(result(100, 0.01, 0.004, -1, other)));
    assertEquals(other + " kernels", TrainReport.kernelsLine(result(10_000, 4.9, 2, -1, other)));
  }
}
