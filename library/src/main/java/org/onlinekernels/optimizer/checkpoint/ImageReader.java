package org.onlinekernels.optimizer.checkpoint;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.onlinekernels.optimizer.AbstractOptimizer;

/**
 * Reads a checkpoint image into an optimizer in passes over its bytes, never holding them whole:
 * the checksum first, then the header and the buffers' places, then every value against its
 * invariant, and only then the copy into the optimizer's buffers. Each pass reads at most {@link
 * Checkpoint#CHUNK} bytes at a time, so loading needs no memory beyond the optimizer's own state.
 * The image is a byte array or a region of a file (a checkpoint file, or one output inside the
 * command line's state file).
 */
final class ImageReader {
  /** Bytes read per step of a pass. */
  private static final int CHUNK = Checkpoint.CHUNK;

  /** Random access to an image's bytes. */
  interface Source {
    /** The image's length in bytes. */
    long length();

    /**
     * Reads bytes from {@code at} into {@code dst} until it is full or the image ends.
     *
     * @return the bytes read (fewer than asked only at the image's end)
     */
    int read(long at, ByteBuffer dst) throws IOException;

    /** The bytes of {@code image}. */
    static Source of(byte[] image) {
      return new Source() {
        @Override
        public long length() {
          return image.length;
        }

        @Override
        public int read(long at, ByteBuffer dst) {
          int n = (int) Math.min(dst.remaining(), Math.max(0, image.length - at));
          dst.put(image, (int) at, n);
          return n;
        }
      };
    }

    /** The {@code length} bytes of {@code channel} from {@code offset} on. */
    static Source of(FileChannel channel, long offset, long length) {
      return new Source() {
        @Override
        public long length() {
          return length;
        }

        @Override
        public int read(long at, ByteBuffer dst) throws IOException {
          int start = dst.position();
          int want = (int) Math.min(dst.remaining(), Math.max(0, length - at));
          ByteBuffer view = dst.slice(start, want);
          while (view.hasRemaining()) {
            if (channel.read(view, offset + at + view.position()) < 0) {
              break;
            }
          }
          dst.position(start + view.position());
          return view.position();
        }
      };
    }
  }

  /** Where a buffer's bytes lie in the image. */
  private record Region(long offset, long length) {}

  /** The image's header, its buffers' places and its scalars, as the structure pass read them. */
  private record Layout(
      String algorithm,
      String elementType,
      String byteOrder,
      int d,
      String params,
      Map<String, Region> buffers,
      Map<String, Double> scalars) {}

  private final Source image;
  private final String where;
  private final ByteBuffer chunk = ByteBuffer.allocate(CHUNK);

  private ImageReader(Source image, String source) {
    this.image = image;
    this.where = source + ": ";
  }

  /**
   * Loads {@code image} into {@code optimizer} with every check of {@link Checkpoint#restore}, in
   * the same order and with the same messages; the optimizer is written only after all of them
   * passed. Should the bytes change between the passes (a file rewritten while it is read), the
   * optimizer is reset to its initial state and the load refused.
   */
  static void restore(Source image, String source, AbstractOptimizer optimizer) throws IOException {
    new ImageReader(image, source).restoreInto(optimizer);
  }

  private void restoreInto(AbstractOptimizer optimizer) throws IOException {
    checkChecksum();
    Layout c = layout();
    matches(optimizer, c);
    // Values the algorithm could never reach (a valid checksum only says the file is as written).
    for (Map.Entry<String, Region> e : c.buffers.entrySet()) {
      checkValues(optimizer, e.getKey(), e.getValue());
    }
    checkScalars(optimizer, c.scalars);
    // Everything verified: only now is the optimizer written.
    optimizer.reset();
    if (!copyInto(optimizer.stateAccess().buffers(), c.buffers)) {
      optimizer.reset();
      throw new CheckpointException(
          where + "changed while it was read; the optimizer was reset: load it again");
    }
    c.scalars.forEach(optimizer.stateAccess()::setScalar);
  }

  /** The header, buffers and scalars against the optimizer's. */
  private void matches(AbstractOptimizer optimizer, Layout c) throws CheckpointException {
    if (!c.algorithm.equals(optimizer.algorithm())) {
      throw new CheckpointException(
          where
              + "holds "
              + c.algorithm
              + " state; this optimizer is "
              + optimizer.algorithm()
              + "; load it into a "
              + c.algorithm
              + " optimizer");
    }
    if (!c.elementType.equals(optimizer.precision().name())) {
      throw new CheckpointException(
          where
              + "holds "
              + c.elementType.toLowerCase()
              + " state; this optimizer is "
              + optimizer.precision().name().toLowerCase()
              + "; create the optimizer with the checkpoint's precision");
    }
    if (!c.byteOrder.equals(ByteOrder.nativeOrder().toString())) {
      throw new CheckpointException(
          where
              + "was written on a "
              + c.byteOrder
              + " machine; this one is "
              + ByteOrder.nativeOrder());
    }
    if (c.d != optimizer.dimension()) {
      throw new CheckpointException(
          where + "has dimension " + c.d + "; this optimizer has " + optimizer.dimension());
    }
    String params = optimizer.stateAccess().params();
    if (!c.params.equals(params)) {
      throw new CheckpointException(
          where
              + "was saved with parameters "
              + c.params
              + "; this optimizer has "
              + params
              + "; create the optimizer with the checkpoint's parameters");
    }
    Map<String, MemorySegment> buffers = optimizer.stateAccess().buffers();
    if (!c.buffers.keySet().equals(buffers.keySet())) {
      throw new CheckpointException(
          where
              + "has state buffers "
              + c.buffers.keySet()
              + "; this optimizer has "
              + buffers.keySet()
              + " (e.g. another storage mode)");
    }
    for (Map.Entry<String, Region> e : c.buffers.entrySet()) {
      long want = buffers.get(e.getKey()).byteSize();
      if (e.getValue().length != want) {
        throw new CheckpointException(
            where
                + "buffer "
                + e.getKey()
                + " has "
                + e.getValue().length
                + " bytes; expected "
                + want);
      }
    }
    if (!c.scalars.keySet().equals(new TreeMap<>(optimizer.scalarState()).keySet())) {
      throw new CheckpointException(
          where
              + "has scalars "
              + c.scalars.keySet()
              + "; this optimizer has "
              + optimizer.scalarState().keySet());
    }
  }

  /** Each scalar against its invariant. */
  private void checkScalars(AbstractOptimizer optimizer, Map<String, Double> scalars)
      throws CheckpointException {
    for (Map.Entry<String, Double> e : scalars.entrySet()) {
      double v = e.getValue();
      String broken =
          Double.isNaN(v)
              ? e.getKey() + " is not NaN"
              : optimizer.stateAccess().brokenInvariant(e.getKey(), v);
      if (broken != null) {
        throw new CheckpointException(
            where + "scalar " + e.getKey() + " = " + v + " breaks its invariant: " + broken);
      }
    }
  }

  /** The magic, the version and the CRC32C of everything before the image's last four bytes. */
  private void checkChecksum() throws IOException {
    long n = image.length();
    if (n < 12) {
      throw new CheckpointException(
          where + "is truncated (" + n + " bytes); not a complete checkpoint");
    }
    ByteBuffer head = ByteBuffer.allocate(8);
    image.read(0, head);
    if (head.getInt(0) != Checkpoint.MAGIC) {
      throw new CheckpointException(where + "is not an online-kernels checkpoint (bad magic)");
    }
    int version = head.getInt(4);
    if (version != Checkpoint.FORMAT_VERSION) {
      throw new CheckpointException(
          where
              + "has format version "
              + version
              + "; this library reads version "
              + Checkpoint.FORMAT_VERSION);
    }
    CRC32C crc = new CRC32C();
    update(crc, 0, n - 4);
    if ((int) crc.getValue() != storedChecksum()) {
      throw new CheckpointException(
          where + "checksum mismatch: the file is damaged or truncated; use an older checkpoint");
    }
  }

  private int storedChecksum() throws IOException {
    ByteBuffer tail = ByteBuffer.allocate(4);
    image.read(image.length() - 4, tail);
    return tail.getInt(0);
  }

  /** Adds bytes {@code [from, to)} of the image to {@code crc}. */
  private void update(CRC32C crc, long from, long to) throws IOException {
    for (long at = from; at < to; ) {
      chunk.clear().limit((int) Math.min(CHUNK, to - at));
      int r = image.read(at, chunk);
      if (r <= 0) {
        throw new EOFException();
      }
      crc.update(chunk.flip());
      at += r;
    }
  }

  /** The structure pass: the header, each buffer's name and place, the scalars. */
  private Layout layout() throws IOException {
    Positioned body = new Positioned(8, image.length() - 4);
    try (DataInputStream in = new DataInputStream(body)) {
      String algorithm = in.readUTF();
      String type = in.readUTF();
      String order = in.readUTF();
      int d = in.readInt();
      String params = in.readUTF();
      in.readUTF(); // kernel provider: informational
      int nb = in.readInt();
      if (nb < 0 || nb > 64) {
        throw new CheckpointException(where + "declares " + nb + " buffers; the file is damaged");
      }
      Map<String, Region> buffers = new LinkedHashMap<>();
      for (int k = 0; k < nb; k++) {
        String name = in.readUTF();
        long len = in.readLong();
        if (len < 0 || len > body.left()) {
          throw new CheckpointException(
              where + "buffer " + name + " declares " + len + " bytes; the file is damaged");
        }
        buffers.put(name, new Region(body.at, len));
        body.at += len;
      }
      int ns = in.readInt();
      Map<String, Double> scalars = new TreeMap<>();
      for (int k = 0; k < ns; k++) {
        String name = in.readUTF();
        scalars.put(name, Double.longBitsToDouble(in.readLong()));
      }
      if (body.left() != 0) {
        throw new CheckpointException(where + "has " + body.left() + " unexpected trailing bytes");
      }
      return new Layout(algorithm, type, order, d, params, buffers, scalars);
    } catch (EOFException e) {
      throw new CheckpointException(where + "is truncated inside its header or data");
    } catch (CheckpointException e) {
      throw e;
    } catch (IOException e) {
      throw new CheckpointException(where + "cannot be parsed: " + e.getMessage());
    }
  }

  /** The values pass over one buffer: each against its field's invariant. */
  private void checkValues(AbstractOptimizer optimizer, String name, Region r) throws IOException {
    for (long done = 0; done < r.length; ) {
      int n = fill(r.offset + done, (int) Math.min(CHUNK, r.length - done));
      String broken =
          optimizer
              .stateAccess()
              .checkBufferImage(name, MemorySegment.ofBuffer(chunk.slice(0, n)), done);
      if (broken != null) {
        throw new CheckpointException(where + "buffer " + broken);
      }
      done += n;
    }
  }

  /**
   * The copy pass: reads the whole image once more in order, copying each buffer's bytes into the
   * optimizer's buffer of that name and summing every byte into a CRC32C.
   *
   * @return whether the sum is still the stored checksum (false: the bytes changed since the
   *     checks)
   */
  private boolean copyInto(Map<String, MemorySegment> into, Map<String, Region> buffers)
      throws IOException {
    CRC32C crc = new CRC32C();
    long at = 0;
    for (Map.Entry<String, Region> e : buffers.entrySet()) {
      Region r = e.getValue();
      update(crc, at, r.offset);
      MemorySegment target = into.get(e.getKey());
      for (long done = 0; done < r.length; ) {
        int n = fill(r.offset + done, (int) Math.min(CHUNK, r.length - done));
        crc.update(chunk.slice(0, n));
        MemorySegment.copy(MemorySegment.ofBuffer(chunk.slice(0, n)), 0, target, done, n);
        done += n;
      }
      at = r.offset + r.length;
    }
    update(crc, at, image.length() - 4);
    return (int) crc.getValue() == storedChecksum();
  }

  /** Reads {@code n} bytes from {@code at} into the chunk (from its start); EOF if fewer exist. */
  private int fill(long at, int n) throws IOException {
    chunk.clear().limit(n);
    while (chunk.hasRemaining()) {
      if (image.read(at + chunk.position(), chunk) <= 0) {
        throw new EOFException();
      }
    }
    return n;
  }

  /**
   * The image's bytes {@code [at, end)} as a stream, whose position the structure pass moves past
   * the buffers' bytes without reading them.
   */
  private final class Positioned extends InputStream {
    long at;
    private final long end;
    private final ByteBuffer one = ByteBuffer.allocate(8192).limit(0);
    private long oneAt;

    Positioned(long at, long end) {
      this.at = at;
      this.end = end;
    }

    long left() {
      return end - at;
    }

    private final byte[] single = new byte[1];

    @Override
    public int read() throws IOException {
      return read(single, 0, 1) < 0 ? -1 : single[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (at >= end) {
        return -1;
      }
      if (at < oneAt || at >= oneAt + one.limit()) {
        one.clear().limit((int) Math.min(one.capacity(), end - at));
        oneAt = at;
        if (image.read(at, one) <= 0) {
          return -1;
        }
        one.flip();
      }
      int from = (int) (at - oneAt);
      int n = Math.min(len, one.limit() - from);
      one.get(from, b, off, n);
      at += n;
      return n;
    }
  }
}
