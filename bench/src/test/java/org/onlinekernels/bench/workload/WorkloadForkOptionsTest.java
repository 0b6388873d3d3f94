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
 * the forks as {@code onlinekernels.handover}, and neither does anything when unset.
 */
class WorkloadForkOptionsTest {
  @AfterEach
  void clear() {
    System.clearProperty("workload.forks");
    System.clearProperty("workload.handover");
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
}
