package org.onlinekernels.trainer.model;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32C;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.model.LinearModel.ModelFormatException;

/**
 * Reads a model file ({@link LinearModel#load}) in two streamed passes: the first checks the magic
 * line and the checksum (a damaged file is refused as damaged, whatever else it says), the second
 * parses the header and the weights straight into their arrays. The memory it takes is the weights'
 * arrays and a buffer, so a model loads in about the heap its weights need, and the weights' size
 * is checked against the heap before one is read.
 */
final class ModelFileReader {
  static final String MAGIC_PREFIX = "online-kernels-model ";
  static final String CHECKSUM_KEY = "crc32c ";

  /** Length of the last line: {@code "crc32c "}, 8 hex digits, {@code "\n"}. */
  static final int CHECKSUM_LINE_BYTES = CHECKSUM_KEY.length() + 9;

  /** Longest header line read (the {@code params} line is the only long one). */
  private static final int MAX_HEADER_LINE = 1 << 16;

  /** Longest number text of a weight ({@link Double#toString} writes at most 24 characters). */
  private static final int MAX_NUMBER = 64;

  private static final String[] KEYS = {
    "algorithm", "params", "type", "loss", "d", "outputs", "classes"
  };

  private final Path file;
  private final long bodyBytes;
  private InputStream in;
  private long pos;
  private int line = 1;

  private ModelFileReader(Path file, long bodyBytes) {
    this.file = file;
    this.bodyBytes = bodyBytes;
  }

  static LinearModel load(Path file) throws IOException {
    // one open file for both passes: a file replaced (renamed over) between them is not mixed in
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      checkFirstLine(file, Channels.newInputStream(ch));
      if (!Files.isRegularFile(file)) {
        throw new ModelFormatException(
            file,
            1,
            "is not a regular file (a model file is read twice: for its"
                + " checksum, then for its weights)");
      }
      long size = ch.size();
      if (size > LinearModel.MAX_FILE_BYTES) {
        throw new ModelFormatException(
            file,
            1,
            "is "
                + size
                + " bytes; a model file of this format holds at most "
                + LinearModel.MAX_FILE_BYTES
                + " bytes");
      }
      checkChecksum(file, Channels.newInputStream(ch.position(0)), size);
      ModelFileReader r = new ModelFileReader(file, size - CHECKSUM_LINE_BYTES);
      r.in = new BufferedInputStream(Channels.newInputStream(ch.position(0)), 1 << 16);
      return r.parse();
    }
  }

  /**
   * The magic line, read alone (at most 64 bytes), so that no device or huge file is read further.
   */
  private static void checkFirstLine(Path file, InputStream s) throws IOException {
    byte[] head = new byte[64];
    int n = 0;
    for (int r; n < head.length && (r = s.read(head, n, head.length - n)) > 0; ) {
      n += r;
    }
    int eol = 0;
    while (eol < n && head[eol] != '\n') {
      eol++;
    }
    String first = new String(head, 0, eol, StandardCharsets.ISO_8859_1);
    if (!first.startsWith(MAGIC_PREFIX)) {
      throw new ModelFormatException(
          file, 1, "not an online-kernels model (first line must be '" + LinearModel.MAGIC + "')");
    }
    if (first.indexOf('\r') >= 0) {
      throw new ModelFormatException(
          file,
          1,
          (first.endsWith("\r") && eol < n ? "has CRLF (Windows) line ends" : "has CR line ends")
              + ", as a text-mode copy or a checkout with Git's autocrlf makes them; the model format"
              + " has LF line ends and its checksum is of those bytes: restore the file as written (e.g. dos2unix; in Git,"
              + " '*.model -text' in .gitattributes)");
    }
    String version = first.substring(MAGIC_PREFIX.length());
    if (!version.equals(Integer.toString(LinearModel.FORMAT_VERSION))) {
      throw new ModelFormatException(
          file,
          1,
          "has model format version "
              + version
              + "; this library reads version "
              + LinearModel.FORMAT_VERSION
              + (version.equals("1") ? " (version 1 had no checksum): train the model again" : ""));
    }
  }

  /** First pass: the CRC32C of every byte before the last line, compared with that line. */
  private static void checkChecksum(Path file, InputStream s, long size) throws IOException {
    long bodyEnd = size - CHECKSUM_LINE_BYTES;
    CRC32C crc = new CRC32C();
    byte[] tail = new byte[CHECKSUM_LINE_BYTES];
    long lines = 1;
    long firstEol = -1;
    long at = 0;
    byte[] buf = new byte[1 << 16];
    for (int r; (r = s.read(buf)) > 0; at += r) {
      for (int i = 0; i < r; i++) {
        if (buf[i] == '\n') {
          lines++;
          firstEol = firstEol < 0 ? at + i : firstEol;
        }
        long p = at + i - bodyEnd;
        if (p >= 0 && p < tail.length) {
          tail[(int) p] = buf[i];
        }
      }
      crc.update(buf, 0, (int) Math.max(0, Math.min(r, bodyEnd - at)));
    }
    int lastLine = (int) Math.min(lines, Integer.MAX_VALUE);
    String t = new String(tail, StandardCharsets.ISO_8859_1);
    if (at != size || bodyEnd <= firstEol || !t.matches(CHECKSUM_KEY + "[0-9a-f]{8}\n")) {
      throw new ModelFormatException(
          file,
          lastLine,
          "truncated or damaged: the file does not end with its '"
              + CHECKSUM_KEY
              + "<8 hex digits>' line (an interrupted write or copy?)");
    }
    String want = t.substring(CHECKSUM_KEY.length(), CHECKSUM_LINE_BYTES - 1);
    String got = String.format(Locale.ROOT, "%08x", crc.getValue());
    if (!want.equals(got)) {
      throw new ModelFormatException(
          file,
          lastLine - 1,
          "checksum mismatch (the file says "
              + want
              + ", its content gives "
              + got
              + "): the file is damaged; use another copy or train again");
    }
  }

  /** The next byte of the body, or -1 where the checksum line begins. */
  private int next() throws IOException {
    if (pos >= bodyBytes) {
      return -1;
    }
    int b = in.read();
    if (b < 0) {
      throw new ModelFormatException(file, line, "the file changed while it was read");
    }
    pos++;
    return b;
  }

  /** The rest of the current line (its '\n' consumed), or null at the end of the body. */
  private String headerLine() throws IOException {
    byte[] b = new byte[256];
    int n = 0;
    int c = next();
    if (c < 0) {
      return null;
    }
    for (; c >= 0 && c != '\n'; c = next()) {
      if (n == MAX_HEADER_LINE) {
        throw new ModelFormatException(
            file, line, "header line longer than " + MAX_HEADER_LINE + " bytes");
      }
      if (n == b.length) {
        b = java.util.Arrays.copyOf(b, 2 * n);
      }
      b[n++] = (byte) c;
    }
    return new String(b, 0, n, StandardCharsets.UTF_8);
  }

  private LinearModel parse() throws IOException {
    headerLine(); // the magic line, checked
    String[] h = new String[KEYS.length];
    for (int i = 0; i < KEYS.length; i++) {
      String key = KEYS[i];
      line++;
      String s = headerLine();
      if (s == null) {
        throw new ModelFormatException(file, line, "file ends before the '" + key + "' line");
      }
      h[i] =
          s.equals(key)
              ? ""
              : s.startsWith(key + " ") ? s.substring(key.length() + 1).trim() : null;
      if (h[i] == null) {
        throw new ModelFormatException(file, line, "expected a '" + key + "' line");
      }
      if (key.equals("outputs")) {
        checkHeap(h[4], h[5]);
      }
    }
    try {
      AlgorithmSpec spec = AlgorithmSpec.parse(h[0], List.of(h[1]));
      ElementType type = ElementType.parse(h[2]);
      Loss loss = Loss.parse(h[3]);
      int d = Integer.parseInt(h[4]);
      int k = Integer.parseInt(h[5]);
      boolean multi = !h[6].equals("binary");
      if (d < 1 || k < 1 || (multi && Integer.parseInt(h[6]) != k)) {
        throw new IllegalArgumentException("inconsistent d / outputs / classes");
      }
      double[][] ws = new double[k][];
      for (int o = 0; o < k; o++) {
        line++;
        ws[o] = weights(d, k, o, type);
      }
      if (next() >= 0) {
        throw new ModelFormatException(
            file,
            line + 1,
            "unexpected text after the last weight line"
                + " (expected the '"
                + CHECKSUM_KEY.trim()
                + "' line)");
      }
      return new LinearModel(spec, type, loss, multi, ws);
    } catch (NumberFormatException e) {
      throw new ModelFormatException(file, line, "bad number: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new ModelFormatException(file, line, e.getMessage());
    }
  }

  /** Refuses weights that cannot fit this JVM's heap, or this file, before they are allocated. */
  private void checkHeap(String dText, String kText) throws ModelFormatException {
    long d;
    long k;
    try {
      d = Long.parseLong(dText);
      k = Long.parseLong(kText);
    } catch (NumberFormatException e) {
      return; // reported with the header's other checks
    }
    long max = Runtime.getRuntime().maxMemory();
    if (d > 0
        && k > 0
        && d <= Integer.MAX_VALUE
        && k <= Integer.MAX_VALUE
        && (double) d * k * Double.BYTES > max) {
      throw new ModelFormatException(
          file,
          line,
          "d = "
              + d
              + " and "
              + k
              + " outputs are "
              + d * k
              + " weights, "
              + (d * k * Double.BYTES >> 20)
              + " MiB of heap; this JVM may use "
              + (max >> 20)
              + " MiB: give Java more memory (-Xmx)");
    }
    // each weight takes at least two bytes (" 0"): a header claiming more than the file holds
    // would otherwise allocate its arrays before the short weight lines are found
    if (d > 0 && k > 0 && 2.0 * d * k > bodyBytes) {
      throw new ModelFormatException(
          file,
          line,
          "d = "
              + d
              + " and "
              + k
              + " outputs are "
              + d * k
              + " weights, at least "
              + 2 * d * k
              + " bytes, but the file has "
              + bodyBytes
              + ": the header does not match the weights");
    }
  }

  /** One line "w" and {@code d} numbers, parsed as {@code type}. */
  private double[] weights(int d, int k, int o, ElementType type) throws IOException {
    int first = next();
    if (first < 0) {
      throw new ModelFormatException(
          file, line, "file ends before weight line " + (o + 1) + " of " + k);
    }
    if (first != 'w') {
      throw wrongCount(d);
    }
    double[] w = new double[d];
    byte[] num = new byte[MAX_NUMBER];
    int c = next();
    for (int i = 0; i < d; i++) {
      if (c != ' ') {
        throw wrongCount(d);
      }
      int n = 0;
      for (c = next(); c >= 0 && c != ' ' && c != '\n'; c = next()) {
        if (n == MAX_NUMBER) {
          throw new NumberFormatException(
              "weight " + (i + 1) + " is longer than " + MAX_NUMBER + " characters");
        }
        num[n++] = (byte) c;
      }
      String s = new String(num, 0, n, StandardCharsets.ISO_8859_1);
      w[i] = type == ElementType.FLOAT ? Float.parseFloat(s) : Double.parseDouble(s);
      if (!Double.isFinite(w[i])) {
        throw new ModelFormatException(file, line, "weight " + (i + 1) + " is not finite");
      }
    }
    if (c != '\n') {
      throw wrongCount(d);
    }
    return w;
  }

  private ModelFormatException wrongCount(int d) {
    return new ModelFormatException(file, line, "expected 'w' and " + d + " numbers");
  }
}
