package org.onlinekernels.trainer.parallel;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import org.onlinekernels.trainer.ThreadReport;

/**
 * The figures of {@link ThreadReport}, kept while a team trains: per worker its CPU and wall time,
 * blocks, rows, waits, the time it worked alone and its handover. Each worker writes only its own
 * slots, and every worker's slots lie on cache lines of their own ({@link #STRIDE} longs apart,
 * with as much padding before the first and after the last), so the counters add no traffic between
 * the cores whatever the heap does. Nothing is counted per row.
 */
final class WorkerClocks {
  /**
   * Longs between two workers' first slots: 128 bytes, two 64-byte lines, since the cores fetch
   * lines in adjacent pairs.
   */
  static final int STRIDE = 16;

  private static final int CPU = 0;
  private static final int WALL = 1;
  private static final int BLOCKS = 2;
  private static final int ROWS = 3;
  private static final int WAIT = 4;
  private static final int ALONE = 5;
  private static final int HANDOVER = 6;
  private static final int HANDED_AT = 7;
  private static final int CPU_START = 8;
  private static final int WALL_START = 9;

  /** Slots per worker: at most {@link #STRIDE}. */
  static final int SLOTS = 10;

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final boolean THREAD_CPU = threadCpu();

  private final int threads;

  /** Worker {@code j}'s slot {@code s} is {@code slots[(j + 1) * STRIDE + s]}. */
  private final long[] slots;

  private int fits;
  private long wall;
  private long processCpu;
  private long fitWallStart;
  private long fitCpuStart;

  WorkerClocks(int threads) {
    this.threads = threads;
    this.slots = new long[(threads + 2) * STRIDE];
    for (int j = 0; j < threads; j++) {
      slots[at(j, HANDED_AT)] = -1;
    }
  }

  private static boolean threadCpu() {
    try {
      if (THREADS.isCurrentThreadCpuTimeSupported() && !THREADS.isThreadCpuTimeEnabled()) {
        THREADS.setThreadCpuTimeEnabled(true);
      }
      return THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
    } catch (UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }

  /** The index of worker {@code j}'s slot {@code s}. */
  static int at(int j, int s) {
    return (j + 1) * STRIDE + s;
  }

  /** The slots' array (tests: where each worker writes). */
  long[] slots() {
    return slots;
  }

  /** A fit starts, on the calling thread, before any worker. */
  void fitStarts() {
    fitWallStart = System.nanoTime();
    fitCpuStart = processCpuNanos();
  }

  /** The fit has ended, on the calling thread, after every worker. */
  void fitEnds() {
    wall += System.nanoTime() - fitWallStart;
    long cpu = processCpuNanos();
    processCpu = cpu < 0 || fitCpuStart < 0 || processCpu < 0 ? -1 : processCpu + cpu - fitCpuStart;
    fits++;
  }

  /** Worker {@code j} starts its part of a fit, on its own thread. */
  void begin(int j) {
    slots[at(j, WALL_START)] = System.nanoTime();
    slots[at(j, CPU_START)] = THREAD_CPU ? THREADS.getCurrentThreadCpuTime() : 0;
  }

  /** Worker {@code j} has ended its part of a fit, on its own thread. */
  void end(int j) {
    slots[at(j, WALL)] += System.nanoTime() - slots[at(j, WALL_START)];
    if (THREAD_CPU) {
      slots[at(j, CPU)] += THREADS.getCurrentThreadCpuTime() - slots[at(j, CPU_START)];
    }
  }

  /** Worker {@code j} trained a block of {@code rows} rows. */
  void block(int j, int rows) {
    slots[at(j, BLOCKS)]++;
    slots[at(j, ROWS)] += rows;
  }

  /** Worker {@code j} waited for the others from {@code since} ({@link System#nanoTime}) to now. */
  void waited(int j, long since) {
    slots[at(j, WAIT)] += System.nanoTime() - since;
  }

  /** Worker {@code j} worked alone, the others waiting for it, from {@code since} to now. */
  void alone(int j, long since) {
    slots[at(j, ALONE)] += System.nanoTime() - since;
  }

  /**
   * Worker {@code j} moved to the vector kernels from {@code since} to now, {@code examples} of the
   * trainer's examples done.
   */
  void handedOver(int j, long since, long examples) {
    slots[at(j, HANDOVER)] += System.nanoTime() - since;
    if (slots[at(j, HANDED_AT)] < 0) {
      slots[at(j, HANDED_AT)] = examples;
    }
  }

  /** The figures so far; read with no worker running. */
  ThreadReport report() {
    List<ThreadReport.Worker> w = new ArrayList<>(threads);
    for (int j = 0; j < threads; j++) {
      w.add(
          new ThreadReport.Worker(
              j,
              THREAD_CPU ? slots[at(j, CPU)] / 1e9 : Double.NaN,
              slots[at(j, WALL)] / 1e9,
              slots[at(j, BLOCKS)],
              slots[at(j, ROWS)],
              slots[at(j, WAIT)] / 1e9,
              slots[at(j, ALONE)] / 1e9,
              slots[at(j, HANDOVER)] / 1e9,
              slots[at(j, HANDED_AT)]));
    }
    return new ThreadReport(fits, wall / 1e9, processCpu < 0 ? Double.NaN : processCpu / 1e9, w);
  }

  /** The process's CPU time in nanoseconds, or -1 where the platform does not give it. */
  private static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
        ? os.getProcessCpuTime()
        : -1;
  }
}
