package org.onlinekernels.optimizer.checkpoint;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;
import org.onlinekernels.io.AtomicFiles;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.StatefulOptimizer;
import org.onlinekernels.optimizer.state.Precision;

/**
 * Saves an optimizer's full state to a file and loads it back, bit for bit.
 *
 * <p>Format (version {@value #FORMAT_VERSION}; header integers big-endian, strings in modified
 * UTF-8 as {@link DataOutputStream#writeUTF}): magic {@code "OKCP"}, format version, algorithm,
 * precision ({@code FLOAT} or {@code DOUBLE}: the element type of every buffer; {@code MIXED}: see
 * {@link Precision#MIXED}, float weights and double accumulators), byte order of the buffer data,
 * dimension {@code d}, the parameters as text ({@code params().toString()}), the kernel provider
 * (informational), then every state buffer (name, byte length, raw bytes in the recorded native
 * order), every scalar (name, IEEE 754 bits; sorted by name), and last the CRC32C of everything
 * before it. A pending predict is not part of the state: {@link #save} is refused between predict
 * and update.
 *
 * <p>Crash safety: {@link #save} writes through {@link AtomicFiles} (a temporary file in the
 * target's directory, forced to the device, renamed over the target atomically, the directory
 * forced); a crash at any point leaves either the old or the new complete checkpoint, never a
 * damaged one.
 *
 * <p>{@link #load} reads and verifies the whole file (magic, version, checksum, algorithm, element
 * type, byte order, dimension, parameters, buffer and scalar names and sizes) before it writes
 * anything into the optimizer; any mismatch throws {@link CheckpointException} with the optimizer
 * unchanged. Resuming from a loaded checkpoint with the same kernel provider gives the same
 * predictions, bit for bit, as training without interruption.
 */
public final class Checkpoint {
  /** The format version this library writes and reads. */
  public static final int FORMAT_VERSION = 1;

  private static final int MAGIC = 0x4F4B4350; // "OKCP"

  /**
   * Bound on everything but the buffer bytes: header strings (at most 64 KiB each), names, scalars.
   */
  private static final long HEADER_ALLOWANCE = 1 << 20;

  /** Test hook run between fsync of the temporary file and the rename; null in production. */
  static volatile Runnable beforeRename;

  private Checkpoint() {}

  /**
   * Writes {@code optimizer}'s state to {@code file} crash-safely (temporary file, fsync, atomic
   * rename). Call it from the optimizer's owner thread, between rounds.
   *
   * @throws IllegalStateException if a predict is pending (update first) or the optimizer is closed
   * @throws IOException if writing fails; {@code file} then still holds its previous content
   */
  public static void save(AbstractOptimizer optimizer, Path file) throws IOException {
    if (optimizer == null || file == null) {
      throw new IllegalArgumentException("optimizer and file must not be null");
    }
    checkBetweenRounds(optimizer);
    AtomicFiles.write(file, out -> write(optimizer, out), beforeRename);
  }

  /**
   * The checkpoint of {@code optimizer} as bytes, in the file format of {@link #save}: for a
   * container that holds several optimizers' states in one file (the command line's training
   * state). Call it from the optimizer's owner thread, between rounds.
   *
   * @throws IllegalStateException if a predict is pending (update first) or the optimizer is closed
   */
  public static byte[] toBytes(AbstractOptimizer optimizer) {
    checkBetweenRounds(optimizer);
    return encode(optimizer);
  }

  private static void checkBetweenRounds(AbstractOptimizer optimizer) {
    if (optimizer == null) {
      throw new IllegalArgumentException("optimizer must not be null");
    }
    optimizer.stateAccess().checkOpen();
    if (optimizer.stateAccess().hasPending()) {
      throw new IllegalStateException(
          "a predict is pending; call update(g) first: a checkpoint holds the state between rounds");
    }
  }

  /**
   * Loads {@code file} into {@code optimizer}, which must have been created with the same
   * algorithm, element type, dimension and parameters. Cancels a pending predict.
   *
   * @throws CheckpointException if the file is damaged, truncated, of another format version, or
   *     does not match the optimizer; the optimizer is then unchanged
   * @throws IOException if reading fails
   */
  public static void load(Path file, AbstractOptimizer optimizer) throws IOException {
    if (optimizer == null || file == null) {
      throw new IllegalArgumentException("file and optimizer must not be null");
    }
    optimizer.stateAccess().checkOpen();
    // Refused before reading: a file far larger than this optimizer's state (a 3 GB file) would
    // otherwise be read whole into memory only to be refused after.
    long size = Files.size(file);
    long most = HEADER_ALLOWANCE;
    for (MemorySegment b : optimizer.stateAccess().buffers().values()) {
      most += b.byteSize();
    }
    if (size > most) {
      throw new CheckpointException(
          file
              + ": is "
              + size
              + " bytes; a checkpoint of this optimizer ("
              + optimizer.algorithm()
              + ", d = "
              + optimizer.dimension()
              + ") has at most "
              + most
              + " bytes: not its checkpoint, or damaged");
    }
    restore(Files.readAllBytes(file), file.toString(), optimizer);
  }

  /**
   * Loads a checkpoint image made by {@link #toBytes} into {@code optimizer}, with every check of
   * {@link #load}; {@code source} names the image in messages (e.g. {@code "state.okst, output
   * 2"}).
   *
   * @throws CheckpointException if the image is damaged or does not match the optimizer; the
   *     optimizer is then unchanged
   */
  public static void restore(byte[] image, String source, AbstractOptimizer optimizer)
      throws CheckpointException {
    if (optimizer == null || image == null || source == null) {
      throw new IllegalArgumentException("image, source and optimizer must not be null");
    }
    optimizer.stateAccess().checkOpen();
    Decoded c = decode(image, source);
    String where = source + ": ";
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
    for (Map.Entry<String, byte[]> e : c.buffers.entrySet()) {
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
    // Values the algorithm could never reach (a valid checksum only says the file is as written).
    for (Map.Entry<String, byte[]> e : c.buffers.entrySet()) {
      String broken =
          optimizer.stateAccess().checkBufferImage(e.getKey(), MemorySegment.ofArray(e.getValue()));
      if (broken != null) {
        throw new CheckpointException(where + "buffer " + broken);
      }
    }
    for (Map.Entry<String, Double> e : c.scalars.entrySet()) {
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
    // Everything verified: only now is the optimizer written.
    optimizer.reset();
    for (Map.Entry<String, byte[]> e : c.buffers.entrySet()) {
      MemorySegment.copy(
          MemorySegment.ofArray(e.getValue()), 0, buffers.get(e.getKey()), 0, e.getValue().length);
    }
    c.scalars.forEach(optimizer.stateAccess()::setScalar);
  }

  /**
   * Writes {@code optimizer}'s checkpoint to {@code out} in the file format of {@link #save},
   * streamed: the state buffers are copied in chunks, so memory does not grow with the state. For a
   * container that holds several optimizers' states in one file. Call it from the optimizer's owner
   * thread, between rounds.
   *
   * @throws IllegalArgumentException if {@code optimizer} or {@code out} is null
   * @throws IllegalStateException if a predict is pending (update first) or the optimizer is closed
   * @throws IOException if {@code out} fails
   */
  public static void write(AbstractOptimizer optimizer, OutputStream out) throws IOException {
    checkBetweenRounds(optimizer);
    if (out == null) {
      throw new IllegalArgumentException("out must not be null");
    }
    CheckedOutputStream checked = new CheckedOutputStream(out, new CRC32C());
    // Not closed: that would close the caller's stream.
    DataOutputStream data = new DataOutputStream(checked);
    writeBody(optimizer, data);
    data.flush();
    new DataOutputStream(out).writeInt((int) checked.getChecksum().getValue());
  }

  /**
   * The number of bytes {@link #write} writes for {@code optimizer} now (what {@link #toBytes}
   * would hold), counted without holding them.
   *
   * @throws IllegalStateException if a predict is pending (update first) or the optimizer is closed
   */
  public static long byteSize(AbstractOptimizer optimizer) {
    checkBetweenRounds(optimizer);
    Counter counter = new Counter();
    try {
      writeBody(optimizer, new DataOutputStream(counter));
    } catch (IOException e) {
      throw new UncheckedIOException(e); // counting does not fail
    }
    return counter.count + Integer.BYTES; // the body, then its CRC32C
  }

  /** Counts what is written to it, and keeps nothing. */
  private static final class Counter extends OutputStream {
    long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }

  /** Copies of the state buffers go through a buffer of this many bytes. */
  private static final int CHUNK = 1 << 16;

  private static byte[] encode(AbstractOptimizer o) {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try {
      write(o, bos);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    return bos.toByteArray();
  }

  private static void writeBody(AbstractOptimizer o, DataOutputStream out) throws IOException {
    out.writeInt(MAGIC);
    out.writeInt(FORMAT_VERSION);
    out.writeUTF(o.algorithm());
    // FLOAT / DOUBLE (every buffer of that type) or MIXED (Precision.MIXED: float weights,
    // double accumulators); version-1 files hold FLOAT or DOUBLE here, which read unchanged.
    out.writeUTF(o.precision().name());
    out.writeUTF(ByteOrder.nativeOrder().toString());
    out.writeInt(o.dimension());
    out.writeUTF(o.stateAccess().params());
    out.writeUTF(o.kernels().name());
    Map<String, MemorySegment> buffers = o.stateAccess().buffers();
    out.writeInt(buffers.size());
    byte[] chunk = new byte[CHUNK];
    for (Map.Entry<String, MemorySegment> e : buffers.entrySet()) {
      MemorySegment buffer = e.getValue();
      long size = buffer.byteSize();
      out.writeUTF(e.getKey());
      out.writeLong(size);
      for (long at = 0; at < size; at += CHUNK) {
        int n = (int) Math.min(CHUNK, size - at);
        MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, at, chunk, 0, n);
        out.write(chunk, 0, n);
      }
    }
    // Sorted: scalarState() may be a Map.of, whose order is unspecified.
    Map<String, Double> scalars = new TreeMap<>(o.scalarState());
    out.writeInt(scalars.size());
    for (Map.Entry<String, Double> e : scalars.entrySet()) {
      out.writeUTF(e.getKey());
      out.writeLong(Double.doubleToRawLongBits(e.getValue()));
    }
  }

  private record Decoded(
      String algorithm,
      String elementType,
      String byteOrder,
      int d,
      String params,
      Map<String, byte[]> buffers,
      Map<String, Double> scalars) {}

  private static Decoded decode(byte[] bytes, String source) throws CheckpointException {
    String where = source + ": ";
    if (bytes.length < 12) {
      throw new CheckpointException(
          where + "is truncated (" + bytes.length + " bytes); not a complete checkpoint");
    }
    ByteBuffer head = ByteBuffer.wrap(bytes);
    if (head.getInt(0) != MAGIC) {
      throw new CheckpointException(where + "is not an online-kernels checkpoint (bad magic)");
    }
    int version = head.getInt(4);
    if (version != FORMAT_VERSION) {
      throw new CheckpointException(
          where
              + "has format version "
              + version
              + "; this library reads version "
              + FORMAT_VERSION);
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 4);
    if ((int) crc.getValue() != head.getInt(bytes.length - 4)) {
      throw new CheckpointException(
          where + "checksum mismatch: the file is damaged or truncated; use an older checkpoint");
    }
    try (DataInputStream in =
        new DataInputStream(new java.io.ByteArrayInputStream(bytes, 8, bytes.length - 12))) {
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
      Map<String, byte[]> buffers = new LinkedHashMap<>();
      for (int k = 0; k < nb; k++) {
        String name = in.readUTF();
        long len = in.readLong();
        if (len < 0 || len > in.available()) {
          throw new CheckpointException(
              where + "buffer " + name + " declares " + len + " bytes; the file is damaged");
        }
        byte[] raw = new byte[(int) len];
        in.readFully(raw);
        buffers.put(name, raw);
      }
      int ns = in.readInt();
      Map<String, Double> scalars = new TreeMap<>();
      List<String> names = new ArrayList<>();
      for (int k = 0; k < ns; k++) {
        String name = in.readUTF();
        names.add(name);
        scalars.put(name, Double.longBitsToDouble(in.readLong()));
      }
      if (in.available() != 0) {
        throw new CheckpointException(
            where + "has " + in.available() + " unexpected trailing bytes");
      }
      return new Decoded(algorithm, type, order, d, params, buffers, scalars);
    } catch (EOFException e) {
      throw new CheckpointException(where + "is truncated inside its header or data");
    } catch (IOException e) {
      throw new CheckpointException(where + "cannot be parsed: " + e.getMessage());
    }
  }

  /**
   * The parameters of {@code o} as text, every one given or default (as {@link #load} compares
   * them), or "" for an optimizer without a {@code params()}.
   */
  public static String parameters(LinearModelOptimizer o) {
    return o instanceof StatefulOptimizer s ? paramsOf(s) : "";
  }

  /**
   * The parameters as text, compared by {@link #load}: {@code params()} of the concrete optimizer
   * (every one has a public {@code params()}), with the arrays of a record spelled out (a record's
   * {@code toString} prints them by identity).
   */
  static String paramsOf(StatefulOptimizer o) {
    try {
      Object p = o.getClass().getMethod("params").invoke(o);
      if (p instanceof Record r) {
        StringBuilder sb = new StringBuilder(r.getClass().getSimpleName()).append('[');
        for (java.lang.reflect.RecordComponent c : r.getClass().getRecordComponents()) {
          Object v = c.getAccessor().invoke(r);
          sb.append(c.getName())
              .append('=')
              .append(v instanceof double[] a ? java.util.Arrays.toString(a) : String.valueOf(v))
              .append(';');
        }
        return sb.append(']').toString();
      }
      return String.valueOf(p);
    } catch (ReflectiveOperationException e) {
      return "";
    }
  }
}
