package org.onlinekernels.optimizer.checkpoint;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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

  static final int MAGIC = 0x4F4B4350; // "OKCP"

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
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ImageReader.restore(ImageReader.Source.of(channel, 0, size), file.toString(), optimizer);
    }
  }

  /**
   * Loads the checkpoint image that a container file holds at {@code offset}, {@code length} bytes
   * long (one optimizer's checkpoint, as {@link #write} wrote it into the container), into {@code
   * optimizer}, with every check of {@link #load} and without holding the image in memory: each
   * check reads it in chunks from the file. {@code source} names the image in messages (e.g. {@code
   * "state.okst, output 2"}).
   *
   * @throws CheckpointException if the image is damaged or does not match the optimizer; the
   *     optimizer is then unchanged (reset to its initial state if the file changed while it was
   *     read)
   * @throws IOException if reading fails
   */
  public static void load(
      Path file, long offset, long length, String source, AbstractOptimizer optimizer)
      throws IOException {
    if (optimizer == null || file == null || source == null) {
      throw new IllegalArgumentException("file, source and optimizer must not be null");
    }
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException(
          "offset and length must not be negative: " + offset + ", " + length);
    }
    optimizer.stateAccess().checkOpen();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ImageReader.restore(ImageReader.Source.of(channel, offset, length), source, optimizer);
    }
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
    try {
      ImageReader.restore(ImageReader.Source.of(image), source, optimizer);
    } catch (CheckpointException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e); // reading an array does not fail
    }
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

  /**
   * Copies of the state buffers, written or read, go through a buffer of this many bytes (a
   * multiple of every element's size, so that a chunk holds whole elements).
   */
  static final int CHUNK = 1 << 16;

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
