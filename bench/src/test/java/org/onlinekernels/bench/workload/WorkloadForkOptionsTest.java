package org.onlinekernels.bench.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The study switches of the workload harness's JMH forks: {@code workload.forks} sets the forks per
 * combination of a forked profile (never of the in-process one), {@code workload.handover} reaches
 * the forks as {@code onlinekernels.handover}, {@code workload.warmSeconds} reaches them as itself,
 * {@code workload.contenders} keeps the named contenders of a batch, and none does anything when
 * unset.
 */
class WorkloadForkOptionsTest {
  @AfterEach
  void clear() {
    System.clearProperty("workload.forks");
    System.clearProperty("workload.handover");
    System.clearProperty("workload.warmSeconds");
    System.clearProperty("workload.contenders");
  }

  @Test
  void forksFollowTheSwitchOnForkedProfilesOnly() {
    assertEquals(1, WorkloadReport.forks(1));
    System.setProperty("workload.forks", "3");
    assertEquals(3, WorkloadReport.forks(1));
    assertEquals(0, WorkloadReport.forks(0));
    System.setProperty("workload.forks", "0");
    assertThrows(IllegalArgumentException.class, () -> WorkloadReport.forks(1));
  }

  @Test
  void handoverReachesTheForksOnlyWhenNamed() {
    assertFalse(
        List.of(WorkloadReport.jvmArgs()).stream().anyMatch(a -> a.contains("handover")),
        "no handover option by default");
    System.setProperty("workload.handover", "off");
    assertTrue(List.of(WorkloadReport.jvmArgs()).contains("-Donlinekernels.handover=off"));
  }

  @Test
  void warmSecondsReachTheForksOnlyWhenNamed() {
    assertFalse(
        List.of(WorkloadReport.jvmArgs()).stream().anyMatch(a -> a.contains("warmSeconds")),
        "no set-up seconds by default");
    assertEquals(0, WorkloadBench.warmSeconds());
    System.setProperty("workload.warmSeconds", "8");
    assertTrue(List.of(WorkloadReport.jvmArgs()).contains("-Dworkload.warmSeconds=8"));
    assertEquals(8, WorkloadBench.warmSeconds());
    System.setProperty("workload.warmSeconds", "-1");
    assertThrows(IllegalArgumentException.class, WorkloadBench::warmSeconds);
  }

  @Test
  void contendersKeepsTheNamedOnesOfABatch() {
    List<String> batch = List.of("hand", "trainer-checked", "trainer-trusted");
    assertEquals(batch, WorkloadReport.only(batch));
    System.setProperty("workload.contenders", "trainer-trusted,rounds");
    assertEquals(List.of("trainer-trusted"), WorkloadReport.only(batch));
    assertEquals(List.of(), WorkloadReport.only(List.of("per-call")));
  }
}
