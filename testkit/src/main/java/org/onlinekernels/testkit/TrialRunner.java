package org.onlinekernels.testkit;

import java.util.Iterator;
import java.util.Random;
import java.util.function.Consumer;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.RandomGenerator;
import net.jqwik.api.Shrinkable;
import org.onlinekernels.testkit.KernelCheck.Trial;

/**
 * Runs a {@link KernelCheck}'s random trials outside jqwik's runner: draws them from a seed, and
 * shrinks the first failing one (jqwik's shrinking of the same generators) into a {@link
 * CheckFailure}.
 */
final class TrialRunner {
  /** Shrinking stops after this many candidate trials. */
  private static final int SHRINK_BUDGET = 2000;

  private final String algorithm;
  private final Consumer<Trial> check;

  /**
   * @param algorithm the algorithm's name in the failure
   * @param check checks one trial, throwing if it fails
   */
  TrialRunner(String algorithm, Consumer<Trial> check) {
    this.algorithm = algorithm;
    this.check = check;
  }

  /** Runs {@code tries} trials drawn from {@code trials} with seed {@code s}. */
  void run(Arbitrary<Trial> trials, int tries, long s) {
    Random random = new Random(s);
    RandomGenerator<Trial> generator = trials.generator(1000);
    for (int i = 1; i <= tries; i++) {
      Shrinkable<Trial> drawn = generator.next(random);
      Throwable failure = failure(drawn.value());
      if (failure != null) {
        shrinkAndThrow(drawn, failure, s, i);
      }
    }
  }

  /**
   * Greedy shrinking: take the first smaller trial that still fails, until none does (or the budget
   * is spent).
   */
  private void shrinkAndThrow(Shrinkable<Trial> drawn, Throwable failure, long s, int tryNumber) {
    Shrinkable<Trial> best = drawn;
    Throwable bestFailure = failure;
    int steps = 0, candidates = 0;
    boolean smaller = true;
    while (smaller && candidates < SHRINK_BUDGET) {
      smaller = false;
      Iterator<Shrinkable<Trial>> it = best.shrink().iterator();
      while (it.hasNext() && candidates < SHRINK_BUDGET) {
        Shrinkable<Trial> candidate = it.next();
        candidates++;
        Throwable f = failure(candidate.value());
        if (f != null) {
          best = candidate;
          bestFailure = f;
          steps++;
          smaller = true;
          break;
        }
      }
    }
    throw new CheckFailure(
        algorithm, best.value(), drawn.value(), s, tryNumber, steps, candidates, bestFailure);
  }

  private Throwable failure(Trial t) {
    try {
      check.accept(t);
      return null;
    } catch (AssertionError | RuntimeException e) {
      return e;
    }
  }
}
