package org.onlinekernels.trainer;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A training call's progress line on a terminal: epoch, examples and rate, rewritten in place at
 * most once a second (the loop's only allocation), and wiped at the end if it was ever written.
 */
final class ProgressLine {
  private static final long SECOND = 1_000_000_000L;
  private final PrintStream out;
  private final int epochs;
  private final int n;
  private final long t0 = System.nanoTime();
  private long next = t0 + SECOND;

  /** A line for a call of {@code epochs} passes over {@code n} examples ({@code -1}: a stream). */
  ProgressLine(PrintStream out, int epochs, int n) {
    this.out = out;
    this.epochs = epochs;
    this.n = n;
  }

  /** {@code done} examples of epoch {@code e} (0-based) are trained: prints if a second passed. */
  void at(int e, int done) {
    at(e, done, (long) e * n + done);
  }

  /**
   * {@code done} examples of epoch {@code e} (0-based) are trained, {@code all} over the call:
   * prints if a second passed.
   */
  void at(int e, long done, long all) {
    long now = System.nanoTime();
    if (now <= next) {
      return;
    }
    double sec = (now - t0) / 1e9;
    if (n < 0) {
      out.printf(
          Locale.ROOT,
          "\repoch %d/%d  %d examples  %.0f examples/s  ",
          e + 1,
          epochs,
          done,
          all / sec);
    } else {
      out.printf(
          Locale.ROOT,
          "\repoch %d/%d  %d/%d examples  %.0f examples/s  ",
          e + 1,
          epochs,
          done,
          n,
          all / sec);
    }
    out.flush();
    next = System.nanoTime() + SECOND;
  }

  /** The call is over: wipes the line if the call lasted long enough to have written one. */
  void end() {
    if (System.nanoTime() - t0 > SECOND) {
      out.print("\r" + " ".repeat(70) + "\r");
      out.flush();
    }
  }
}
