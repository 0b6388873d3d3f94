package org.onlinekernels.trainer.parallel;

import java.lang.foreign.Arena;
import java.util.Arrays;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.handover.KernelHandover;

/**
 * The scalar-to-vector handover ({@link KernelHandover}) of {@link ParallelTrainer}'s learners.
 * They start on the scalar kernels (the Vector API runs boxed until C2 has compiled it); thread 0
 * keeps the one clock of the fit and looks at the handover at round boundaries only (at the start
 * of the fit and after each merge), just before a barrier; once it is due, every thread moves its
 * own learners, all in the same round boundary, while every learner holds the merged state. The
 * kernels compute the same bits, so the moment changes only the speed; at a round boundary that is
 * plain to see: no round runs on two kinds of kernels.
 *
 * <p>Threads: {@link #look} and {@link #moved} on thread 0, {@link #move} on each thread for its
 * own learners; the caller's barriers order them (look, barrier, move, barrier, moved).
 */
final class MixingHandover implements AutoCloseable {
  private final KernelHandover handover;
  private final TrainerConfig config;
  private final int d;

  /** Where the moved learners' state lives: shared, since a merge reads every learner. */
  private final Arena later = Arena.ofShared();

  /** moved[j]: thread j's learners moved (a failed move leaves them where they were). */
  private final boolean[] moved;

  /** Set by thread 0 at a look: the learners move at the next round start. */
  private boolean due;

  /** Set by thread 0: moved, or never to move. */
  private boolean over;

  /** Examples over every fit, and before the current one. */
  private long seen;

  private long fitSeen;
  private long at = -1;

  /** Set by thread 0 once every thread's learners moved. */
  private boolean allMoved;

  MixingHandover(KernelHandover handover, TrainerConfig config, int d, int threads) {
    this.handover = handover;
    this.config = config;
    this.d = d;
    this.moved = new boolean[threads];
  }

  /** A fit of {@code total} examples starts now (thread 0). */
  void fitStarts(long total) {
    fitSeen = seen;
    handover.fitStarts(total);
  }

  /** The fit that started last has ended after {@code examples} examples (thread 0). */
  void fitEnds(long examples) {
    seen = fitSeen + examples;
  }

  /** Thread 0 at a round boundary, {@code done} examples into the fit: is the handover due? */
  void look(long done) {
    if (due || over) {
      return;
    }
    switch (handover.lookInFit(config, d, fitSeen + done, done)) {
      case NOW -> {
        due = true;
        at = fitSeen + done;
      }
      case NEVER -> over = true;
      case LATER -> {}
    }
  }

  /** Whether the learners move at this round start: every thread reads the same answer. */
  boolean dueNow() {
    return due && !over;
  }

  /** Thread {@code j} moves its learners {@code mine}, one per output, in place. */
  void move(int j, AbstractOptimizer[] mine) {
    LinearModelOptimizer[] next = Arrays.copyOf(mine, mine.length, LinearModelOptimizer[].class);
    moved[j] = handover.moveAll(next, config, d, config.stateLayout(), later);
    for (int c = 0; c < mine.length; c++) {
      mine[c] = (AbstractOptimizer) next[c];
    }
  }

  /**
   * Thread 0, once every thread has moved: the handover is over; returns whether every thread's
   * learners moved (then none is left on the first learners' state).
   */
  boolean moved() {
    over = true;
    allMoved = true;
    for (boolean m : moved) {
      allMoved &= m;
    }
    return allMoved;
  }

  /** After how many examples (over every fit) every learner was moved, or -1. */
  long at() {
    return allMoved ? at : -1;
  }

  @Override
  public void close() {
    handover.stop();
    if (later.scope().isAlive()) {
      later.close();
    }
  }
}
