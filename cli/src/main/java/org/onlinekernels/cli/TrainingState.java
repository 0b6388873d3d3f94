package org.onlinekernels.cli;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
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
 * @param images one checkpoint image per output
 */
record TrainingState(Map<String, String> settings, List<TrainingState.Image> images) {
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
    checkShape(settings, images.size());
  }

  /** A state whose images are held in memory (a test's hand-made or altered state). */
  static TrainingState held(Map<String, String> settings, List<byte[]> images) {
    return new TrainingState(settings, images.stream().<Image>map(Image.Held::new).toList());
  }

  /**
   * Every image's bytes, read into memory: for tests and small states (loading and resuming read
   * the images in place).
   */
  List<byte[]> optimizers() {
    List<byte[]> bytes = new ArrayList<>();
    for (Image image : images) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(image.length());
      try {
        image.writeTo(out);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      bytes.add(out.toByteArray());
    }
    return bytes;
  }

  /**
   * One output's checkpoint image: held in memory (a state read from a pipe), or where it lies in
   * the state file it was loaded from, read from there when it is restored.
   */
  sealed interface Image {
    /** The image's length in bytes. */
    int length();

    /** Loads the image into {@code optimizer} ({@link Checkpoint#restore}); source names it. */
    void restore(String source, AbstractOptimizer optimizer) throws IOException;

    /** Writes the image's bytes to {@code out}. */
    void writeTo(OutputStream out) throws IOException;

    /** An image held in memory. */
    record Held(byte[] bytes) implements Image {
      @Override
      public int length() {
        return bytes.length;
      }

      @Override
      public void restore(String source, AbstractOptimizer optimizer) throws IOException {
        Checkpoint.restore(bytes, source, optimizer);
      }

      @Override
      public void writeTo(OutputStream out) throws IOException {
        out.write(bytes);
      }
    }

    /**
     * The {@code length} bytes of {@code file} from {@code offset} on, as the file was when it was
     * loaded ({@code identity}): a file replaced since (a state saved over it) is refused.
     */
    record InFile(Path file, FileIdentity identity, long offset, int length) implements Image {
      @Override
      public void restore(String source, AbstractOptimizer optimizer) throws IOException {
        identity.check(file);
        Checkpoint.load(file, offset, length, source, optimizer);
      }

      @Override
      public void writeTo(OutputStream out) throws IOException {
        identity.check(file);
        try (InputStream in = Files.newInputStream(file)) {
          in.skipNBytes(offset);
          byte[] chunk = new byte[1 << 16];
          for (int left = length; left > 0; ) {
            int r = in.read(chunk, 0, Math.min(chunk.length, left));
            if (r < 0) {
              throw new EOFException(file + " ended inside an output's state");
            }
            out.write(chunk, 0, r);
            left -= r;
          }
        }
      }
    }
  }

  /** A file as it was when it was read: its key (inode), modification time and size. */
  record FileIdentity(Object key, FileTime modified, long size) {
    static FileIdentity of(Path file) throws IOException {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      return new FileIdentity(a.fileKey(), a.lastModifiedTime(), a.size());
    }

    /** Refuses {@code file} if it is no longer the file this identity describes. */
    void check(Path file) throws IOException {
      if (!equals(of(file))) {
        throw new IOException(
            file + " changed since it was loaded (another state saved over it?): load it again");
      }
    }
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

  /**
   * Writes the state to {@code file} crash-safely; a failure leaves the old file as it was. Each
   * image is copied from where it is held (memory, or the file it was loaded from).
   */
  void save(Path file) throws Failure {
    List<Output> outputs = new ArrayList<>();
    for (Image image : images) {
      outputs.add(new Output(image.length(), image::writeTo));
    }
    write(file, settings, outputs);
  }

  /**
   * Writes a state whose images are the checkpoints of {@code optimizers} (one per output), as
   * {@link #save(Path)} would write them, streamed from the optimizers' buffers: saving needs no
   * memory beyond the state itself.
   */
  static void save(Path file, Map<String, String> settings, List<AbstractOptimizer> optimizers)
      throws Failure {
    checkShape(settings, optimizers.size());
    List<Output> images = new ArrayList<>();
    for (AbstractOptimizer o : optimizers) {
      long size = Checkpoint.byteSize(o);
      if (size > Integer.MAX_VALUE) {
        throw new Failure(
            file
                + ": an output's state is "
                + size
                + " bytes; a state file holds at most 2 GiB each");
      }
      images.add(new Output((int) size, out -> Checkpoint.write(o, out)));
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

  /** One output's checkpoint image to write: its length and how to write it. */
  private record Output(int length, AtomicFiles.Content bytes) {}

  private static void write(Path file, Map<String, String> settings, List<Output> images)
      throws Failure {
    try {
      AtomicFiles.write(file, out -> writeTo(out, settings, images), null);
    } catch (IOException e) {
      throw new Failure(e.getMessage()); // names the file and the reason; the old file is intact
    }
  }

  /** The file's bytes, streamed: the body, then the CRC32C of the body as an int. */
  private static void writeTo(OutputStream file, Map<String, String> settings, List<Output> images)
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
    for (Output image : images) {
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

  /** The largest state held in memory (from a pipe or device): the largest Java array. */
  private static final int MAX_BYTES = Integer.MAX_VALUE - 8;

  /**
   * Reads and verifies {@code file}: the whole file's checksum, then the settings and where each
   * output's image lies. A regular file's images stay in the file and are read from there, in
   * chunks, when they are restored, so loading needs no memory beyond the optimizers' own state; a
   * pipe's or device's bytes (read once) are held in memory.
   *
   * @throws Failure naming the file and what is wrong: missing, not a state file, another format
   *     version, damaged (checksum) or truncated, or with impossible counts
   */
  static TrainingState load(Path file) throws Failure {
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
        if (Files.isRegularFile(file)) {
          return inPlace(file);
        }
        return heldBytes(file, readStream(file, in, head));
      }
    } catch (NoSuchFileException e) {
      throw new Failure("cannot read " + file + ": no such file");
    } catch (IOException e) {
      throw new Failure("cannot read " + file + ": " + AtomicFiles.reason(e));
    }
  }

  /** A regular file, checked whole by streaming it; its images are left where they are. */
  private static TrainingState inPlace(Path file) throws IOException, Failure {
    FileIdentity identity = FileIdentity.of(file);
    long size = identity.size();
    if (size < HEADER_BYTES + 4 || !checksumMatches(file, size)) {
      throw new Failure(
          file + ": checksum mismatch: the file is damaged or truncated; use another copy");
    }
    try (InputStream raw = Files.newInputStream(file)) {
      raw.skipNBytes(8);
      Position body = new Position(new BufferedInputStream(raw, 1 << 16), 8, size - 4);
      return parse(
          file,
          body,
          (offset, length) -> {
            body.skipNBytes(length);
            return new Image.InFile(file, identity, offset, length);
          });
    }
  }

  /** A pipe's or device's bytes, held: checked whole, then each image copied out of them. */
  private static TrainingState heldBytes(Path file, byte[] bytes) throws Failure {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 4);
    if ((int) crc.getValue() != ByteBuffer.wrap(bytes).getInt(bytes.length - 4)) {
      throw new Failure(
          file + ": checksum mismatch: the file is damaged or truncated; use another copy");
    }
    Position body =
        new Position(new ByteArrayInputStream(bytes, 8, bytes.length - 12), 8, bytes.length - 4);
    return parse(file, body, (offset, length) -> new Image.Held(body.readNBytes(length)));
  }

  /** Makes the image of {@code length} bytes at {@code offset}, moving the body past it. */
  private interface ImageAt {
    Image next(long offset, int length) throws IOException;
  }

  /** The settings and the images' places, from the body after the magic and version. */
  private static TrainingState parse(Path file, Position body, ImageAt images) throws Failure {
    String where = file + ": ";
    try {
      DataInputStream in = new DataInputStream(body);
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
      List<Image> list = new ArrayList<>();
      for (int k = 0; k < outputs; k++) {
        int len = in.readInt();
        if (len < 0 || len > body.left()) {
          throw new Failure(
              where + "output " + (k + 1) + " declares " + len + " bytes; the file is damaged");
        }
        list.add(images.next(body.at(), len));
      }
      if (body.left() != 0) {
        throw new Failure(where + "has " + body.left() + " unexpected bytes after the last output");
      }
      return new TrainingState(settings, list);
    } catch (EOFException e) {
      throw new Failure(where + "is truncated inside its settings or state");
    } catch (IOException e) {
      throw new Failure(where + "cannot be parsed: " + e.getMessage());
    }
  }

  /** The body as a stream that knows its offset in the file and stops where the body ends. */
  private static final class Position extends FilterInputStream {
    private long at;
    private final long end;

    Position(InputStream in, long at, long end) {
      super(in);
      this.at = at;
      this.end = end;
    }

    long at() {
      return at;
    }

    long left() {
      return end - at;
    }

    @Override
    public int read() throws IOException {
      if (at >= end) {
        return -1;
      }
      int b = in.read();
      if (b >= 0) {
        at++;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (at >= end) {
        return -1;
      }
      int r = in.read(b, off, (int) Math.min(len, end - at));
      if (r > 0) {
        at += r;
      }
      return r;
    }

    @Override
    public long skip(long n) throws IOException {
      long s = in.skip(Math.min(n, end - at));
      at += s;
      return s;
    }

    @Override
    public int available() {
      return (int) Math.min(Integer.MAX_VALUE, end - at);
    }

    @Override
    public boolean markSupported() {
      return false;
    }
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
