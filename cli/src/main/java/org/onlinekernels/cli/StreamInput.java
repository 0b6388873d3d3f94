package org.onlinekernels.cli;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.ZipException;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.data.RowBlock;
import org.onlinekernels.data.RowFeed;
import org.onlinekernels.io.AtomicFiles;
import org.onlinekernels.io.GzipInput;
import org.onlinekernels.io.LabelRule;
import org.onlinekernels.io.LibSvmLine;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.io.TextFeed;
import org.onlinekernels.io.TextFormatException;

/**
 * A data file (plain or gzip, or standard input for {@code -}) read as a stream of rows for {@code
 * train}: parsed on {@code threads} parser threads ({@link TextFeed}) by the format's line parser
 * ({@link LibSvmLine}, {@link VwLine}), every label checked in file order by {@link LabelRule} (all
 * {@code +1/-1} or all class numbers), every failure one {@link Failure} line naming the file (and
 * the line). Labels and values are as parsed: mapping and normalization come after ({@link
 * StreamPrep}).
 */
final class StreamInput implements RowFeed {
  /** The name {@code --data -} gives standard input. */
  static final String STDIN = "-";

  private final TextFeed text;
  private final String name;
  private final LabelRule labels = new LabelRule();

  /** The labels the model takes, once known: rows read after are checked against them. */
  private LabelFit expected;

  private StreamInput(TextFeed text, String name) {
    this.text = text;
    this.name = name;
  }

  /** Whether {@code file} is standard input. */
  static boolean stdin(Path file) {
    return file.toString().equals(STDIN);
  }

  /**
   * Opens {@code file} ({@code -}: standard input) as {@code vw} text hashed into {@code 2^bits}
   * weights by rows of {@code format}'s hashing and namespaces (names to {@code names}, if not
   * null: then one parser thread), else as LIBSVM; within {@code limits}.
   */
  static StreamInput open(
      Path file,
      boolean vw,
      InputFormat format,
      int bits,
      LibSvmReader.Limits limits,
      VwRow.NameSink names,
      int threads)
      throws Failure {
    String name = file.toString();
    InputStream raw;
    long size;
    try {
      if (stdin(file)) {
        raw = System.in;
        size = -1;
      } else {
        if (Files.isDirectory(file)) {
          throw new Failure("cannot read " + file + ": it is a directory");
        }
        raw = Files.newInputStream(file);
        size = Files.isRegularFile(file) ? Files.size(file) : -1;
      }
    } catch (NoSuchFileException e) {
      throw new Failure("cannot read " + file + ": no such file");
    } catch (AccessDeniedException e) {
      throw new Failure("cannot read " + file + ": permission denied");
    } catch (IOException e) {
      throw new Failure("cannot read " + file + ": " + AtomicFiles.reason(e));
    }
    Counting counting = new Counting(raw);
    try {
      InputStream text = GzipInput.open(counting, name);
      TextFeed feed =
          vw
              ? new TextFeed(
                  text,
                  name,
                  VwLine.FORMAT,
                  limits.maxLineBytes(),
                  names == null ? threads : 1,
                  () ->
                      new VwLine(
                          bits,
                          new VwRow(bits, format.signed(), format.namespaces(), names),
                          limits),
                  size > 0 ? () -> Math.min(1, (double) counting.count / size) : null)
              : new TextFeed(
                  text,
                  name,
                  LibSvmLine.FORMAT,
                  limits.maxLineBytes(),
                  threads,
                  () -> new LibSvmLine(limits),
                  size > 0 ? () -> Math.min(1, (double) counting.count / size) : null);
      return new StreamInput(feed, name);
    } catch (IOException e) {
      throw failure(name, e);
    }
  }

  /** One line for a failure to read {@code name}. */
  static Failure failure(String name, IOException e) {
    if (e instanceof TextFormatException || e instanceof ZipException) {
      return new Failure(e.getMessage());
    }
    return new Failure("cannot read " + name + ": " + AtomicFiles.reason(e));
  }

  @Override
  public boolean next(RowBlock block) throws IOException {
    boolean more;
    try {
      more = text.next(block);
    } catch (TextFormatException e) {
      throw text.damageOr(e);
    }
    double[] y = block.labelArray();
    for (int r = 0; r < block.size(); r++) {
      String problem = labels.problem(y[r], text.line(r));
      if (problem == null && expected != null && Double.isNaN(expected.map(y[r]))) {
        problem = expected.problem(y[r]);
      }
      if (problem != null) {
        throw text.damageOr(new TextFormatException(name, text.line(r), problem));
      }
    }
    return more;
  }

  /**
   * From the next block on, refuses a row whose label does not fit {@code fit} (naming its line);
   * the labels stay as parsed.
   */
  void expect(LabelFit fit) {
    this.expected = fit;
  }

  /** The 1-based line of row {@code r} of the last block. */
  long line(int r) {
    return text.line(r);
  }

  /** The file's name as given. */
  String name() {
    return name;
  }

  @Override
  public double progress() {
    return text.progress();
  }

  @Override
  public void close() throws IOException {
    text.close();
  }

  /** Counts the bytes read from the raw input, for {@link #progress}. */
  private static final class Counting extends FilterInputStream {
    volatile long count;

    Counting(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int c = super.read();
      if (c >= 0) {
        count++;
      }
      return c;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count += n;
      }
      return n;
    }

    @Override
    public void close() throws IOException {
      if (in != System.in) {
        super.close();
      }
    }
  }
}
