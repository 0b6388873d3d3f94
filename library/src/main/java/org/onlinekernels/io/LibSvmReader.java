package org.onlinekernels.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.onlinekernels.data.SparseDataset;

/**
 * Reads LIBSVM / svmlight text files into a {@link SparseDataset}.
 *
 * <p>Format, one example per line: {@code label index:value index:value ...}.
 *
 * <ul>
 *   <li>Indices are 1-based integers, strictly increasing within a line; they are stored 0-based.
 *   <li>Labels are {@code +1}/{@code -1} (any spelling that parses to exactly 1 or -1, e.g. {@code
 *       1}, {@code +1.0}) or class numbers {@code 0..K-1}. A file whose labels all lie in {@code
 *       {-1, +1}} is binary; a file whose labels are all non-negative integers is multiclass with
 *       {@code K = max + 1}. Other labels (fractions, negatives other than -1) and a mix of {@code
 *       -1} with class numbers 0 or &ge; 2 are errors naming the line. Hence a file labelled only
 *       with {@code 1}, or {@code 1} and {@code -1}, is binary, and a file labelled {@code 0} and
 *       {@code 1} is multiclass with two classes.
 *   <li>Numbers: an optional sign, digits with an optional decimal point, an optional exponent
 *       ({@code 1e-05}); they must be finite. Java-only spellings that {@link Double#parseDouble}
 *       would accept ({@code NaN}, {@code Infinity}, {@code 1d}, hex) are rejected so that a file
 *       means the same to every reader.
 *   <li>A line may hold only a label (an example with no features). Explicit zero values are kept.
 *   <li>{@code #} starts a comment that runs to the end of the line; blank and comment-only lines
 *       are skipped but still counted in line numbers. Spaces, tabs, trailing white space, CRLF
 *       line ends and a UTF-8 byte order mark are tolerated; a CR inside a line (CR-only line ends)
 *       and a NUL byte are errors ({@link ByteLines}).
 *   <li>Gzip-compressed input is recognised by its magic bytes, whatever the file name; it may hold
 *       several concatenated members. Bytes after the last member that do not start another member,
 *       a corrupt or truncated member and a CRC mismatch are errors naming the source and the byte
 *       offset ({@link java.util.zip.ZipException}), never ignored.
 * </ul>
 *
 * <p>Nothing is skipped silently: any other deviation throws {@link LibSvmFormatException} naming
 * the source, the line and the problem.
 *
 * <p>The parser scans bytes by hand (no regular expressions, no per-line strings) because the
 * larger benchmark files have hundreds of thousands of tokens; integers, the common case for
 * counts, are converted without going through {@link Double#parseDouble} ({@link TextNumbers}).
 */
public final class LibSvmReader {
  private LibSvmReader() {}

  /**
   * What a caller accepts beyond the format itself; a value past a limit is a {@link
   * LibSvmFormatException} naming the line (and the feature), with the caller's reason.
   *
   * @param maxMagnitude largest accepted {@code |value|} of a feature
   * @param magnitudeRule why, and what to do instead (appended to the message)
   * @param maxDimension largest accepted (1-based) feature index
   * @param dimensionRule why, and what to do instead (appended to the message)
   * @param maxLineBytes longest accepted line, in bytes (a longer one is not a LIBSVM file)
   */
  public record Limits(
      double maxMagnitude,
      String magnitudeRule,
      int maxDimension,
      String dimensionRule,
      int maxLineBytes) {
    /** Default longest line: 256 MiB. */
    public static final int DEFAULT_MAX_LINE_BYTES = 1 << 28;

    /** Only the format's own limits (indices up to {@code 2^31 - 1}, lines up to 256 MiB). */
    public static final Limits NONE =
        new Limits(Double.POSITIVE_INFINITY, "", Integer.MAX_VALUE, "", DEFAULT_MAX_LINE_BYTES);

    /** Checks the values. */
    public Limits {
      if (!(maxMagnitude > 0)
          || maxDimension < 1
          || maxLineBytes < 16
          || maxLineBytes > Integer.MAX_VALUE - 16) {
        throw new IllegalArgumentException("limits must be positive (line length 16 .. 2^31 - 17)");
      }
    }

    /** The same with a magnitude limit. */
    public Limits withMaxMagnitude(double max, String rule) {
      return new Limits(max, rule, maxDimension, dimensionRule, maxLineBytes);
    }

    /** The same with a dimension limit. */
    public Limits withMaxDimension(int max, String rule) {
      return new Limits(maxMagnitude, magnitudeRule, max, rule, maxLineBytes);
    }

    /** The same with a line length limit. */
    public Limits withMaxLineBytes(int max) {
      return new Limits(maxMagnitude, magnitudeRule, maxDimension, dimensionRule, max);
    }
  }

  /**
   * Reads a file; the dimension is the largest index that occurs.
   *
   * @throws LibSvmFormatException if a line is malformed
   * @throws IOException if the file cannot be read or its gzip data is corrupt
   */
  public static SparseDataset read(Path file) throws IOException {
    return read(file, 0);
  }

  /**
   * Reads a file whose dimension is at least {@code minDimension}, e.g. a test file with its
   * training file's dimension, whose last features may never occur in the test part.
   *
   * @throws LibSvmFormatException if a line is malformed
   * @throws IOException if the file cannot be read or its gzip data is corrupt
   */
  public static SparseDataset read(Path file, int minDimension) throws IOException {
    return read(file, minDimension, Limits.NONE);
  }

  /**
   * Reads a file within {@code limits}.
   *
   * @throws LibSvmFormatException if a line is malformed or beyond a limit
   * @throws IOException if the file cannot be read or its gzip data is corrupt
   */
  public static SparseDataset read(Path file, int minDimension, Limits limits) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return read(in, file.toString(), minDimension, limits);
    }
  }

  /**
   * Reads a stream (plain or gzip) to its end; the stream is not closed.
   *
   * @param sourceName name used in error messages
   * @throws LibSvmFormatException if a line is malformed
   * @throws IOException if the stream cannot be read or its gzip data is corrupt
   */
  public static SparseDataset read(InputStream in, String sourceName, int minDimension)
      throws IOException {
    return read(in, sourceName, minDimension, Limits.NONE);
  }

  /**
   * Reads a stream (plain or gzip) to its end within {@code limits}; the stream is not closed.
   *
   * @param sourceName name used in error messages
   * @throws LibSvmFormatException if a line is malformed or beyond a limit
   * @throws IOException if the stream cannot be read or its gzip data is corrupt
   */
  public static SparseDataset read(
      InputStream in, String sourceName, int minDimension, Limits limits) throws IOException {
    if (limits == null) {
      throw new IllegalArgumentException("limits must not be null (Limits.NONE for none)");
    }
    if (minDimension < 0) {
      throw new IllegalArgumentException("minimum dimension must be >= 0, got " + minDimension);
    }
    InputStream text = GzipInput.open(in, sourceName);
    try {
      return new Parser(text, sourceName, minDimension, limits).run();
    } catch (LibSvmFormatException e) {
      throw GzipInput.damageOr(text, e);
    }
  }

  /** One pass over one input: the lines, the line parser and the label rule. */
  private static final class Parser {
    private final ByteLines lines;
    private final String source;
    private final SparseDataset.Builder builder;
    private final LabelRule labels = new LabelRule();
    private final LibSvmLine line;

    Parser(InputStream in, String source, int minDimension, Limits limits) {
      this.lines = new ByteLines(in, limits.maxLineBytes(), LibSvmLine.FORMAT);
      this.source = source;
      this.line = new LibSvmLine(limits);
      this.builder = new SparseDataset.Builder().minDimension(minDimension);
    }

    SparseDataset run() throws IOException {
      try {
        while (lines.next()) {
          byte[] buf = lines.buffer();
          int lineNo = (int) Math.min(lines.number(), Integer.MAX_VALUE);
          try {
            if (line.read(buf, lines.start(), lines.end())) {
              String problem =
                  labels.problem(line.label(), buf, line.labelStart(), line.labelEnd(), lineNo);
              if (problem != null) {
                throw new LibSvmFormatException(source, lineNo, problem);
              }
              builder.addRow(line.label(), line.indices(), line.values(), line.count());
            }
          } catch (TextFeed.LineProblem p) {
            throw new LibSvmFormatException(source, lineNo, p.getMessage());
          }
        }
      } catch (ByteLines.LineException e) {
        throw new LibSvmFormatException(
            source, (int) Math.min(e.line(), Integer.MAX_VALUE), e.problem());
      }
      return builder.build();
    }
  }
}
