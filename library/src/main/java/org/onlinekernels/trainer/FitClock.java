package org.onlinekernels.trainer;

import java.util.function.BooleanSupplier;
import org.onlinekernels.trainer.handover.KernelHandover;

/**
 * An {@link OnlineTrainer}'s example clock: it counts the examples seen over every fit and says
 * where a block of rows must end, so that each event of a fit lands on a row boundary: a
 * checkpoint, a look at the kernel handover ({@link KernelHandover}), and the start of the
 * steady-state span (the second half of a fit's examples, {@link TrainResult}).
 */
final class FitClock {
  private final KernelHandover handover;
  private final BooleanSupplier moveAll;
  private final TrainerConfig config;
  private final int d;

  private long seen;

  /** The examples seen before the current fit. */
  private long fitSeen;

  /** The value of {@link #seen} at which the trainer next looks at the handover; -1: never. */
  private long handoverCheck = -1;

  private long handoverAt = -1;

  /** Where the steady-state span starts: row {@code half} of epoch {@code halfEpoch}. */
  private int halfEpoch;

  private int half;
  private long halfNanos;

  /**
   * A clock for a trainer that hands over by {@code handover} ({@code null}: never), moving its
   * optimizers with {@code moveAll} (false when the move failed and the run stays where it is).
   */
  FitClock(KernelHandover handover, BooleanSupplier moveAll, TrainerConfig config, int d) {
    this.handover = handover;
    this.moveAll = moveAll;
    this.config = config;
    this.d = d;
    if (handover != null) {
      handoverCheck = handover.fixed() ? handover.at() : KernelHandover.CHECK_EVERY;
    }
  }

  /** A fit of {@code epochs} epochs over {@code n} rows starts now. */
  void fitStarts(int n, int epochs) {
    long total = (long) n * epochs;
    halfEpoch = n == 0 ? 0 : (int) ((total / 2) / n);
    half = n == 0 ? 0 : (int) ((total / 2) % n);
    halfNanos = System.nanoTime();
    fitSeen = seen;
    if (handover != null) {
      handover.fitStarts(total);
    }
  }

  /**
   * A run over a stream starts now: its length is not known, so the clock keeps no steady-state
   * span (the trainer logs its progress instead, {@link SpanLog}) and the handover takes the run
   * for a long one until {@link #streamRead} says otherwise.
   */
  void streamStarts() {
    halfEpoch = -1;
    half = -1;
    halfNanos = System.nanoTime();
    fitSeen = seen;
    if (handover != null) {
      handover.fitStarts(Long.MAX_VALUE);
    }
  }

  /**
   * A stream run has read {@code fraction} of its input ({@code NaN}: not known) over its passes:
   * the handover's estimate of the run's examples in all.
   */
  void streamRead(double fraction) {
    long done = seen - fitSeen;
    if (handover != null && fraction > 0 && fraction <= 1 && done > 0) {
      handover.fitTotal((long) Math.min(Long.MAX_VALUE / 2, done / fraction));
    }
  }

  /** Row {@code q} of epoch {@code e} (0-based) is next: hands over or starts the span if due. */
  void atRow(int e, int q) {
    if (seen == handoverCheck) {
      lookAtHandover();
    }
    if (q == half && e == halfEpoch) {
      halfNanos = System.nanoTime();
    }
  }

  /**
   * Where a block of epoch {@code e} that starts at row {@code q0} and would end at {@code q1} must
   * end instead, for a checkpoint every {@code every} examples (0: none).
   */
  int blockEnd(int e, int q0, int q1, int every) {
    if (every > 0) {
      q1 = (int) Math.min(q1, q0 + (every - seen % every));
    }
    if (handoverCheck > seen) {
      q1 = (int) Math.min(q1, q0 + (handoverCheck - seen));
    }
    if (e == halfEpoch && half > q0) {
      q1 = Math.min(q1, half);
    }
    return q1;
  }

  /**
   * {@code rows} more examples were trained on; true when a checkpoint every {@code every} is due.
   */
  boolean advance(int rows, int every) {
    seen += rows;
    return every > 0 && seen % every == 0;
  }

  /** The examples seen over every fit. */
  long seen() {
    return seen;
  }

  /** After how many examples the optimizers were handed over, or -1. */
  long handoverAt() {
    return handoverAt;
  }

  /** When the steady-state span of the last fit started ({@link System#nanoTime}). */
  long steadyStartNanos() {
    return halfNanos;
  }

  private void lookAtHandover() {
    switch (handover.lookInFit(config, d, seen, seen - fitSeen)) {
      case NOW -> {
        handoverCheck = -1;
        if (moveAll.getAsBoolean()) {
          handoverAt = seen;
        }
      }
      case LATER -> handoverCheck = seen + KernelHandover.CHECK_EVERY;
      case NEVER -> handoverCheck = -1;
    }
  }
}
