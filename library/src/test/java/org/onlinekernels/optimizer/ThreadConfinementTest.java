package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.rules.adagrad.AdaGradOptimizer;

/**
 * Issue 6, threads: an optimizer fails fast with WrongThreadException, state unchanged, when used
 * from another thread, whether it owns a confined arena or the caller gave it a shared one; a
 * shared-arena optimizer can be handed over explicitly.
 */
class ThreadConfinementTest {
  static Throwable onOtherThread(Runnable r) throws InterruptedException {
    AtomicReference<Throwable> seen = new AtomicReference<>();
    Thread t =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    r.run();
                  } catch (Throwable e) {
                    seen.set(e);
                  }
                });
    t.join();
    return seen.get();
  }

  @Test
  void sharedArenaOptimizerFailsFastFromAnotherThread() throws Exception {
    try (Arena shared = Arena.ofShared();
        AdaGradOptimizer o =
            new AdaGradOptimizer(3, ElementType.DOUBLE, AdaGradParams.eta(1), shared, null)) {
      MemorySegment g = shared.allocate(24);
      g.fill((byte) 0x3f);
      o.step(g);
      StateSnapshot before = StateSnapshot.of(o);
      assertInstanceOf(WrongThreadException.class, onOtherThread(() -> o.step(g)));
      assertInstanceOf(WrongThreadException.class, onOtherThread(() -> o.predict(g)));
      assertInstanceOf(WrongThreadException.class, onOtherThread(o::close));
      before.assertSame(o, "calls from another thread");

      // Explicit hand-over: the new owner may call, the old one may not.
      Thread main = Thread.currentThread();
      AtomicReference<Thread> ownerSeen = new AtomicReference<>();
      Thread w =
          Thread.ofPlatform()
              .unstarted(
                  () -> {
                    o.step(g);
                    ownerSeen.set(o.owner());
                    o.transferOwnership(main); // and back, so the test thread can close it
                  });
      o.transferOwnership(w);
      assertThrows(WrongThreadException.class, () -> o.step(g));
      w.start();
      w.join();
      assertEquals(w, ownerSeen.get());
      assertEquals(main, o.owner());
    }
  }

  @Test
  void ownedConfinedOptimizerCannotBeTransferred() throws Exception {
    try (AdaGradOptimizer o = new AdaGradOptimizer(3, ElementType.FLOAT, AdaGradParams.eta(1))) {
      Thread other = Thread.ofPlatform().unstarted(() -> {});
      assertThrows(IllegalStateException.class, () -> o.transferOwnership(other));
      assertInstanceOf(WrongThreadException.class, onOtherThread(o::reset));
    }
  }
}
