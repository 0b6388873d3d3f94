package org.onlinekernels.trainer;

import java.util.List;

/**
 * Where the threads of a parallel training spent their time, over every fit of one trainer: what
 * tells a run whose threads worked side by side from one where they did not (docs/parallel,
 * "Reading a run"). Taken cheaply: nothing per row; per block of rows one count, per barrier two
 * clock reads, per fit two readings of each worker's CPU time and of the process's.
 *
 * <p>How to read it: a worker whose {@link Worker#cpuSeconds} is well below its {@link
 * Worker#wallSeconds} less its {@link Worker#waitSeconds} was runnable but not running (another
 * thread had its core); {@link #otherCpuSeconds} large against the workers' is that other thread
 * (the JIT's compilers, the garbage collector, a parser or a race of the kernel handover); workers
 * busy all the time at a low rate per CPU second point at the memory (cache lines passed between
 * the cores); one worker with most of the {@link Worker#blocks} points at the scheduler.
 *
 * @param fits the fits (calls that trained) the figures add up
 * @param wallSeconds wall time inside the fits, as the calling thread saw it
 * @param processCpuSeconds the whole process's CPU time inside the fits (every thread: workers, the
 *     JIT's compilers, the garbage collector, parsers), or NaN where the platform does not give it
 * @param workers the workers, thread 0 (the calling thread) first
 */
public record ThreadReport(
    int fits, double wallSeconds, double processCpuSeconds, List<Worker> workers) {

  /**
   * One worker's figures.
   *
   * @param thread its number, 0 to {@code T - 1}
   * @param cpuSeconds its thread's CPU time inside the fits (NaN where the JVM does not measure
   *     thread CPU time)
   * @param wallSeconds wall time from its start to its end in each fit, added up
   * @param blocks the blocks of rows it trained (shared state: blocks of 256 rows, taken as it
   *     finished the last; mixing: its slice of each round)
   * @param rows the rows it trained
   * @param waitSeconds time waiting for the others: at barriers, and for the fit's first block
   * @param aloneSeconds time it worked while the others waited for it: the fit's first block
   *     (shared state), the merge's preparation and end (mixing, thread 0)
   * @param handoverSeconds time moving its state to the vector kernels
   * @param handedOverAt after how many of the trainer's examples (over every fit) it moved to the
   *     vector kernels, or -1 if it did not
   */
  public record Worker(
      int thread,
      double cpuSeconds,
      double wallSeconds,
      long blocks,
      long rows,
      double waitSeconds,
      double aloneSeconds,
      double handoverSeconds,
      long handedOverAt) {

    /**
     * The share of the time it was neither training nor waiting in which it had no core: {@code 1 -
     * cpu / (wall - wait)}, 0 when it always ran (NaN without thread CPU time).
     */
    public double descheduledShare() {
      double working = wallSeconds - waitSeconds;
      return working <= 0 ? 0 : Math.max(0, 1 - cpuSeconds / working);
    }
  }

  /** The workers' CPU time added up (NaN without thread CPU time). */
  public double workersCpuSeconds() {
    double s = 0;
    for (Worker w : workers) {
      s += w.cpuSeconds();
    }
    return s;
  }

  /**
   * CPU time of the process's other threads inside the fits: the JIT's compilers, the garbage
   * collector, parsers, a kernel race (NaN without process or thread CPU time).
   */
  public double otherCpuSeconds() {
    return processCpuSeconds - workersCpuSeconds();
  }
}
