package org.onlinekernels.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.io.AtomicFiles;

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
    if (!settings.keySet().equals(new java.util.LinkedHashSet<>(KEYS))) {
      throw new IllegalArgumentException(
          "settings must have exactly the keys " + KEYS + ", got " + settings.keySet());
    }
    if (optimizers.isEmpty()) {
      throw new IllegalArgumentException("a state has at least one output");
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

  /** Writes the state to {@code file} crash-safely; a failure leaves the old file as it was. */
  void save(Path file) throws Failure {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeInt(FORMAT_VERSION);
      out.writeInt(KEYS.size());
      for (String k : KEYS) {
        out.writeUTF(k);
        out.writeUTF(settings.get(k));
      }
      out.writeInt(optimizers.size());
      for (byte[] image : optimizers) {
        out.writeInt(image.length);
        out.write(image);
      }
      out.flush();
      CRC32C crc = new CRC32C();
      crc.update(bytes.toByteArray());
      out.writeInt((int) crc.getValue());
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
    }
    try {
      AtomicFiles.write(file, bytes.toByteArray());
    } catch (IOException e) {
      throw new Failure(e.getMessage()); // names the file and the reason; the old file is intact
    }
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
      try (java.io.InputStream in = Files.newInputStream(file)) {
        byte[] head = in.readNBytes(HEADER_BYTES);
        if (head.length < HEADER_BYTES || ByteBuffer.wrap(head).getInt(0) != MAGIC) {
          throw new Failure(
              file + ": not an online-kernels state file (written by train --save-state)");
        }
        byte[] rest = in.readNBytes(MAX_BYTES - HEADER_BYTES);
        if (in.read() >= 0) {
          throw new Failure(file + ": a state file holds at most " + MAX_BYTES + " bytes");
        }
        bytes = new byte[HEADER_BYTES + rest.length];
        System.arraycopy(head, 0, bytes, 0, HEADER_BYTES);
        System.arraycopy(rest, 0, bytes, HEADER_BYTES, rest.length);
      }
    } catch (NoSuchFileException e) {
      throw new Failure("cannot read " + file + ": no such file");
    } catch (IOException e) {
      throw new Failure("cannot read " + file + ": " + AtomicFiles.reason(e));
    }
    String where = file + ": ";
    int version = ByteBuffer.wrap(bytes).getInt(4);
    if (version != FORMAT_VERSION) {
      throw new Failure(
          where
              + "has state format version "
              + version
              + "; this program reads version "
              + FORMAT_VERSION);
    }
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
}
