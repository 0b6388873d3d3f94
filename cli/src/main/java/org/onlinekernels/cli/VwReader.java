package org.onlinekernels.cli;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.apache.commons.codec.digest.MurmurHash3;
import org.onlinekernels.data.SparseDataset;

/**
 * Reads Vowpal Wabbit's text format with feature hashing, so raw text or categorical columns
 * train without a vocabulary:
 *
 * <pre>
 * LABEL [IMPORTANCE] ['TAG]|NAMESPACE[:SCALE] FEATURE[:VALUE] FEATURE[:VALUE] ... |NAMESPACE2 ...
 * 1 |words the quick brown fox |meta length:4
 * -1 'line42| tokens without a namespace
 * </pre>
 *
 * A feature's index is the low {@code bits} bits of {@code h = MurmurHash3_x86_32(name, seed)}
 * with the seed the hash of its namespace (0 for none), as VW does; Apache Commons Codec computes
 * the hash. With signed hashing (the default) bit 31 of {@code h}, which no index uses at
 * {@code bits <= 30}, gives the value a sign, so colliding features cancel in expectation
 * instead of adding up (Weinberger et al. 2009). Features that collide in one example are
 * summed. A feature without a value has value 1; a namespace scale multiplies its values.
 * Namespaces may be dropped and pairs of them crossed ({@link Namespaces}); {@link VwRow} builds
 * each row, crossed features included.
 *
 * <p>Differences from VW, on purpose: no implicit constant feature (none of our models has a
 * bias; add a feature such as {@code |b bias} to get one); all-digit feature names are hashed as
 * text (VW uses their number), so indices differ from VW's while learning is the same;
 * importance weights other than 1 are refused rather than ignored. Empty lines are skipped.
 * Plain or gzip files (told by their first two bytes).
 */
final class VwReader {
  /** VW's default number of hash bits. */
  static final int DEFAULT_BITS = 18;
  /** Largest number of bits: bit 31 carries the sign, and the dimension must fit an int. */
  static final int MAX_BITS = 30;

  private VwReader() {}

  /** A malformed line; the message is {@code FILE:LINE: problem}. */
  static final class FormatException extends IOException {
    private static final long serialVersionUID = 1L;

    FormatException(String file, long line, String problem) {
      super(file + ":" + line + ": " + problem);
    }

    FormatException(String file, String problem) {
      super(file + ": " + problem);
    }
  }

  /**
   * Reads {@code file} into rows of dimension {@code 2^bits}.
   *
   * @param signed whether bit 31 of the hash signs the value
   * @throws FormatException naming the file and line of the first bad line
   * @throws IOException if the file cannot be read
   */
  static SparseDataset read(Path file, int bits, boolean signed) throws IOException {
    return read(file, bits, new VwRow(bits, signed, Namespaces.NONE, null));
  }

  /** As {@link #read(Path, int, boolean)}, each row built by {@code row} (hashing, namespaces, interactions, names). */
  static SparseDataset read(Path file, int bits, VwRow row) throws IOException {
    if (bits < 1 || bits > MAX_BITS) {
      throw new IllegalArgumentException("bits must be in 1.." + MAX_BITS + ", got " + bits);
    }
    try (InputStream raw = new BufferedInputStream(Files.newInputStream(file))) {
      raw.mark(2);
      boolean gzip = raw.read() == 0x1f && raw.read() == 0x8b;
      raw.reset();
      InputStream in = gzip ? new GZIPInputStream(raw, 1 << 16) : raw;
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
      return parse(r, file.toString(), bits, row);
    }
  }

  /** Parses the lines of {@code r} ({@code name} for messages) into rows of dimension {@code 2^bits}, built by {@code row}. */
  static SparseDataset parse(BufferedReader r, String name, int bits, VwRow row) throws IOException {
    SparseDataset.Builder b = new SparseDataset.Builder().minDimension(1 << bits);
    long lineNo = 0;
    String line;
    while ((line = r.readLine()) != null) {
      lineNo++;
      if (line.isBlank()) {
        continue;
      }
      int bar = line.indexOf('|');
      if (bar < 0) {
        throw new FormatException(name, lineNo, "no '|': a line is LABEL |NAMESPACE FEATURE ...");
      }
      double label = header(line.substring(0, bar), name, lineNo);
      row.clear();
      int pos = bar;
      while (pos < line.length()) {
        int next = line.indexOf('|', pos + 1);
        int end = next < 0 ? line.length() : next;
        String[] tokens = line.substring(pos + 1, end).split("[ \t]+", -1);
        // A name right after '|' is the namespace; '| ' is the default namespace.
        int nsSeed = 0;
        double scale = 1;
        String ns = "";
        if (!tokens[0].isEmpty()) {
          ns = tokens[0];
          int colon = ns.indexOf(':');
          if (colon >= 0) {
            scale = number(ns.substring(colon + 1), "namespace scale", name, lineNo);
            ns = ns.substring(0, colon);
          }
          nsSeed = hash(ns, 0);
        }
        for (int t = 1; t < tokens.length; t++) {
          String f = tokens[t];
          if (f.isEmpty()) {
            continue;
          }
          int colon = f.lastIndexOf(':');
          double v = 1;
          if (colon >= 0) {
            v = number(f.substring(colon + 1), "value of feature '" + f.substring(0, colon) + "'", name, lineNo);
            f = f.substring(0, colon);
          }
          if (f.isEmpty()) {
            throw new FormatException(name, lineNo, "a feature value without a feature name");
          }
          row.add(ns, f, hash(f, nsSeed), v * scale);
        }
        pos = end;
      }
      int nnz = row.finish();
      try {
        b.addRow(label, row.indices(), row.values(), nnz);
      } catch (IllegalArgumentException | IllegalStateException e) {
        throw new FormatException(name, lineNo, e.getMessage());
      }
    }
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new FormatException(name, e.getMessage());
    }
  }

  /** The label of the part before the first '|': LABEL [IMPORTANCE] ['TAG]. */
  private static double header(String head, String name, long lineNo) throws FormatException {
    String h = head.strip();
    // A tag may touch the bar: "1 'tag|f". It carries no meaning for training.
    int quote = h.indexOf('\'');
    if (quote >= 0) {
      h = h.substring(0, quote).strip();
    }
    if (h.isEmpty()) {
      throw new FormatException(name, lineNo, "no label before '|' (unlabelled examples cannot be trained or scored)");
    }
    String[] parts = h.split("[ \t]+");
    if (parts.length > 2) {
      throw new FormatException(name, lineNo, "'" + head.strip() + "' is not LABEL [IMPORTANCE] ['TAG]");
    }
    double label = number(parts[0], "label", name, lineNo);
    if (parts.length == 2 && number(parts[1], "importance weight", name, lineNo) != 1) {
      throw new FormatException(name, lineNo, "importance weight " + parts[1]
          + " is not supported (every example counts once)");
    }
    return label;
  }

  private static double number(String s, String what, String name, long lineNo) throws FormatException {
    try {
      double v = Double.parseDouble(s);
      if (Double.isFinite(v)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new FormatException(name, lineNo, what + " '" + s + "' is not a finite number");
  }

  private static int hash(String s, int seed) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    return MurmurHash3.hash32x86(bytes, 0, bytes.length, seed);
  }
}
