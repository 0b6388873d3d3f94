package org.onlinekernels.io;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;
import org.onlinekernels.data.RowBlock;
import org.onlinekernels.data.RowFeed;

/**
 * A compact binary cache of parsed rows, as Vowpal Wabbit's {@code --cache_file}: the first pass
 * over a text file writes its rows (in file order, labels and values as parsed) and later passes,
 * or later runs, read them back at a fraction of the cost of parsing, without holding them in
 * memory.
 *
 * <p>The file: the magic {@code OKRC}, a format version, the cache's <em>key</em> (settings as
 * {@code name=value} lines: what was read and how, so that a cache of other data or other settings
 * is refused, {@link #open}), then blocks of rows, each with its row count, its byte length and a
 * CRC32C of its bytes, and an end record with the total row count. A row: its label (8 bytes), its
 * entry count, its indices as increasing gaps (variable-length integers), and its values: none when
 * all are 1, else 4 bytes each when every value is exactly a float, else 8. Written to a temporary
 * sibling and moved into place when complete ({@link Writer#commit}), so a cache is whole or
 * absent. A damaged or cut file is refused naming the byte offset.
 */
public final class RowCache {
  private RowCache() {}

  private static final byte[] MAGIC = {'O', 'K', 'R', 'C'};
  private static final int VERSION = 1;
  private static final int BLOCK_ROWS = RowBlock.DEFAULT_ROWS;
  private static final int ALL_ONES = 0;
  private static final int FLOATS = 1;
  private static final int DOUBLES = 2;
  private static final long ONE = Double.doubleToRawLongBits(1.0);

  /** A cache that does not match the run: names the file and the setting that differs. */
  public static final class StaleException extends IOException {
    private static final long serialVersionUID = 1L;

    StaleException(String message) {
      super(message);
    }
  }

  /**
   * Writes rows into a new cache; nothing is at the path until {@link #commit}. Not thread-safe.
   */
  public static final class Writer implements AutoCloseable {
    private final Path file;
    private final Path tmp;
    private final DataOutputStream out;
    private final CRC32C crc = new CRC32C();
    private byte[] buf = new byte[1 << 16];
    private int len;
    private int rows;
    private long total;
    private boolean committed;

    Writer(Path file, Map<String, String> key) throws IOException {
      this.file = file;
      Path dir = file.toAbsolutePath().getParent();
      this.tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
      this.out =
          new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16));
      out.write(MAGIC);
      out.writeInt(VERSION);
      byte[] k = keyText(key).getBytes(StandardCharsets.UTF_8);
      out.writeInt(k.length);
      out.write(k);
      crc.reset();
      crc.update(k);
      out.writeInt((int) crc.getValue());
    }

    /** Appends every row of {@code block} (its ids are not kept: rows are numbered in order). */
    public void write(RowBlock block) throws IOException {
      int[] idx = block.indexArray();
      double[] val = block.valueArray();
      int[] start = block.startArray();
      for (int r = 0; r < block.size(); r++) {
        int s = start[r];
        int n = start[r + 1] - s;
        ensure(8 + 5 + 1 + 5 * n + 8 * n);
        putLong(Double.doubleToRawLongBits(block.labelArray()[r]));
        putVar(n);
        int kind = ALL_ONES;
        int prev = 0;
        for (int j = 0; j < n; j++) {
          putVar(idx[s + j] - prev);
          prev = idx[s + j];
          double v = val[s + j];
          if (Double.doubleToRawLongBits(v) != ONE) {
            kind = Math.max(kind, (double) (float) v == v ? FLOATS : DOUBLES);
          }
        }
        buf[len++] = (byte) kind;
        for (int j = 0; j < n && kind != ALL_ONES; j++) {
          if (kind == FLOATS) {
            putInt(Float.floatToRawIntBits((float) val[s + j]));
          } else {
            putLong(Double.doubleToRawLongBits(val[s + j]));
          }
        }
        if (++rows == BLOCK_ROWS) {
          flushBlock();
        }
      }
    }

    private void ensure(int more) {
      if (len + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(2 * buf.length, len + more));
      }
    }

    private void putVar(int v) {
      while ((v & ~0x7f) != 0) {
        buf[len++] = (byte) ((v & 0x7f) | 0x80);
        v >>>= 7;
      }
      buf[len++] = (byte) v;
    }

    private void putInt(int v) {
      buf[len++] = (byte) (v >>> 24);
      buf[len++] = (byte) (v >>> 16);
      buf[len++] = (byte) (v >>> 8);
      buf[len++] = (byte) v;
    }

    private void putLong(long v) {
      putInt((int) (v >>> 32));
      putInt((int) v);
    }

    private void flushBlock() throws IOException {
      if (rows == 0) {
        return;
      }
      out.writeInt(rows);
      out.writeInt(len);
      out.write(buf, 0, len);
      crc.reset();
      crc.update(buf, 0, len);
      out.writeInt((int) crc.getValue());
      total += rows;
      rows = 0;
      len = 0;
    }

    /** The rows written so far. */
    public long rows() {
      return total + rows;
    }

    /** Ends the cache and moves it into place (replacing a file there). */
    public void commit() throws IOException {
      flushBlock();
      out.writeInt(0);
      out.writeLong(total);
      out.flush();
      out.close();
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      committed = true;
    }

    /** Removes the unfinished cache (after {@link #commit}: nothing). */
    @Override
    public void close() throws IOException {
      if (!committed) {
        out.close();
        Files.deleteIfExists(tmp);
      }
    }
  }

  /**
   * A writer of a new cache at {@code file} for the data and settings {@code key}.
   *
   * @throws IOException if the temporary file cannot be made beside {@code file}
   */
  public static Writer create(Path file, Map<String, String> key) throws IOException {
    return new Writer(file, key);
  }

  /**
   * The cache at {@code file}, if it holds the rows of {@code key}, as a feed (rows numbered 0, 1,
   * ... in order).
   *
   * @throws StaleException if its key differs from {@code key}: the message names the file and the
   *     first setting that differs, with both values
   * @throws IOException if it is not a cache of this version, or is damaged (naming the byte)
   */
  public static RowFeed open(Path file, Map<String, String> key) throws IOException {
    InputStream raw = Files.newInputStream(file);
    long size = Files.size(file);
    try {
      DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16));
      byte[] magic = new byte[4];
      in.readFully(magic);
      if (!Arrays.equals(magic, MAGIC)) {
        throw new IOException(file + ": not a row cache of this program (no OKRC header)");
      }
      int version = in.readInt();
      if (version != VERSION) {
        throw new IOException(
            file + ": row cache format " + version + ", this program reads " + VERSION);
      }
      int klen = in.readInt();
      if (klen < 0 || klen > 1 << 20) {
        throw new IOException(file + ": damaged row cache (key length " + klen + ")");
      }
      byte[] k = new byte[klen];
      in.readFully(k);
      CRC32C crc = new CRC32C();
      crc.update(k);
      if (in.readInt() != (int) crc.getValue()) {
        throw new IOException(file + ": damaged row cache (checksum of its key)");
      }
      Map<String, String> found = parseKey(new String(k, StandardCharsets.UTF_8));
      for (Map.Entry<String, String> e : key.entrySet()) {
        String was = found.get(e.getKey());
        if (!e.getValue().equals(was)) {
          throw new StaleException(
              file
                  + ": the cache is stale: it holds "
                  + e.getKey()
                  + " = "
                  + (was == null ? "(none)" : was)
                  + ", this run reads "
                  + e.getKey()
                  + " = "
                  + e.getValue()
                  + "; delete it, or give another cache file");
        }
      }
      return new Reader(file.toString(), in, 16L + klen, size);
    } catch (EOFException e) {
      raw.close();
      throw new IOException(file + ": damaged row cache (the file ends inside its header)");
    } catch (IOException | RuntimeException e) {
      raw.close();
      throw e;
    }
  }

  /** The key as text: one {@code name=value} line per setting, in order. */
  static String keyText(Map<String, String> key) {
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, String> e : key.entrySet()) {
      if (e.getKey().indexOf('=') >= 0 || (e.getKey() + e.getValue()).indexOf('\n') >= 0) {
        throw new IllegalArgumentException(
            "a key setting has no '=' in its name and no line break");
      }
      b.append(e.getKey()).append('=').append(e.getValue()).append('\n');
    }
    return b.toString();
  }

  private static Map<String, String> parseKey(String text) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        m.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return m;
  }

  /** The rows of a cache, block by block. */
  private static final class Reader implements RowFeed {
    private final String name;
    private final DataInputStream in;
    private final long size;
    private final CRC32C crc = new CRC32C();
    private long offset;
    private long rows;
    private boolean ended;
    private byte[] buf = new byte[1 << 16];
    private int pos;
    private int[] idx = new int[64];
    private double[] val = new double[64];

    Reader(String name, DataInputStream in, long offset, long size) {
      this.name = name;
      this.in = in;
      this.offset = offset;
      this.size = size;
    }

    @Override
    public boolean next(RowBlock block) throws IOException {
      block.clear();
      if (ended) {
        return false;
      }
      long at = offset;
      try {
        int n = in.readInt();
        if (n == 0) {
          long total = in.readLong();
          if (total != rows || in.read() >= 0) {
            throw damaged(at, "its end record does not match its " + rows + " rows");
          }
          ended = true;
          offset = size;
          return false;
        }
        int len = in.readInt();
        if (n < 0 || n > BLOCK_ROWS || len < 0) {
          throw damaged(at, "a block of " + n + " rows in " + len + " bytes");
        }
        if (len > size - offset - 12) {
          throw damaged(at, "the file ends inside a block");
        }
        if (buf.length < len) {
          buf = new byte[len];
        }
        in.readFully(buf, 0, len);
        crc.reset();
        crc.update(buf, 0, len);
        if (in.readInt() != (int) crc.getValue()) {
          throw damaged(at, "the checksum of the block");
        }
        offset += 12L + len;
        pos = 0;
        for (int r = 0; r < n; r++) {
          decodeRow(block, at, len);
        }
        if (pos != len) {
          throw damaged(at, "the block's rows do not fill it");
        }
        return true;
      } catch (EOFException e) {
        throw damaged(at, "the file ends inside a block");
      } catch (ArrayIndexOutOfBoundsException | IllegalArgumentException e) {
        throw damaged(at, "a row that does not decode (" + e.getMessage() + ")");
      }
    }

    private void decodeRow(RowBlock block, long at, int len) {
      double label = Double.longBitsToDouble(getLong());
      int n = getVar();
      if (n < 0 || n > len) {
        throw new IllegalArgumentException("entry count " + n);
      }
      if (idx.length < n) {
        idx = new int[Math.max(n, 2 * idx.length)];
        val = new double[idx.length];
      }
      int prev = 0;
      for (int j = 0; j < n; j++) {
        prev += getVar();
        idx[j] = prev;
      }
      int kind = buf[pos++];
      for (int j = 0; j < n; j++) {
        val[j] =
            switch (kind) {
              case ALL_ONES -> 1.0;
              case FLOATS -> Float.intBitsToFloat(getInt());
              case DOUBLES -> Double.longBitsToDouble(getLong());
              default -> throw new IllegalArgumentException("value kind " + kind);
            };
      }
      block.add(label, rows++, idx, val, n);
    }

    private int getVar() {
      int v = 0;
      for (int shift = 0; ; shift += 7) {
        int b = buf[pos++];
        v |= (b & 0x7f) << shift;
        if (b >= 0) {
          return v;
        }
        if (shift > 28) {
          throw new IllegalArgumentException("a number longer than 5 bytes");
        }
      }
    }

    private int getInt() {
      int v =
          ((buf[pos] & 0xff) << 24)
              | ((buf[pos + 1] & 0xff) << 16)
              | ((buf[pos + 2] & 0xff) << 8)
              | (buf[pos + 3] & 0xff);
      pos += 4;
      return v;
    }

    private long getLong() {
      long hi = getInt();
      long lo = getInt() & 0xffffffffL;
      return (hi << 32) | lo;
    }

    private IOException damaged(long at, String what) {
      return new IOException(
          name
              + ": damaged row cache at byte "
              + at
              + " ("
              + what
              + "); delete it to read the data again");
    }

    @Override
    public double progress() {
      return size == 0 ? 1 : (double) offset / size;
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
