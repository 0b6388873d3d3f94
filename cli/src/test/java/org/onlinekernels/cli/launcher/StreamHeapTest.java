package org.onlinekernels.cli.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A stream whose model state takes half the heap trains through the launcher (its default
 * collector) in a heap just above the state and the read-ahead's rows: 2^22 ScInOL2 coordinates (a
 * 64 MiB state block on the heap) and 100,000 rows of 41 features (the 65,536 read ahead hold about
 * 32 MB) in {@code -Xmx128m}. The state must be allocated before the read-ahead: after it, the rows
 * sit in the old generation and the block no longer fits there in one piece (issue #35, the
 * session-3 regression). Takes a few seconds of two processes.
 */
@Tag("long")
class StreamHeapTest {
  @Test
  void aStateOfHalfTheHeapTrainsAStreamBeyondTheReadAhead() throws java.io.IOException {
    LauncherHome h = LauncherHome.shared();
    String command =
        "awk 'BEGIN { srand(7); for (r = 0; r < 100000; r++) { printf \"%d |t\", rand() < 0.5 ? 1"
            + " : -1; for (j = 0; j < 40; j++) printf \" t%d\", int(rand() * 4000000); print \""
            + " |b bias\" } }' | ONLINE_KERNELS_JAVA_OPTS=-Xmx128m bin/online-kernels train --data"
            + " - --format vw --bits 22 --hash unsigned --no-shuffle --algorithm scinol2 --loss"
            + " logistic";
    LauncherHome.Call c = h.shell(h.home, LauncherHome.plainEnvironment(), command, 300);
    assertEquals(0, c.code(), c.show());
    assertEquals("", c.err(), c.show());
    assertTrue(c.out().contains("100000") || c.out().contains("100,000"), c.show());
  }
}
