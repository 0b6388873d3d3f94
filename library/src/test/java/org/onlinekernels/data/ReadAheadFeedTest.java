package org.onlinekernels.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A feed read ahead on its own thread gives the wrapped feed's rows, ids and failures in order,
 * reads a bounded number of blocks ahead, and stops its thread and closes the wrapped feed.
 */
class ReadAheadFeedTest {
  /** A feed of {@code blocks} blocks of 7 rows, failing at block {@code failAt} (or never). */
  private static final class Counted implements RowFeed {
    final int blocks;
    final int failAt;
    final IOException failure = new IOException("block 3 is damaged");
    final AtomicInteger served = new AtomicInteger();
    final AtomicBoolean closed = new AtomicBoolean();
    volatile Thread reader;

    Counted(int blocks, int failAt) {
      this.blocks = blocks;
      this.failAt = failAt;
    }

    @Override
    public boolean next(RowBlock block) throws IOException {
      block.clear();
      reader = Thread.currentThread();
      int b = served.get();
      if (b == failAt) {
        throw failure;
      }
      if (b == blocks) {
        return false;
      }
      for (int r = 0; r < 7; r++) {
        long id = 7L * b + r;
        block.add(
            id % 2 == 0 ? 1 : -1, id, new int[] {(int) (id % 11), 20}, new double[] {id, 1}, 2);
      }
      served.incrementAndGet();
      return true;
    }

    @Override
    public double progress() {
      return served.get() / (double) blocks;
    }

    @Override
    public void close() {
      closed.set(true);
    }
  }

  @Test
  void givesTheWrappedFeedsRowsInOrderOnAnotherThreadThenEnds() throws IOException {
    Counted in = new Counted(40, -1);
    RowBlock b = new RowBlock(3);
    long expected = 0;
    try (ReadAheadFeed f = new ReadAheadFeed(in, "test reader")) {
      while (f.next(b)) {
        for (int r = 0; r < b.size(); r++, expected++) {
          assertEquals(expected, b.id(r));
          assertEquals(expected % 2 == 0 ? 1.0 : -1.0, b.label(r));
          assertEquals(2, b.nnz(r));
          assertEquals((int) (expected % 11), b.indexArray()[b.rowStart(r)]);
          assertEquals((double) expected, b.valueArray()[b.rowStart(r)]);
        }
        assertTrue(f.progress() > 0 && f.progress() <= 1, "progress " + f.progress());
      }
      assertEquals(0, b.size(), "an ended feed leaves the block empty");
      assertFalse(f.next(b), "and stays ended");
      assertEquals(1.0, f.progress());
      assertTrue(in.reader != Thread.currentThread(), "decoded on the feed's own thread");
    }
    assertEquals(40 * 7, expected);
    assertTrue(in.closed.get(), "close closes the wrapped feed");
  }

  @Test
  void aFailureComesAfterTheBlocksBeforeItTheSameException() throws IOException {
    Counted in = new Counted(10, 3);
    RowBlock b = new RowBlock();
    try (ReadAheadFeed f = new ReadAheadFeed(in, "test reader")) {
      for (int k = 0; k < 3; k++) {
        assertTrue(f.next(b));
        assertEquals(7L * k, b.id(0));
      }
      IOException e = assertThrows(IOException.class, () -> f.next(b));
      assertSame(in.failure, e);
      assertFalse(f.next(b));
    }
  }

  @Test
  void runtimeFailuresAndErrorsPassThroughToo() throws IOException {
    for (Throwable t :
        List.of(new IllegalArgumentException("bad row"), new OutOfMemoryError("x"))) {
      RowFeed in =
          new RowFeed() {
            @Override
            public boolean next(RowBlock block) {
              if (t instanceof Error e) {
                throw e;
              }
              throw (RuntimeException) t;
            }
          };
      try (ReadAheadFeed f = new ReadAheadFeed(in, "test reader")) {
        assertSame(t, assertThrows(Throwable.class, () -> f.next(new RowBlock())));
      }
    }
  }

  @Test
  void readsABoundedNumberOfBlocksAheadAndCloseStopsTheThread() throws Exception {
    Counted in = new Counted(1_000, -1);
    ReadAheadFeed f = new ReadAheadFeed(in, "test reader");
    RowBlock b = new RowBlock();
    assertTrue(f.next(b));
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (in.served.get() < 1 + ReadAheadFeed.BLOCKS && System.nanoTime() < until) {
      Thread.sleep(1);
    }
    Thread.sleep(50);
    assertEquals(
        1 + ReadAheadFeed.BLOCKS, in.served.get(), "the block taken and the blocks ahead, no more");
    Thread reader = in.reader;
    f.close();
    assertFalse(reader.isAlive(), "close waits for the thread to end");
    assertTrue(in.closed.get());
  }

  @Test
  void refusesNulls() {
    assertThrows(IllegalArgumentException.class, () -> new ReadAheadFeed(null, "x"));
    assertThrows(IllegalArgumentException.class, () -> new ReadAheadFeed(new Counted(1, -1), null));
  }
}
