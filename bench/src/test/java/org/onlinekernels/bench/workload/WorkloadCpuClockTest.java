package org.onlinekernels.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Test;

/**
 * {@link WorkloadBench.Cpu}, the workload benchmark's CPU clock: it counts the pass, on this thread
 * only. Each case does 30 ms of work that the clock must not count (the untimed reset, another
 * thread's work, sleep) or must count (this thread's pass), measured by the thread CPU clock
 * itself, so that the test does not rest on the wall clock and the thread CPU clock agreeing: on a
 * loaded virtual machine they were seen far apart on a single pass. "Not counted" allows half the
 * work (15 ms), far beyond that disagreement and far below a clock that counted the work.
 */
class WorkloadCpuClockTest {
  private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

  /** The work each case does, in thread CPU milliseconds. */
  private static final double WORK_MS = 30;

  /** What "not counted" allows: half the work. */
  private static final double NOT_COUNTED_MS = WORK_MS / 2;

  /** Keeps this thread busy for {@link #WORK_MS} of its own CPU time. */
  private static void spin() {
    long start = MX.getCurrentThreadCpuTime();
    while (MX.getCurrentThreadCpuTime() - start < WORK_MS * 1e6) {
      Thread.onSpinWait();
    }
  }

  /** A contender whose reset and pass run the given actions. */
  private static Contender contender(Runnable reset, Runnable pass) {
    return new Contender() {
      @Override
      public void reset() {
        reset.run();
      }

      @Override
      public double pass() {
        pass.run();
        return 0;
      }

      @Override
      public void close() {}
    };
  }

  /** One pass of {@code c} under a fresh clock, as JMH runs it (reset, pass, stop). */
  private static WorkloadBench.Cpu onePass(Contender c) {
    WorkloadBench.Cpu cpu = new WorkloadBench.Cpu();
    cpu.clear();
    cpu.reset(c);
    c.pass();
    cpu.stop();
    return cpu;
  }

  @Test
  void countsThisThreadsPass() {
    WorkloadBench.Cpu cpu = onePass(contender(() -> {}, WorkloadCpuClockTest::spin));
    assertEquals(1, cpu.cpuPasses);
    assertTrue(cpu.cpuMs >= WORK_MS, "a pass of " + WORK_MS + " ms counted " + cpu.cpuMs);
  }

  @Test
  void doesNotCountTheUntimedReset() {
    WorkloadBench.Cpu cpu = onePass(contender(WorkloadCpuClockTest::spin, () -> {}));
    assertTrue(cpu.cpuMs < NOT_COUNTED_MS, "the reset's " + WORK_MS + " ms counted: " + cpu.cpuMs);
  }

  @Test
  void doesNotCountAnotherThreadsWork() {
    Runnable elsewhere =
        () -> {
          Thread t = new Thread(WorkloadCpuClockTest::spin);
          t.start();
          try {
            t.join();
          } catch (InterruptedException e) {
            throw new AssertionError(e);
          }
        };
    WorkloadBench.Cpu cpu = onePass(contender(() -> {}, elsewhere));
    assertTrue(
        cpu.cpuMs < NOT_COUNTED_MS, "another thread's " + WORK_MS + " ms counted: " + cpu.cpuMs);
  }

  @Test
  void doesNotCountTimeAsleep() {
    Runnable sleep =
        () -> {
          try {
            Thread.sleep((long) WORK_MS);
          } catch (InterruptedException e) {
            throw new AssertionError(e);
          }
        };
    WorkloadBench.Cpu cpu = onePass(contender(() -> {}, sleep));
    assertTrue(cpu.cpuMs < NOT_COUNTED_MS, WORK_MS + " ms asleep counted: " + cpu.cpuMs);
  }
}
