package org.onlinekernels.trainer.handover;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a JVM has done and learned for one trainer configuration (algorithm, precision, sparse or
 * dense), over every trainer of it: the time its trainers ran on the scalar kernels while waiting
 * for the handover ({@link KernelHandover}), the race that runs for it, and that race's outcome.
 *
 * <p>Why: one fit's time ahead does not tell a JVM that trains many short fits (a benchmark's fresh
 * trainer per pass, a server or a Spark executor retraining small models) from a single short run;
 * the scalar time that its earlier fits spent does. A JVM that has already spent seconds on a
 * configuration is expected to spend as much again, so {@link KernelHandover} counts that time
 * toward {@link KernelHandover#RACE_IF_AHEAD_NANOS}; the race it then starts belongs to the JVM,
 * not to the fit that started it (which may end long before the race does), and every trainer of
 * the configuration hands over once it is won.
 *
 * <p>{@link #of} gives the JVM's record of a configuration; {@link #fresh} a private one, for tests
 * and measurements that must not share the JVM's. Thread-safe.
 */
public final class ConfigHistory {
  private static final ConcurrentHashMap<String, ConfigHistory> JVM = new ConcurrentHashMap<>();

  private final AtomicLong scalarNanos = new AtomicLong();

  /** The race for the configuration, while one runs or until a trainer has looked at its end. */
  private VectorWarmup race;

  private volatile boolean warm;
  private volatile boolean noGain;

  /** Races for the configuration that ended in a tie ({@link #raceTied}). */
  private int ties;

  private ConfigHistory() {}

  /** This JVM's record of the configuration named {@code key}. */
  static ConfigHistory of(String key) {
    return JVM.computeIfAbsent(key, k -> new ConfigHistory());
  }

  /** A record of its own, shared with nothing else (tests, measurements). */
  public static ConfigHistory fresh() {
    return new ConfigHistory();
  }

  /**
   * The time, in nanoseconds, that trainers of the configuration have run on the scalar kernels
   * while waiting for a race (counted at their looks at the handover, every {@link
   * KernelHandover#CHECK_EVERY} examples), since the configuration's first trainer or since its
   * last race ended without a winner.
   */
  public long scalarNanos() {
    return scalarNanos.get();
  }

  /**
   * Counts {@code nanos} more of scalar time (a trainer at a look; tests and measurements may also
   * give a record a past); 0 or less counts nothing.
   */
  public void addScalarNanos(long nanos) {
    if (nanos > 0) {
      scalarNanos.addAndGet(nanos);
    }
  }

  /** Whether the vector kernels have won a race for the configuration. */
  public boolean warm() {
    return warm;
  }

  /** Whether a race for the configuration ended in a tie (the scalar kernels are as fast). */
  public boolean noGain() {
    return noGain;
  }

  void markWarm() {
    warm = true;
  }

  /** The race that runs (or ran last) for the configuration, or null. */
  synchronized VectorWarmup race() {
    return race;
  }

  /**
   * Records and starts {@code w} (not started yet) as the configuration's race, unless one is
   * recorded already: returns the race to follow (the recorded one, or {@code w}).
   */
  synchronized VectorWarmup race(VectorWarmup w) {
    if (race == null) {
      race = w;
      w.begin();
    }
    return race;
  }

  /**
   * The race {@code w} ended in a tie. A first tie is not taken as the answer: a race can meet the
   * vector kernels half compiled, whose time falls through the tie's 10 % band on its way to a win
   * (measured: bench-report/native-trainer-2026-11-29.md, section 7.1); so it is forgotten as a
   * lost race is, and the next race starts after as much work again, on compiled code. A second tie
   * is the answer: no gain ({@link #noGain}).
   */
  synchronized void raceTied(VectorWarmup w) {
    if (race == w) {
      race = null;
      scalarNanos.set(0);
      if (++ties >= 2) {
        noGain = true;
      }
    }
  }

  /**
   * The race {@code w} ended without a winner or a tie (stopped, given up or failed): forgets it,
   * and the scalar time counted toward it, so that another race starts only after as much work
   * again.
   */
  synchronized void raceLost(VectorWarmup w) {
    if (race == w) {
      race = null;
      scalarNanos.set(0);
    }
  }
}
