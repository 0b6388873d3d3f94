package org.onlinekernels.io;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.onlinekernels.data.RowBlock;

/**
 * One LIBSVM/svmlight line into a row, by hand over its bytes (no per-token string, no boxing):
 * {@code label index:value ...} with the format and limits of {@link LibSvmReader} (1-based,
 * strictly increasing indices stored 0-based; finite values in {@link TextNumbers}' spelling; a
 * {@code #} comment to the end of the line; a blank or comment-only line has no row). The label is
 * checked to be a number; whether the labels together are binary or classes is the caller's ({@link
 * LabelRule}). Keeps its scratch arrays from line to line: a row costs no allocation.
 */
public final class LibSvmLine implements TextFeed.LineParser {
  /** The format's name in messages. */
  public static final String FORMAT = "LIBSVM";

  private static final int MAX_TOKEN_IN_MESSAGE = 40;

  private final LibSvmReader.Limits limits;
  private byte[] buf;
  private int[] idx = new int[64];
  private double[] val = new double[64];
  private int n;
  private double label;
  private int labelStart;
  private int labelEnd;

  /** A parser of lines within {@code limits}. */
  public LibSvmLine(LibSvmReader.Limits limits) {
    if (limits == null) {
      throw new IllegalArgumentException("limits must not be null (Limits.NONE for none)");
    }
    this.limits = limits;
  }

  @Override
  public void parse(byte[] b, int s, int e, RowBlock block) throws TextFeed.LineProblem {
    if (read(b, s, e)) {
      block.add(label, block.size(), idx, val, n);
    }
  }

  /**
   * Parses the line {@code b[s..e)}: false for a line without an example, else its row is in {@link
   * #label()}, {@link #indices()}, {@link #values()} and {@link #count()}.
   *
   * @throws TextFeed.LineProblem if the line is malformed or beyond a limit
   */
  public boolean read(byte[] b, int s, int e) throws TextFeed.LineProblem {
    buf = b;
    n = 0;
    final int lineEnd = e;
    for (int i = s; i < e; i++) {
      if (b[i] == '#') {
        e = i;
        break;
      }
    }
    int p = s;
    while (p < e && isSpace(b[p])) {
      p++;
    }
    if (p == e) {
      return false;
    }
    int ts = p;
    while (p < e && !isSpace(b[p])) {
      p++;
    }
    labelStart = ts;
    labelEnd = p;
    label = TextNumbers.parse(b, ts, p);
    if (Double.isNaN(label)) {
      throw new TextFeed.LineProblem("bad label '" + text(ts, p) + "': not a number");
    }
    int prev = 0;
    while (true) {
      while (p < e && isSpace(b[p])) {
        p++;
      }
      if (p == e) {
        break;
      }
      ts = p;
      int colon = -1;
      while (p < e && !isSpace(b[p])) {
        if (b[p] == ':' && colon < 0) {
          colon = p;
        }
        p++;
      }
      if (colon < 0) {
        throw new TextFeed.LineProblem(
            "'" + text(ts, p) + "' has no ':' (features are index:value)");
      }
      int index = parseIndex(ts, colon, lineEnd);
      if (index <= prev) {
        throw new TextFeed.LineProblem(
            "index " + index + " after " + prev + ": indices must be strictly increasing");
      }
      if (colon + 1 == p) {
        throw new TextFeed.LineProblem("index " + index + " has no value after ':'");
      }
      double v = TextNumbers.parse(b, colon + 1, p);
      if (Double.isNaN(v)) {
        throw new TextFeed.LineProblem(
            "value '" + text(colon + 1, p) + "' of index " + index + " is not a number");
      }
      if (!Double.isFinite(v)) {
        throw new TextFeed.LineProblem(
            "value '" + text(colon + 1, p) + "' of index " + index + " is not a finite number");
      }
      if (Math.abs(v) > limits.maxMagnitude()) {
        throw new TextFeed.LineProblem(
            "value "
                + text(colon + 1, p)
                + " of feature index "
                + index
                + " exceeds "
                + limits.maxMagnitude()
                + limits.magnitudeRule());
      }
      if (index > limits.maxDimension()) {
        throw new TextFeed.LineProblem(
            "feature index "
                + index
                + " exceeds "
                + limits.maxDimension()
                + limits.dimensionRule());
      }
      if (n == idx.length) {
        idx = Arrays.copyOf(idx, n * 2);
        val = Arrays.copyOf(val, n * 2);
      }
      idx[n] = index - 1;
      val[n] = v;
      n++;
      prev = index;
    }
    return true;
  }

  /** The label of the last row read. */
  public double label() {
    return label;
  }

  /** Where the label's text starts in the last line read (for messages). */
  public int labelStart() {
    return labelStart;
  }

  /** Where the label's text ends in the last line read. */
  public int labelEnd() {
    return labelEnd;
  }

  /** The entries of the last row read. */
  public int count() {
    return n;
  }

  /** The 0-based indices of the last row read (the first {@link #count()}). */
  public int[] indices() {
    return idx;
  }

  /** The values of the last row read (the first {@link #count()}). */
  public double[] values() {
    return val;
  }

  private static boolean isSpace(byte c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0x0b;
  }

  private int parseIndex(int s, int e, int lineEnd) throws TextFeed.LineProblem {
    if (s == e) {
      throw new TextFeed.LineProblem(
          "missing index before ':' in '" + text(s, tokenEnd(s, lineEnd)) + "'");
    }
    boolean negative = buf[s] == '-';
    int p = negative ? s + 1 : s;
    if (p == e) {
      throw new TextFeed.LineProblem("index '" + text(s, e) + "' is not an integer");
    }
    long v = 0;
    for (int i = p; i < e; i++) {
      int c = buf[i] - '0';
      if (c < 0 || c > 9) {
        throw new TextFeed.LineProblem("index '" + text(s, e) + "' is not an integer");
      }
      if (v <= Integer.MAX_VALUE) {
        v = v * 10 + c;
      }
    }
    if (negative || v < 1) {
      throw new TextFeed.LineProblem("index " + text(s, e) + " < 1: indices are 1-based");
    }
    if (v > Integer.MAX_VALUE) {
      throw new TextFeed.LineProblem(
          "index " + text(s, e) + " is too large (at most " + Integer.MAX_VALUE + ")");
    }
    return (int) v;
  }

  private int tokenEnd(int s, int lineEnd) {
    int p = s;
    while (p < lineEnd && !isSpace(buf[p])) {
      p++;
    }
    return p;
  }

  private String text(int s, int e) {
    if (e - s > MAX_TOKEN_IN_MESSAGE) {
      return new String(buf, s, MAX_TOKEN_IN_MESSAGE, StandardCharsets.ISO_8859_1) + "...";
    }
    return new String(buf, s, e - s, StandardCharsets.ISO_8859_1);
  }
}
