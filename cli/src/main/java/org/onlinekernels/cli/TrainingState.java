package org.onlinekernels.cli;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.io.AtomicFiles;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.checkpoint.Checkpoint;

/**
 * The whole state of a training run, what {@code train --save-state} writes and {@code train
 * --initial}, {@code predict} and {@code serve} read: the run's settings ({@link #settings()}:
 * rule, parameters, precision, loss, layout, dimension, outputs, label map, input format, hashing
 * and namespaces, examples trained) and each output's optimizer state as a library checkpoint image
 * ({@link org.onlinekernels.optimizer.checkpoint.Checkpoint#toBytes}), bit for bit.
 *
 * <p>Format (docs/CLI.md, "State files"): magic {@code "OKST"}, format version, the settings as
 * {@code key, value} pairs of strings (Java's modified UTF-8), the number of outputs and each
 * checkpoint image (length, bytes), and last the CRC32C of everything before it. Written
 * crash-safely ({@link AtomicFiles}: temporary file, fsync, atomic rename); read whole and verified
 * (magic, version, checksum, bounds of every count and length) before anything is used, and each
 * image is verified again by the checkpoint reader against the optimizer it is loaded into.
 *
 * @param settings the settings by key ({@link #KEYS}, in that order)
 * @param optimizers one checkpoint image per output
 */
record TrainingState(Map<String, String> settings, List<byte[]> optimizers) {
  /** The format version this program writes and reads. */
  static final int FORMAT_VERSION = 1;

  static final int MAGIC = 0x4F4B5354; // "OKST"

  /** Every setting, in file order. */
  static final List<String> KEYS =
      List.of(
          "algorithm",
          "params",
          "precision",
          "loss",
          "layout",
          "d",
          "outputs",
          "classes",
          "labels",
          "normalize",
          "format",
          "bits",
          "hash",
          "interactions",
          "ignore",
          "keep",
          "examples");

  /**
   * Largest number of outputs a state file may declare (a damaged count must not size an array).
   */
  private static final int MAX_OUTPUTS = 1 << 16;

  /** Checks the keys. */
  TrainingState {
    checkShape(settings, optimizers.size());
  }

  /** The setting {@code key}. */
  String get(String key) {
    String v = settings.get(key);
    if (v == null) {
      throw new IllegalArgumentException("no setting " + key);
    }
    return v;
  }

  /** Whether {@code file} starts like a state file (rather than a model file). */
  static boolean isStateFile(Path file) {
    try (var in = Files.newInputStream(file)) {
      byte[] head = in.readNBytes(4);
      return head.length == 4 && ByteBuffer.wrap(head).getInt() == MAGIC;
    } catch (IOException e) {
      return false;
    }
  }

  private static void checkShape(Map<String, String> settings, int outputs) {
    if (!settings.keySet().equals(new java.util.LinkedHashSet<>(KEYS))) {
      throw new IllegalArgumentException(
          "settings must have exactly the keys " + KEYS + ", got " + settings.keySet());
    }
    if (outputs == 0) {
      throw new IllegalArgumentException("a state has at least one output");
    }
  }

  /** Writes the state to {@code file} crash-safely; a failure leaves the old file as it was. */
  void save(Path file) throws Failure {
    List<Image> images = new ArrayList<>();
    for (byte[] image : optimizers) {
      images.add(new Image(image.length, out -> out.write(image)));
    }
    write(file, settings, images);
  }

  /**
   * Writes a state whose images are the checkpoints of {@code optimizers} (one per output), as
   * {@link #save(Path)} would write them, streamed from the optimizers' buffers: saving needs no
   * memory beyond the state itself.
   */
  static void save(Path file, Map<String, String> settings, List<AbstractOptimizer> optimizers)
      throws Failure {
    checkShape(settings, optimizers.size());
    List<Image> images = new ArrayList<>();
    for (AbstractOptimizer o : optimizers) {
      long size = Checkpoint.byteSize(o);
      if (size > Integer.MAX_VALUE) {
        throw new Failure(
            file
                + ": an output's state is "
                + size
                + " bytes; a state file holds at most 2 GiB each");
      }
      images.add(new Image((int) size, out -> Checkpoint.write(o, out)));
    }
    write(file, settings, images);
  }

  /** Passes bytes on and counts them. */
  private static final class Counted extends FilterOutputStream {
    long count;

    Counted(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }
  }

  /** One output's checkpoint image: its length and how to write it. */
  private record Image(int length, AtomicFiles.Content bytes) {}

  private static void write(Path file, Map<String, String> settings, List<Image> images)
      throws Failure {
    try {
      AtomicFiles.write(file, out -> writeTo(out, settings, images), null);
    } catch (IOException e) {
      throw new Failure(e.getMessage()); // names the file and the reason; the old file is intact
    }
  }

  /** The file's bytes, streamed: the body, then the CRC32C of the body as an int. */
  private static void writeTo(OutputStream file, Map<String, String> settings, List<Image> images)
      throws IOException {
    CheckedOutputStream checked = new CheckedOutputStream(file, new CRC32C());
    // Not closed: that would close the file's stream, which the caller forces and closes.
    DataOutputStream out = new DataOutputStream(checked);
    out.writeInt(MAGIC);
    out.writeInt(FORMAT_VERSION);
    out.writeInt(KEYS.size());
    for (String k : KEYS) {
      out.writeUTF(k);
      out.writeUTF(settings.get(k));
    }
    out.writeInt(images.size());
    for (Image image : images) {
      out.writeInt(image.length());
      out.flush();
      Counted counted = new Counted(checked);
      image.bytes().writeTo(counted);
      if (counted.count != image.length()) {
        // The file would not read back; the temporary file is dropped, the old file kept.
        throw new IOException(
            "an output's state wrote " + counted.count + " bytes, not " + image.length());
      }
    }
    out.flush();
    new DataOutputStream(file).writeInt((int) checked.getChecksum().getValue());
  }

  /** The bytes read before anything is trusted: the magic, the version and more. */
  private static final int HEADER_BYTES = 16;

  /** The largest state file: the largest Java array. */
  private static final int MAX_BYTES = Integer.MAX_VALUE - 8;

  /**
   * Reads and verifies {@code file}.
   *
   * @throws Failure naming the file and what is wrong: missing, not a state file, another format
   *     version, damaged (checksum) or truncated, or with impossible counts
   */
  static TrainingState load(Path file) throws Failure {
    byte[] bytes;
    try {
      if (Files.isDirectory(file)) {
        throw new Failure("cannot read " + file + ": it is a directory");
      }
      // Read through a stream, the header first: a device or FIFO (/dev/zero) reports size 0 and
      // never ends, so neither the size nor reading it whole may be trusted before the magic.
      try (InputStream in = Files.newInputStream(file)) {
        byte[] head = in.readNBytes(HEADER_BYTES);
        if (head.length < HEADER_BYTES || ByteBuffer.wrap(head).getInt(0) != MAGIC) {
          throw new Failure(
              file + ": not an online-kernels state file (written by train --save-state)");
        }
        int version = ByteBuffer.wrap(head).getInt(4);
        if (version != FORMAT_VERSION) {
          throw new Failure(
              file
                  + ": has state format version "
                  + version
                  + "; this program reads version "
                  + FORMAT_VERSION);
        }
        bytes = Files.isRegularFile(file) ? readFile(file, in, head) : readStream(file, in, head);
      }
    } catch (NoSuchFileException e) {
      throw new Failure("cannot read " + file + ": no such file");
    } catch (IOException e) {
      throw new Failure("cannot read " + file + ": " + AtomicFiles.reason(e));
    }
    String where = file + ": ";
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 4);
    if ((int) crc.getValue() != ByteBuffer.wrap(bytes).getInt(bytes.length - 4)) {
      throw new Failure(
          where + "checksum mismatch: the file is damaged or truncated; use another copy");
    }
    try (DataInputStream in =
        new DataInputStream(new ByteArrayInputStream(bytes, 8, bytes.length - 12))) {
      int keys = in.readInt();
      if (keys != KEYS.size()) {
        throw new Failure(where + "declares " + keys + " settings; this format has " + KEYS.size());
      }
      Map<String, String> settings = new LinkedHashMap<>();
      for (String k : KEYS) {
        String key = in.readUTF();
        if (!key.equals(k)) {
          throw new Failure(where + "setting '" + key + "' where '" + k + "' belongs");
        }
        settings.put(k, in.readUTF());
      }
      int outputs = in.readInt();
      if (outputs < 1 || outputs > MAX_OUTPUTS) {
        throw new Failure(where + "declares " + outputs + " outputs; the file is damaged");
      }
      List<byte[]> images = new java.util.ArrayList<>();
      for (int k = 0; k < outputs; k++) {
        int len = in.readInt();
        if (len < 0 || len > in.available()) {
          throw new Failure(
              where + "output " + (k + 1) + " declares " + len + " bytes; the file is damaged");
        }
        images.add(in.readNBytes(len));
      }
      if (in.available() != 0) {
        throw new Failure(
            where + "has " + in.available() + " unexpected bytes after the last output");
      }
      return new TrainingState(settings, images);
    } catch (EOFException e) {
      throw new Failure(where + "is truncated inside its settings or state");
    } catch (IOException e) {
      throw new Failure(where + "cannot be parsed: " + e.getMessage());
    }
  }

  /**
   * A regular file whose first {@code head} bytes {@code in} has read: its size and checksum are
   * checked by streaming it before it is held in memory, so that a file cut short, damaged or too
   * large is refused as such, never by running out of memory (a sound header with a 256 MiB body
   * did under a 64 MiB heap).
   */
  private static byte[] readFile(Path file, InputStream in, byte[] head)
      throws IOException, Failure {
    long size = Files.size(file);
    if (size > MAX_BYTES) {
      throw new Failure(file + ": a state file holds at most " + MAX_BYTES + " bytes");
    }
    if (!checksumMatches(file, size)) {
      throw new Failure(
          file + ": checksum mismatch: the file is damaged or truncated; use another copy");
    }
    long heap = Runtime.getRuntime().maxMemory();
    if (2 * size > heap) { // the file's bytes, then each output's image copied out of them
      throw new Failure(
          file
              + ": loading a state of "
              + (size >> 20)
              + " MiB takes about "
              + (2 * size >> 20)
              + " MiB of heap; this JVM may use "
              + (heap >> 20)
              + " MiB: give Java more memory (-Xmx, e.g. -Xmx8g)");
    }
    byte[] bytes = Arrays.copyOf(head, (int) size);
    int n = in.readNBytes(bytes, HEADER_BYTES, bytes.length - HEADER_BYTES);
    if (n != bytes.length - HEADER_BYTES || in.read() >= 0) {
      throw new Failure(file + ": the file changed while it was read");
    }
    return bytes;
  }

  /** Whether the CRC32C of all but the last 4 bytes of {@code file} is those 4 bytes, streamed. */
  private static boolean checksumMatches(Path file, long size) throws IOException {
    CRC32C crc = new CRC32C();
    byte[] buf = new byte[1 << 16];
    try (InputStream s = Files.newInputStream(file)) {
      for (long left = size - 4; left > 0; ) {
        int r = s.read(buf, 0, (int) Math.min(buf.length, left));
        if (r < 0) {
          return false;
        }
        crc.update(buf, 0, r);
        left -= r;
      }
      byte[] tail = s.readNBytes(4);
      return tail.length == 4 && (int) crc.getValue() == ByteBuffer.wrap(tail).getInt();
    }
  }

  /**
   * A pipe or device (read once): held whole before it can be checked, so read no further than a
   * quarter of the heap (reading and copying it take about three times its size).
   */
  private static byte[] readStream(Path file, InputStream in, byte[] head)
      throws IOException, Failure {
    long heap = Runtime.getRuntime().maxMemory();
    int limit = (int) Math.min(MAX_BYTES, Math.max(HEADER_BYTES, heap / 4));
    byte[] rest = in.readNBytes(limit - HEADER_BYTES);
    if (in.read() >= 0) {
      throw new Failure(
          limit == MAX_BYTES
              ? file + ": a state file holds at most " + MAX_BYTES + " bytes"
              : file
                  + ": more than "
                  + (limit >> 20)
                  + " MiB from a pipe or device, which is held in memory whole; this JVM may use "
                  + (heap >> 20)
                  + " MiB of heap: copy it to a regular file, or give Java more memory (-Xmx)");
    }
    byte[] bytes = Arrays.copyOf(head, HEADER_BYTES + rest.length);
    System.arraycopy(rest, 0, bytes, HEADER_BYTES, rest.length);
    return bytes;
  }
}
