package org.onlinekernels.trainer.parallel;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A cyclic barrier of a fixed number of members that allocates nothing per trip ({@code
 * CyclicBarrier} makes a generation object each time it trips, which the deterministic mode's
 * merges, several barriers each, would allocate every round). Members wait parked, as at a {@code
 * CyclicBarrier}; the last to arrive starts the next generation and unparks the others. Every
 * member's writes before {@link #await} happen before every member's reads after it (the arrival
 * count is one atomic every member updates, and the generation a volatile the last one writes).
 * Broken ({@link #breakIt}), every waiting and later {@link #await} returns false until {@link
 * #reset}.
 */
final class Rendezvous {
  private final int parties;

  /** waiting[j]: member j's thread, set before it arrives, for the last one to unpark. */
  private final Thread[] waiting;

  private final AtomicInteger arrived = new AtomicInteger();
  private volatile int generation;
  private volatile boolean broken;

  Rendezvous(int parties) {
    if (parties < 1) {
      throw new IllegalArgumentException("parties must be >= 1, got " + parties);
    }
    this.parties = parties;
    this.waiting = new Thread[parties];
  }

  /**
   * Member {@code j} waits until every member has arrived: true, or false if the barrier is or gets
   * broken (also when this thread is interrupted: it breaks the barrier then and keeps its
   * interrupt status).
   */
  boolean await(int j) {
    if (broken) {
      return false;
    }
    int g = generation;
    waiting[j] = Thread.currentThread();
    if (arrived.incrementAndGet() == parties) {
      arrived.set(0);
      generation = g + 1;
      unparkAllBut(j);
      return true;
    }
    while (generation == g) {
      if (broken) {
        return false;
      }
      if (Thread.interrupted()) {
        breakIt();
        Thread.currentThread().interrupt();
        return false;
      }
      LockSupport.park(this);
    }
    return true;
  }

  private void unparkAllBut(int j) {
    for (int i = 0; i < parties; i++) {
      Thread t = waiting[i];
      if (i != j && t != null) {
        LockSupport.unpark(t);
      }
    }
  }

  /** Breaks the barrier: the waiting members and every later arrival return false. */
  void breakIt() {
    broken = true;
    unparkAllBut(-1);
  }

  /** Whether the barrier is broken. */
  boolean isBroken() {
    return broken;
  }

  /** Mends a broken barrier once no member waits at it (between runs): no one has arrived. */
  void reset() {
    arrived.set(0);
    broken = false;
  }
}
