package org.onlinekernels.io;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.Semaphore;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.onlinekernels.data.RowBlock;
import org.onlinekernels.data.RowFeed;

/**
 * A text data file read as a {@link RowFeed}, parsed on threads of its own beside the consumer (the
 * learner): the input is cut into chunks of whole lines (about {@value #CHUNK_BYTES} bytes each),
 * each parser thread takes the next chunk, reads it under a lock and parses it into a block of rows
 * without it, and the consumer takes the blocks in the input's order. A bounded number of chunks is
 * in flight ({@code 2 threads + 2}): parsers that get that far ahead of the consumer wait
 * (back-pressure), so memory is a few chunks and blocks whatever the input's size, and the consumer
 * never waits when the parsers keep up. The rows are the same, in the same order, with any number
 * of threads.
 *
 * <p>Lines are what {@link ByteLines} accepts (LF line ends, a CR before LF dropped, a UTF-8 byte
 * order mark at the start skipped; a NUL byte, a CR inside a line and a line over the limit
 * refused). A {@link LineParser} turns one line into a row (or nothing, for a blank or comment
 * line); its refusal, like a refused line, ends the feed with a {@link TextFormatException} naming
 * the source and the line, when the consumer reaches it. Row ids are example numbers: the 0-based
 * count of rows before in the input; {@link #line} gives each delivered row's line.
 */
public final class TextFeed implements RowFeed {
  /** Bytes per chunk (a longer line makes its chunk longer). */
  public static final int CHUNK_BYTES = 1 << 18;

  /** Turns a line into a row; one instance per parser thread, so it may keep scratch. */
  @FunctionalInterface
  public interface LineParser {
    /**
     * Parses the line {@code b[s..e)} (without its line break) and appends its row to {@code
     * block}, if it has one (with any id: the feed numbers the rows).
     *
     * @throws LineProblem if the line is malformed
     */
    void parse(byte[] b, int s, int e, RowBlock block) throws LineProblem;
  }

  /** A malformed line: what is wrong, without the location (the feed adds the line). */
  public static final class LineProblem extends Exception {
    private static final long serialVersionUID = 1L;

    /** A problem described by {@code problem}. */
    public LineProblem(String problem) {
      super(problem, null, false, false);
    }
  }

  /** One chunk in flight: its text, its rows, or why it stopped. */
  private static final class Slot {
    byte[] buf = new byte[CHUNK_BYTES];
    int length;
    final RowBlock block = new RowBlock();
    int[] lines = new int[RowBlock.DEFAULT_ROWS];
    int lineCount;
    String problem;
    int problemLine;
    IOException failure;

    /** A parser's or the reader's unexpected failure (a bug, or an Error such as OOM). */
    Throwable crash;

    boolean end;
    boolean ready;
    long seq;
  }

  private final InputStream in;
  private final String name;
  private final String format;
  private final int maxLineBytes;
  private final DoubleSupplier progress;

  // The reading, under readLock.
  private final Object readLock = new Object();
  private byte[] carry = new byte[0];
  private int carryLength;
  private boolean eof;
  private long nextSeq;

  private final Slot[] slots;
  private final Semaphore free;
  private final Thread[] threads;
  private volatile boolean closed;

  // The consumer's.
  private long consumeSeq;
  private long lineBase;
  private long idBase;
  private boolean done;
  private long[] delivered = new long[RowBlock.DEFAULT_ROWS];
  private int deliveredRows;

  /**
   * A feed of the lines of {@code text}, parsed by {@code threads} threads, each with a parser of
   * {@code parsers}.
   *
   * @param text the (decompressed) input; closed by {@link #close}
   * @param name the source's name in messages
   * @param format the format's name in messages, e.g. {@code "LIBSVM"}
   * @param maxLineBytes longest accepted line
   * @param progress the fraction of the input read so far ({@link RowFeed#progress}), or null
   * @throws IllegalArgumentException if {@code threads < 1} or an argument is null
   */
  public TextFeed(
      InputStream text,
      String name,
      String format,
      int maxLineBytes,
      int threads,
      Supplier<? extends LineParser> parsers,
      DoubleSupplier progress) {
    if (text == null || name == null || format == null || parsers == null || threads < 1) {
      throw new IllegalArgumentException("a text feed needs its input, names, parsers and threads");
    }
    this.in = text;
    this.name = name;
    this.format = format;
    this.maxLineBytes = maxLineBytes;
    this.progress = progress;
    this.slots = new Slot[2 * threads + 2];
    for (int i = 0; i < slots.length; i++) {
      slots[i] = new Slot();
    }
    this.free = new Semaphore(slots.length);
    this.threads = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      LineParser p = parsers.get();
      this.threads[t] =
          Thread.ofPlatform()
              .name("online-kernels-parser-" + t)
              .daemon(true)
              .unstarted(() -> work(p));
    }
    for (Thread t : this.threads) {
      t.start();
    }
  }

  // ------------------------------------------------------------------ parser threads

  private void work(LineParser parser) {
    try {
      while (!closed) {
        free.acquire();
        Slot s;
        synchronized (readLock) {
          s = slots[(int) (nextSeq % slots.length)];
          s.seq = nextSeq++;
          s.crash = null;
          try {
            read(s);
          } catch (RuntimeException | Error e) {
            s.crash = e;
          }
        }
        try {
          if (!s.end && s.failure == null && s.problem == null && s.crash == null) {
            parse(s, parser);
          }
        } catch (RuntimeException | Error e) {
          // A bug in a parser, or an Error (a missing class, no memory): the consumer rethrows
          // it; a parser thread that died silently would leave the consumer waiting forever.
          s.crash = e;
        }
        synchronized (s) {
          s.ready = true;
          s.notifyAll();
        }
        if (s.end || s.failure != null || s.crash != null) {
          return;
        }
      }
    } catch (InterruptedException e) {
      // closed
    }
  }

  /** Reads the next chunk of whole lines into {@code s} (under the read lock). */
  private void read(Slot s) {
    s.end = false;
    s.failure = null;
    s.problem = null;
    s.block.clear();
    s.lineCount = 0;
    if (eof && carryLength == 0) {
      s.end = true;
      s.length = 0;
      return;
    }
    System.arraycopy(carry, 0, s.buf, 0, Math.min(carryLength, s.buf.length));
    if (carryLength > s.buf.length) {
      s.buf = Arrays.copyOf(carry, carryLength + CHUNK_BYTES);
    }
    int lim = carryLength;
    carryLength = 0;
    try {
      while (true) {
        while (lim < s.buf.length && !eof) {
          int r = in.read(s.buf, lim, s.buf.length - lim);
          if (r < 0) {
            eof = true;
          } else {
            lim += r;
          }
        }
        int nl = lim - 1;
        while (nl >= 0 && s.buf[nl] != '\n') {
          nl--;
        }
        if (nl >= 0) {
          s.length = nl + 1;
          carryLength = lim - s.length;
          if (carry.length < carryLength) {
            carry = new byte[Math.max(carryLength, CHUNK_BYTES)];
          }
          System.arraycopy(s.buf, s.length, carry, 0, carryLength);
          return;
        }
        if (eof) {
          s.length = lim;
          s.end = lim == 0;
          return;
        }
        // A line longer than the chunk: what is not text of lines is refused before it grows.
        for (int i = 0; i < lim; i++) {
          if (s.buf[i] == 0) {
            s.problem = ByteLines.nulByte(i + 1, format);
          } else if (s.buf[i] == '\r' && i + 1 < lim && s.buf[i + 1] != '\n') {
            s.problem = ByteLines.CR_INSIDE;
          }
          if (s.problem != null) {
            s.problemLine = 1;
            s.length = 0;
            return;
          }
        }
        if (s.buf.length > maxLineBytes) {
          s.problem = ByteLines.tooLong(maxLineBytes, format);
          s.problemLine = 1;
          s.length = 0;
          return;
        }
        s.buf = Arrays.copyOf(s.buf, (int) Math.min((long) s.buf.length * 2, maxLineBytes + 1L));
      }
    } catch (IOException e) {
      s.failure = e;
    }
  }

  /** Parses the lines of {@code s} into its block (without the read lock). */
  private void parse(Slot s, LineParser parser) {
    byte[] b = s.buf;
    int len = s.length;
    int pos = s.seq == 0 && ByteLines.bom(b, 0, len) ? 3 : 0;
    int line = 0;
    RowBlock block = s.block;
    while (pos < len) {
      int i = pos;
      scan:
      while (i < len) {
        // Eight bytes at a time past those that cannot end or spoil a line (any above '\r').
        while (i <= len - Long.BYTES && !anyControl((long) LONGS.get(b, i))) {
          i += Long.BYTES;
        }
        for (int stop = Math.min(i + Long.BYTES, len); i < stop; i++) {
          byte c = b[i];
          if (c > '\r') {
            continue;
          }
          if (c == '\n') {
            break scan;
          }
          if (c == 0) {
            s.problem = ByteLines.nulByte(i - pos + 1, format);
            s.problemLine = line + 1;
            return;
          }
          if (c == '\r' && i + 1 < len && b[i + 1] != '\n') {
            s.problem = ByteLines.CR_INSIDE;
            s.problemLine = line + 1;
            return;
          }
        }
      }
      line++;
      int e = i > pos && b[i - 1] == '\r' ? i - 1 : i;
      int before = block.size();
      try {
        parser.parse(b, pos, e, block);
      } catch (LineProblem p) {
        s.problem = p.getMessage();
        s.problemLine = line;
        return;
      } catch (IllegalArgumentException p) {
        s.problem = p.getMessage();
        s.problemLine = line;
        return;
      }
      if (block.size() > before) {
        if (s.lines.length < block.size()) {
          s.lines = Arrays.copyOf(s.lines, 2 * block.size());
        }
        s.lines[before] = line;
      }
      pos = i + 1;
    }
    s.lineCount = line;
  }

  /** Eight bytes of an array as one little-endian long. */
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  /**
   * Whether any of the eight bytes of {@code w} is below 14, i.e. at most {@code '\r'} (LF, CR, NUL
   * and the other controls the byte scan looks at; a tab too, which it then passes). Exact for the
   * word as a whole: a byte of 0x80 or more never counts, and a borrow reaches a higher byte only
   * from a byte that counts itself.
   */
  static boolean anyControl(long w) {
    return ((w - 14 * ONES) & ~w & HIGHS) != 0;
  }

  // ------------------------------------------------------------------ the consumer

  @Override
  public boolean next(RowBlock block) throws IOException {
    block.clear();
    deliveredRows = 0;
    while (!done) {
      Slot s = slots[(int) (consumeSeq % slots.length)];
      try {
        synchronized (s) {
          while (!s.ready || s.seq != consumeSeq) {
            s.wait();
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while waiting for " + name);
      }
      if (s.failure != null) {
        done = true;
        throw s.failure;
      }
      if (s.crash != null) {
        done = true;
        if (s.crash instanceof Error e) {
          throw e;
        }
        throw (RuntimeException) s.crash;
      }
      if (s.problem != null) {
        done = true;
        throw new TextFormatException(name, lineBase + s.problemLine, s.problem);
      }
      if (s.end) {
        done = true;
        return false;
      }
      block.exchange(s.block);
      int n = block.size();
      block.renumber(idBase);
      if (delivered.length < n) {
        delivered = new long[Math.max(n, 2 * delivered.length)];
      }
      for (int r = 0; r < n; r++) {
        delivered[r] = lineBase + s.lines[r];
      }
      deliveredRows = n;
      lineBase += s.lineCount;
      idBase += n;
      s.ready = false;
      consumeSeq++;
      free.release();
      if (n > 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * The 1-based line of row {@code r} of the block the last {@link #next} gave.
   *
   * @throws IndexOutOfBoundsException if there is no such row
   */
  public long line(int r) {
    if (r < 0 || r >= deliveredRows) {
      throw new IndexOutOfBoundsException("row " + r + " of " + deliveredRows);
    }
    return delivered[r];
  }

  /** The lines read so far (all of them once the feed has ended). */
  public long lines() {
    return lineBase;
  }

  @Override
  public double progress() {
    return progress == null ? Double.NaN : progress.getAsDouble();
  }

  /**
   * What to report for {@code error} of this feed: the rest of the input is read, and damage of
   * gzip input found there is reported instead (a damaged gzip body can decompress to text that
   * fails to parse before its checksum is reached; see {@link GzipInput#damageOr}).
   */
  public IOException damageOr(IOException error) throws IOException {
    stopThreads();
    synchronized (readLock) {
      return GzipInput.damageOr(in, error);
    }
  }

  private void stopThreads() {
    closed = true;
    for (Thread t : threads) {
      t.interrupt();
    }
  }

  /** Stops the parser threads and closes the input. */
  @Override
  public void close() throws IOException {
    stopThreads();
    in.close();
  }
}
