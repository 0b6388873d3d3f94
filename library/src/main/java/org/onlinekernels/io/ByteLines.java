package org.onlinekernels.io;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The lines of a text data file as byte ranges of one buffer, for the readers that parse bytes by
 * hand (LIBSVM, Vowpal Wabbit text). A line ends at LF; a CR right before it (CRLF) and a UTF-8
 * byte order mark at the start of the file are not part of a line. What is not a file of lines is
 * an error naming the line as soon as it is seen, never read on: a line longer than the limit, a
 * NUL byte (binary data, {@code /dev/zero}), a CR inside a line (CR-only line ends, which would
 * otherwise make one line of the whole file).
 */
public final class ByteLines {
  /** A line that is not text of the expected format: its 1-based number and the problem. */
  public static final class LineException extends IOException {
    private static final long serialVersionUID = 1L;
    private final long line;
    private final String problem;

    LineException(long line, String problem) {
      super("line " + line + ": " + problem);
      this.line = line;
      this.problem = problem;
    }

    /** 1-based number of the line. */
    public long line() {
      return line;
    }

    /** What is wrong, without the location. */
    public String problem() {
      return problem;
    }
  }

  /**
   * Memory shared by several readers for their line buffers, e.g. a server's connections: a reader
   * takes from it every byte its buffer grows beyond the first {@link #FIRST_BUFFER_BYTES}, and
   * gives them back when its buffer shrinks again (after a long line) or at {@link #release()}.
   * Must be thread-safe when readers on several threads share it.
   */
  public interface Budget {
    /** Takes {@code bytes} from the budget; false, taking nothing, when they are not free. */
    boolean take(long bytes);

    /** Gives back {@code bytes} taken before. */
    void give(long bytes);
  }

  /** The size of a reader's buffer at first, and after a long line when it has a budget. */
  public static final int FIRST_BUFFER_BYTES = 1 << 16;

  private final InputStream in;
  private final int maxLineBytes;
  private final String format;
  private final Budget budget;
  private byte[] buf = new byte[FIRST_BUFFER_BYTES];

  /** Start of the unread part (the next line). */
  private int pos;

  private int lim;

  /** Where the search for the next line break goes on. */
  private int scan;

  private boolean eof;
  private long line;
  private int start;
  private int end;
  private boolean terminated;

  /**
   * @param in the (decompressed) bytes; not closed here
   * @param maxLineBytes longest accepted line, in bytes
   * @param format the format's name for messages, e.g. {@code "LIBSVM"}
   */
  public ByteLines(InputStream in, int maxLineBytes, String format) {
    this(in, maxLineBytes, format, null);
  }

  /**
   * Lines whose buffer grows beyond {@link #FIRST_BUFFER_BYTES} only with memory taken from {@code
   * budget}: a line that needs more than the budget has free is an error naming the line (as a line
   * beyond the limit is), and the buffer shrinks back to its first size once a long line is read.
   * Give the memory back with {@link #release()} when done.
   *
   * @param budget the shared memory, or null for none (the buffer grows up to the limit)
   */
  public ByteLines(InputStream in, int maxLineBytes, String format, Budget budget) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
    this.format = format;
    this.budget = budget;
  }

  /**
   * Gives back to the budget what the buffer took beyond its first size (nothing without a budget);
   * the reader must not be used afterwards.
   */
  public void release() {
    if (budget != null && buf.length > FIRST_BUFFER_BYTES) {
      budget.give(buf.length - FIRST_BUFFER_BYTES);
    }
    buf = new byte[0];
    pos = 0;
    lim = 0;
    scan = 0;
  }

  /**
   * Moves to the next line; false at the end of the input.
   *
   * @throws LineException if the line is not text of lines
   * @throws IOException if the input cannot be read
   */
  public boolean next() throws IOException {
    if (budget != null && buf.length > FIRST_BUFFER_BYTES && lim - pos <= FIRST_BUFFER_BYTES / 2) {
      shrink(); // the long line was read: its memory goes back to the budget
    }
    while (true) {
      int nl = -1;
      int i = scan;
      for (; i < lim; i++) {
        byte c = buf[i];
        if (c > '\r') {
          continue;
        }
        if (c == '\n') {
          nl = i;
          break;
        }
        if (c == 0) {
          throw new LineException(line + 1, nulByte(i - pos + 1, format));
        }
        if (c == '\r') {
          if (i + 1 == lim && !eof) {
            break; // whether LF follows is not known yet
          }
          if (i + 1 < lim && buf[i + 1] != '\n') {
            throw new LineException(line + 1, CR_INSIDE);
          }
        }
      }
      if (nl >= 0) {
        terminated = true;
        deliver(pos, nl);
        pos = nl + 1;
        scan = pos;
        return true;
      }
      scan = i;
      if (eof) {
        if (pos < lim) {
          terminated = false;
          deliver(pos, lim);
          pos = lim;
          scan = lim;
          return true;
        }
        return false;
      }
      // No complete line in the buffer: keep the partial line, make room, read more.
      if (pos > 0) {
        System.arraycopy(buf, pos, buf, 0, lim - pos);
        lim -= pos;
        scan -= pos;
        pos = 0;
      }
      if (lim == buf.length) {
        if (lim >= maxLineBytes) {
          throw new LineException(line + 1, tooLong(maxLineBytes, format));
        }
        // Doubling, but never past the limit (a doubled 1 GiB buffer overflowed int before).
        int grown = (int) Math.min((long) buf.length * 2, maxLineBytes + 1L);
        if (budget != null && !budget.take(grown - buf.length)) {
          throw new LineException(
              line + 1,
              "line longer than "
                  + lim
                  + " bytes, and the memory shared by the lines being read has no "
                  + (grown - buf.length)
                  + " bytes free for more of it; send it again later, or shorter lines");
        }
        buf = Arrays.copyOf(buf, grown);
      }
      int r = in.read(buf, lim, buf.length - lim);
      if (r < 0) {
        eof = true;
      } else {
        lim += r;
      }
    }
  }

  /** The problem of a CR not followed by LF inside a line. */
  static final String CR_INSIDE =
      "a carriage return (CR) inside the line: the file has CR-only line"
          + " ends (classic Mac OS); convert them to LF, e.g. tr '\\r' '\\n'";

  /** The problem of a NUL byte at (1-based) byte {@code at} of a line of a {@code format} file. */
  static String nulByte(long at, String format) {
    return "a NUL byte at byte " + at + " of the line: not a " + format + " file (binary data?)";
  }

  /** The problem of a line longer than {@code max} bytes in a {@code format} file. */
  static String tooLong(int max, String format) {
    return "line longer than "
        + max
        + " bytes: not a "
        + format
        + " file, or a line break is missing";
  }

  /** Whether {@code b[s..s+3)} is a UTF-8 byte order mark. */
  static boolean bom(byte[] b, int s, int e) {
    return e - s >= 3
        && (b[s] & 0xff) == 0xef
        && (b[s + 1] & 0xff) == 0xbb
        && (b[s + 2] & 0xff) == 0xbf;
  }

  /** Back to the first buffer size, keeping the unread bytes; gives the rest to the budget. */
  private void shrink() {
    byte[] small = new byte[FIRST_BUFFER_BYTES];
    System.arraycopy(buf, pos, small, 0, lim - pos);
    budget.give(buf.length - FIRST_BUFFER_BYTES);
    buf = small;
    lim -= pos;
    scan -= pos;
    pos = 0;
  }

  private void deliver(int s, int e) {
    line++;
    if (e > s && buf[e - 1] == '\r') {
      e--;
    }
    if (line == 1 && bom(buf, s, e)) {
      s += 3;
    }
    start = s;
    end = e;
  }

  /** The buffer holding the current line (valid until the next call of {@link #next}). */
  public byte[] buffer() {
    return buf;
  }

  /** First byte of the current line. */
  public int start() {
    return start;
  }

  /** One past the last byte of the current line, without its line break. */
  public int end() {
    return end;
  }

  /**
   * Whether the current line ended with a line break; false for a last line the input cut short (a
   * file without a final LF, or a client that disconnected mid-line).
   */
  public boolean terminated() {
    return terminated;
  }

  /** 1-based number of the current line (blank lines count). */
  public long number() {
    return line;
  }
}
