package org.onlinekernels.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.bench.workload.hand.HandLoop;
import org.onlinekernels.kernel.ElementType;

/**
 * The hand-written loops do the library's rule: their mean progressive loss equals that of {@code
 * OnlineTrainer} (both input policies) and of the optimizer loop bit for bit where no summation
 * order can differ (one nonzero per row), equals the library's in {@link Lockstep} bit for bit on
 * every training file of data/ and on synthetic streams, and free-running stays within the bound
 * derived in {@link HandLoop} wherever the trajectory is not chaotic.
 */
@Tag("long")
class HandLoopAgreementTest {
  static final String[] ALGOS = {"scinol2", "adagrad"};
  static final String[] LIBRARY = {
    "trainer-trusted", "trainer-checked", "per-call", "rounds", "rounds-buffers"
  };

  static double loss(Contender c) {
    try (c) {
      c.reset();
      return c.pass();
    }
  }

  @Test
  void oneNonzeroPerRowIsBitExact() {
    // d = 256, 4,000 rows of one Zipf index: every coordinate is revisited many times.
    Workload wl = Workload.load("zipf:8:1", 4000, Workload.dataFolder());
    for (String algo : ALGOS) {
      for (ElementType t : ElementType.values()) {
        double hand = loss(HandLoop.of(algo, t, wl, false));
        assertTrue(Double.isFinite(hand) && hand > 0, algo + " " + t + ": " + hand);
        for (String lib : LIBRARY) {
          assertEquals(
              Double.valueOf(hand),
              Double.valueOf(loss(WorkloadBench.make(lib, algo, t, wl))),
              lib + " " + algo + " " + t);
        }
      }
    }
  }

  static Stream<Arguments> workloads() {
    List<Arguments> out = new ArrayList<>();
    for (String f : Workload.trainingFiles(Workload.dataFolder())) out.add(Arguments.of(f, 0L));
    out.add(Arguments.of("zipf:14:40", 200_000L));
    out.add(Arguments.of("uniform:16:8", 100_000L));
    out.add(Arguments.of("zipf:16:200", 200_000L));
    return out.stream();
  }

  @ParameterizedTest
  @MethodSource("workloads")
  void equalsTheLibraryInLockstepAndWithinTheBoundFreeRunning(String spec, long nonzeros) {
    Workload wl = Workload.load(spec, nonzeros, Workload.dataFolder());
    for (String algo : ALGOS) {
      for (ElementType t : ElementType.values()) {
        HandLoop h = HandLoop.of(algo, t, wl, true);
        h.reset();
        double hand = h.pass();
        double bound = h.agreementBound(hand);
        h.stateChecksum();
        assertEquals(
            Double.valueOf(hand),
            Double.valueOf(Lockstep.meanLoss(wl, algo, t)),
            spec + " " + algo + " " + t + " lockstep");
        // Free-running, the library sums yhat in its own order; where the trajectory is stable the
        // losses agree within the bound.
        boolean stable = WorkloadBench.stable(spec, algo);
        for (String lib : LIBRARY) {
          double l = loss(WorkloadBench.make(lib, algo, t, wl));
          System.out.printf(
              "%s %s %s %s: hand %.17g lib %.17g diff %.3g bound %.3g (%.2g of it)%n",
              spec, algo, t, lib, hand, l, Math.abs(hand - l), bound, Math.abs(hand - l) / bound);
          if (stable)
            WorkloadBench.requireAgreement(spec + " " + algo + " " + t + " " + lib, l, hand, bound);
          else assertTrue(Double.isFinite(l), lib + " " + l);
        }
      }
    }
  }
}
