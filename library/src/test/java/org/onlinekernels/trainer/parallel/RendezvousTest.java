package org.onlinekernels.trainer.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Rendezvous}, the team's barrier: no member passes before every member has arrived, every
 * member sees every other's writes from before the barrier, trip after trip; broken, a waiting
 * member is released with false, and mended it trips again.
 */
class RendezvousTest {
  private static final int TRIPS = 2000;

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 5})
  void noMemberPassesEarlyAndEveryWriteIsSeen(int parties) throws Exception {
    Rendezvous r = new Rendezvous(parties);
    int[] slot = new int[parties];
    AtomicInteger wrong = new AtomicInteger();
    Thread[] threads = new Thread[parties];
    for (int j = 0; j < parties; j++) {
      int me = j;
      threads[j] =
          new Thread(
              () -> {
                for (int trip = 1; trip <= TRIPS; trip++) {
                  slot[me] = trip;
                  assertTrue(r.await(me));
                  for (int s : slot) {
                    if (s != trip) {
                      wrong.incrementAndGet();
                    }
                  }
                  assertTrue(r.await(me));
                }
              });
    }
    assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () -> {
          for (Thread t : threads) {
            t.start();
          }
          for (Thread t : threads) {
            t.join();
          }
        });
    assertEquals(0, wrong.get(), "slots read before every member wrote them");
  }

  @Test
  void breakingReleasesTheWaitingAndMendingRestoresIt() throws Exception {
    Rendezvous r = new Rendezvous(2);
    boolean[] passed = {true};
    Thread alone = new Thread(() -> passed[0] = r.await(1));
    alone.start();
    Thread.sleep(50);
    r.breakIt();
    alone.join(10_000);
    assertFalse(alone.isAlive(), "still waiting after the break");
    assertFalse(passed[0]);
    assertTrue(r.isBroken());
    assertFalse(r.await(0), "a later arrival at a broken barrier");
    r.reset();
    Thread other = new Thread(() -> passed[0] = r.await(1));
    other.start();
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertTrue(r.await(0)));
    other.join();
    assertTrue(passed[0]);
  }
}
