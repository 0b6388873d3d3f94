package org.onlinekernels.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.ByteLines;
import org.onlinekernels.io.GzipInput;
import org.onlinekernels.io.LabelRule;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.io.TextFeed;

/**
 * Reads Vowpal Wabbit's text format with feature hashing, so raw text or categorical columns train
 * without a vocabulary:
 *
 * <pre>
 * LABEL [IMPORTANCE] ['TAG]|NAMESPACE[:SCALE] FEATURE[:VALUE] FEATURE[:VALUE] ... |NAMESPACE2 ...
 * 1 |words the quick brown fox |meta length:4
 * -1 'line42| tokens without a namespace
 * </pre>
 *
 * A feature's index is the low {@code bits} bits of {@code h = MurmurHash3_x86_32(name, seed)} with
 * the seed the hash of its namespace (0 for none), as VW does; Apache Commons Codec computes the
 * hash. With signed hashing (the default) bit 31 of {@code h}, which no index uses at {@code bits
 * <= 30}, gives the value a sign, so colliding features cancel in expectation instead of adding up
 * (Weinberger et al. 2009). Features that collide in one example are summed. A feature without a
 * value has value 1; a namespace scale multiplies its values. Namespaces may be dropped and pairs
 * of them crossed ({@link Namespaces}); {@link VwRow} builds each row, crossed features included.
 *
 * <p>Names are bytes: a name is hashed as the bytes it is in the file, in whatever encoding (as VW
 * does), so {@code caf\xe9} and {@code caf\xe8} in Latin-1 are two features, and a UTF-8 name
 * hashes as its UTF-8 bytes. Numbers follow {@link TextNumbers} (no {@code NaN}, {@code Infinity}
 * or hex); labels follow {@link LabelRule} like LIBSVM's. A value, after its namespace scale and
 * after features that collide are summed, must be finite and within the caller's magnitude limit
 * ({@link LibSvmReader.Limits}: the command line's training limit), or the error names the file,
 * the line and the feature; lines are {@link ByteLines} (no NUL byte, no CR-only line ends, at most
 * the limit's line length).
 *
 * <p>Differences from VW, on purpose: no implicit constant feature (none of our models has a bias;
 * add a feature such as {@code |b bias} to get one); all-digit feature names are hashed as text (VW
 * uses their number), so indices differ from VW's while learning is the same; importance weights
 * other than 1 are refused rather than ignored. Empty lines are skipped. Plain or gzip files, told
 * by their first two bytes and read strictly ({@link GzipInput}: nothing after the last member, no
 * truncation).
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
    private final String problem;

    FormatException(String file, long line, String problem) {
      super(file + ":" + line + ": " + problem);
      this.problem = problem;
    }

    FormatException(String file, String problem) {
      super(file + ": " + problem);
      this.problem = problem;
    }

    /** What is wrong, without the file and line. */
    String problem() {
      return problem;
    }
  }

  /**
   * As {@link #read(Path, int, boolean, LibSvmReader.Limits)} with only the format's own limits.
   */
  static SparseDataset read(Path file, int bits, boolean signed) throws IOException {
    return read(file, bits, signed, LibSvmReader.Limits.NONE);
  }

  /**
   * Reads {@code file} into rows of dimension {@code 2^bits}, values within {@code limits}'
   * magnitude, lines within its line length (its dimension limit does not apply: the bits bound the
   * indices).
   *
   * @param signed whether bit 31 of the hash signs the value
   * @throws FormatException naming the file and line of the first bad line
   * @throws java.util.zip.ZipException naming the file and the byte offset of damaged gzip data
   * @throws IOException if the file cannot be read
   */
  static SparseDataset read(Path file, int bits, boolean signed, LibSvmReader.Limits limits)
      throws IOException {
    return read(file, bits, new VwRow(bits, signed, Namespaces.NONE, null), limits);
  }

  /** As {@link #read(Path, int, VwRow, LibSvmReader.Limits)} with only the format's own limits. */
  static SparseDataset read(Path file, int bits, VwRow row) throws IOException {
    return read(file, bits, row, LibSvmReader.Limits.NONE);
  }

  /**
   * As {@link #read(Path, int, boolean, LibSvmReader.Limits)}, each row built by {@code row}
   * (hashing, namespaces, interactions, names); the magnitude limit applies to each feature's value
   * and to the row's summed entries, crossed ones included.
   */
  static SparseDataset read(Path file, int bits, VwRow row, LibSvmReader.Limits limits)
      throws IOException {
    if (bits < 1 || bits > MAX_BITS) {
      throw new IllegalArgumentException("bits must be in 1.." + MAX_BITS + ", got " + bits);
    }
    try (InputStream raw = Files.newInputStream(file)) {
      return read(raw, file.toString(), bits, row, limits);
    }
  }

  /**
   * As {@link #read(Path, int, VwRow, LibSvmReader.Limits)} from a stream (plain or gzip) to its
   * end, named {@code name} in messages; the stream is not closed.
   */
  static SparseDataset read(
      InputStream raw, String name, int bits, VwRow row, LibSvmReader.Limits limits)
      throws IOException {
    InputStream text = GzipInput.open(raw, name);
    try {
      return new Parser(text, name, bits, row, limits).run();
    } catch (FormatException e) {
      throw GzipInput.damageOr(text, e);
    }
  }

  /** One pass over one file: the lines, the line parser and the label rule. */
  private static final class Parser {
    private final ByteLines lines;
    private final String name;
    private final VwLine line;
    private final LabelRule labels = new LabelRule();
    private final SparseDataset.Builder builder;
    private final VwRow row;

    Parser(InputStream in, String name, int bits, VwRow row, LibSvmReader.Limits limits) {
      this.lines = new ByteLines(in, limits.maxLineBytes(), VwLine.FORMAT);
      this.name = name;
      this.row = row;
      this.line = new VwLine(bits, row, limits);
      this.builder = new SparseDataset.Builder().minDimension(1 << bits);
    }

    SparseDataset run() throws IOException {
      try {
        while (lines.next()) {
          byte[] b = lines.buffer();
          long lineNo = lines.number();
          try {
            if (line.read(b, lines.start(), lines.end())) {
              String problem =
                  labels.problem(line.label(), b, line.labelStart(), line.labelEnd(), lineNo);
              if (problem != null) {
                throw new FormatException(name, lineNo, problem);
              }
              builder.addRow(line.label(), row.indices(), row.values(), line.count());
            }
          } catch (TextFeed.LineProblem p) {
            throw new FormatException(name, lineNo, p.getMessage());
          } catch (IllegalArgumentException | IllegalStateException ex) {
            throw new FormatException(name, lineNo, ex.getMessage());
          }
        }
      } catch (ByteLines.LineException e) {
        throw new FormatException(name, e.line(), e.problem());
      }
      try {
        return builder.build();
      } catch (IllegalArgumentException e) {
        throw new FormatException(name, e.getMessage());
      }
    }
  }

  /**
   * A feature or namespace name as text, one name per byte string: the bytes as UTF-8, except that
   * a byte that is not part of valid UTF-8 is written {@code \xHH} (two hex digits) and a backslash
   * {@code \\}. Names that differ only in such bytes (hashed apart) stay apart; they used to become
   * one U+FFFD name.
   */
  static String readableName(byte[] b, int from, int to) {
    boolean plain = true;
    for (int i = from; i < to && plain; i++) {
      plain = b[i] >= 0 && b[i] != '\\';
    }
    if (plain) {
      return new String(b, from, to - from, StandardCharsets.US_ASCII);
    }
    CharsetDecoder utf8 =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(b, from, to - from);
    CharBuffer out = CharBuffer.allocate(to - from);
    StringBuilder name = new StringBuilder(to - from + 8);
    while (true) {
      CoderResult r = utf8.decode(in, out, true);
      name.append(out.flip().toString().replace("\\", "\\\\"));
      out.clear();
      if (r.isUnderflow()) {
        return name.toString();
      }
      for (int k = 0; k < r.length(); k++) {
        name.append(String.format(Locale.ROOT, "\\x%02X", in.get() & 0xff));
      }
    }
  }
}
