package org.onlinekernels.trainer.parallel;

import java.util.function.BiConsumer;
import java.util.function.IntConsumer;

/**
 * {@code T} members running one body in phases separated by barriers: member 0 on the calling
 * thread (so whatever is confined to it stays there: the merged state, the shared state's owners),
 * members {@code 1..T-1} on threads of their own, started per {@link #run}. A member that fails
 * breaks the barrier, so the others stop at their next {@link #await} instead of waiting for it;
 * {@link #run} rethrows the first failure once all have stopped.
 */
final class Team {
  private final int size;
  private final Rendezvous barrier;

  /** The members' figures ({@link WorkerClocks}): their time, waits at the barriers included. */
  private final WorkerClocks clocks;

  /**
   * Set by a failing member before it breaks the barrier: a member that passed the barrier as it
   * broke stops at its next {@link #await}.
   */
  private volatile boolean failing;

  Team(int size) {
    this.size = size;
    this.barrier = new Rendezvous(size);
    this.clocks = new WorkerClocks(size);
  }

  /** The members' figures, over every {@link #run}. */
  WorkerClocks clocks() {
    return clocks;
  }

  /** Thrown in the members that stop because another failed. */
  private static final class Stopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stopped() {
      super("another member of the team failed", null, false, false);
    }
  }

  /**
   * Member {@code j} waits until every member has arrived; the barrier's happens-before edges order
   * the phases. The wait counts in {@code j}'s figures.
   */
  void await(int j) {
    long since = System.nanoTime();
    boolean passed = barrier.await(j);
    clocks.waited(j, since);
    if (!passed || failing) {
      throw new Stopped();
    }
  }

  /**
   * Runs {@code body} as every member. {@code handOver} is called with a member's number and its
   * thread before that thread starts (from the calling thread) and with the calling thread when it
   * ends (from the member's thread), so confined objects can be handed over and back.
   */
  void run(IntConsumer body, BiConsumer<Integer, Thread> handOver) {
    failing = false;
    Throwable[] failed = new Throwable[size];
    Thread self = Thread.currentThread();
    Thread[] threads = new Thread[size];
    for (int j = 1; j < size; j++) {
      int m = j;
      threads[j] =
          new Thread(
              () -> {
                try {
                  clocks.begin(m);
                  body.accept(m);
                  clocks.end(m);
                } catch (Throwable e) {
                  failed[m] = e;
                  failing = true;
                  breakBarrier();
                } finally {
                  handOver.accept(m, self);
                }
              },
              "online-kernels-worker-" + j);
      handOver.accept(j, threads[j]);
    }
    clocks.fitStarts();
    for (int j = 1; j < size; j++) {
      threads[j].start();
    }
    try {
      clocks.begin(0);
      body.accept(0);
      clocks.end(0);
    } catch (Throwable e) {
      failed[0] = e;
      failing = true;
      breakBarrier();
    }
    boolean interrupted = false;
    for (int j = 1; j < size; j++) {
      while (true) {
        try {
          threads[j].join();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      self.interrupt();
    }
    clocks.fitEnds();
    if (barrier.isBroken()) {
      barrier.reset();
    }
    Throwable first = null;
    for (Throwable t : failed) {
      if (t != null && !(t instanceof Stopped) && first == null) {
        first = t;
      }
    }
    if (first instanceof RuntimeException r) {
      throw r;
    }
    if (first instanceof Error err) {
      throw err;
    }
  }

  /** Breaks the barrier for good (until the next run): waiting and later arrivals stop. */
  private void breakBarrier() {
    barrier.breakIt();
  }
}
