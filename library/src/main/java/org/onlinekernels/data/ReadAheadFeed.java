package org.onlinekernels.data;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A feed read ahead on a thread of its own: the thread fills a few blocks from the feed it wraps
 * (decoding a row cache, say) while the consumer (the learner) trains on the block before, and the
 * consumer takes each block by {@link RowBlock#exchange}, without copying. The rows, their order
 * and their ids are the wrapped feed's; so are its refusals: a failure of the wrapped feed (an
 * {@link IOException}, a {@link RuntimeException} or an {@link Error}) is thrown, the same object,
 * by the {@link #next} that reaches it, after every block read before it. At most {@value #BLOCKS}
 * blocks are filled ahead (back-pressure: the thread waits for the consumer), so memory is a few
 * blocks whatever the input's size. The wrapped feed is used by the thread alone until {@link
 * #close}, which stops the thread and then closes it.
 */
public final class ReadAheadFeed implements RowFeed {
  /** Blocks filled ahead of the consumer. */
  static final int BLOCKS = 3;

  /** What the thread hands over: a filled block, the end, or the failure that ended it. */
  private record Item(RowBlock block, double progress, Throwable failure) {}

  private static final Item END = new Item(null, 1, null);

  private final RowFeed in;
  private final BlockingQueue<RowBlock> empty = new ArrayBlockingQueue<>(BLOCKS);
  private final BlockingQueue<Item> filled = new ArrayBlockingQueue<>(BLOCKS + 1);
  private final Thread thread;
  private volatile boolean closed;
  private boolean ended;
  private double progress;

  /**
   * Reads {@code in} ahead on a new daemon thread named {@code name}.
   *
   * @throws IllegalArgumentException if {@code in} or {@code name} is null
   */
  public ReadAheadFeed(RowFeed in, String name) {
    if (in == null || name == null) {
      throw new IllegalArgumentException("in and name must not be null");
    }
    this.in = in;
    this.progress = in.progress();
    for (int b = 0; b < BLOCKS; b++) {
      empty.add(new RowBlock());
    }
    this.thread = Thread.ofPlatform().daemon().name(name).unstarted(this::readAll);
    thread.start();
  }

  /** The thread: fills blocks until the feed ends, fails or this feed is closed. */
  private void readAll() {
    try {
      while (!closed) {
        RowBlock b = empty.take();
        boolean more;
        try {
          more = in.next(b);
        } catch (IOException | RuntimeException | Error e) {
          filled.put(new Item(null, Double.NaN, e));
          return;
        }
        if (!more) {
          filled.put(END);
          return;
        }
        filled.put(new Item(b, in.progress(), null));
      }
    } catch (InterruptedException e) {
      // Closed while waiting: nothing more to read.
    }
  }

  @Override
  public boolean next(RowBlock block) throws IOException {
    block.clear();
    if (ended) {
      return false;
    }
    Item item;
    try {
      item = filled.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the rows read ahead");
    }
    if (item.block() == null) {
      ended = true;
      if (item.failure() == null) {
        progress = item.progress();
        return false;
      }
      switch (item.failure()) {
        case IOException e -> throw e;
        case RuntimeException e -> throw e;
        case Error e -> throw e;
        default -> throw new IllegalStateException(item.failure());
      }
    }
    block.exchange(item.block());
    progress = item.progress();
    item.block().clear();
    empty.add(item.block());
    return true;
  }

  @Override
  public double progress() {
    return progress;
  }

  /** Stops the thread (waiting for it), then closes the wrapped feed. */
  @Override
  public void close() throws IOException {
    closed = true;
    thread.interrupt();
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    in.close();
  }
}
