package org.onlinekernels.cli;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.onlinekernels.data.RowBlock;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.io.TextFeed;
import org.onlinekernels.io.TextNumbers;

/**
 * One Vowpal Wabbit text line into a hashed row ({@link VwReader} describes the format), by hand
 * over its bytes: no string per token or per line, no boxing; the row is built in {@link VwRow}'s
 * reused arrays. A blank line has no row. The label is checked to be a finite number; whether the
 * labels together are binary or classes is the caller's ({@link org.onlinekernels.io.LabelRule}).
 * One instance per thread: it keeps the row being built.
 */
final class VwLine implements TextFeed.LineParser {
  /** The format's name in messages. */
  static final String FORMAT = "Vowpal Wabbit text";

  private static final int MAX_NAME_IN_MESSAGE = 40;

  private final int mask;
  private final VwRow row;
  private final LibSvmReader.Limits limits;
  private byte[] b;
  private double label;
  private int labelStart;
  private int labelEnd;
  private int nnz;

  /** Lines hashed into {@code 2^bits} weights, built by {@code row}, within {@code limits}. */
  VwLine(int bits, VwRow row, LibSvmReader.Limits limits) {
    this.mask = (1 << bits) - 1;
    this.row = row;
    this.limits = limits;
  }

  @Override
  public void parse(byte[] line, int s, int e, RowBlock block) throws TextFeed.LineProblem {
    if (read(line, s, e)) {
      block.add(label, block.size(), row.indices(), row.values(), nnz);
    }
  }

  /**
   * Parses the line {@code line[s..e)}: false for a blank line, else the row is {@link #label()}
   * and the first {@link #count()} entries of the row builder's {@link VwRow#indices()} and {@link
   * VwRow#values()}.
   *
   * @throws TextFeed.LineProblem if the line is malformed or beyond a limit
   */
  boolean read(byte[] line, int s, int e) throws TextFeed.LineProblem {
    b = line;
    int first = s;
    while (first < e && space(b[first])) {
      first++;
    }
    if (first == e) {
      return false;
    }
    int bar = find((byte) '|', s, e);
    if (bar < 0) {
      throw new TextFeed.LineProblem("no '|': a line is LABEL |NAMESPACE FEATURE ...");
    }
    header(s, bar);
    row.clear();
    for (int pos = bar; pos < e; ) {
      pos = namespace(pos + 1, e);
    }
    try {
      nnz = row.finish();
    } catch (IllegalArgumentException ex) {
      throw new TextFeed.LineProblem(ex.getMessage()); // a row beyond VwRow's limits
    }
    int[] idx = row.indices();
    double[] val = row.values();
    for (int k = 0; k < nnz; k++) {
      if (!Double.isFinite(val[k]) || Math.abs(val[k]) > limits.maxMagnitude()) {
        throw new TextFeed.LineProblem(
            "values of features hashed to index "
                + idx[k]
                + " sum to "
                + val[k]
                + (Double.isFinite(val[k])
                    ? ", which exceeds " + limits.maxMagnitude() + limits.magnitudeRule()
                    : ", which is not finite"));
      }
    }
    return true;
  }

  /** The label of the last row read. */
  double label() {
    return label;
  }

  /** Where the label's text starts in the last line read (for messages). */
  int labelStart() {
    return labelStart;
  }

  /** Where the label's text ends in the last line read. */
  int labelEnd() {
    return labelEnd;
  }

  /** The entries of the last row read. */
  int count() {
    return nnz;
  }

  private static boolean space(byte c) {
    return c <= ' ' && (c == ' ' || c == '\t' || c == '\f' || c == 0x0b);
  }

  /** Eight bytes of an array as one little-endian long. */
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  /**
   * The bytes of {@code w} (eight, little-endian) that may end or split a feature: at most {@code '
   * '} (the spaces among them), '|' and ':', as the high bit of each such byte. Exact at the lowest
   * set bit (a borrow reaches a higher byte only from a byte that is flagged itself); bytes above
   * it may be flagged wrongly, so only the lowest is used.
   */
  static long candidates(long w) {
    long bar = w ^ ('|' * ONES);
    long colon = w ^ (':' * ONES);
    return (((w - 0x21 * ONES) & ~w) | ((bar - ONES) & ~bar) | ((colon - ONES) & ~colon)) & HIGHS;
  }

  /** Whether {@code c} ends a name or a feature: a space, or the '|' of the next namespace. */
  private static boolean stop(byte c) {
    return c <= ' ' ? space(c) : c == '|';
  }

  private int find(byte c, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  /**
   * One namespace, from after its '|' to the next '|' or {@code e}; returns where it ends (that '|'
   * or {@code e}). The line is read once: the namespace's hash once, then each feature's hash
   * seeded by it (as VW's parser).
   */
  private int namespace(int from, int e) throws TextFeed.LineProblem {
    // A name right after '|' is the namespace; '| ' is the default namespace (seed 0).
    int p = from;
    while (p < e && !stop(b[p])) {
      p++;
    }
    int seed = 0;
    double scale = 1;
    int scaleFrom = -1;
    int scaleTo = -1;
    // VW's namespace letter: the name's first byte; a space for the default namespace.
    int letter = ' ';
    String ns = "";
    if (p > from) {
      int colon = find((byte) ':', from, p);
      int nameEnd = colon < 0 ? p : colon;
      if (colon >= 0) {
        scaleFrom = colon + 1;
        scaleTo = p;
        scale = number(colon + 1, p, "namespace scale");
      }
      seed = Murmur3.hash(b, from, nameEnd - from, 0);
      letter = nameEnd > from ? b[from] & 0xFF : ' ';
      ns = row.keepsNames() ? name(from, nameEnd) : "";
    }
    while (p < e) {
      while (p < e && space(b[p])) {
        p++;
      }
      if (p == e || b[p] == '|') {
        break;
      }
      int ts = p;
      int colon = -1;
      // The feature's end (a space, '|' or e) and its last ':', eight bytes at a time where the
      // array holds eight more: the first byte that may stop or split the token is found in a word,
      // then looked at alone.
      while (p < e) {
        int at;
        if (p + Long.BYTES <= b.length) {
          long w = (long) LONGS.get(b, p);
          long m = candidates(w);
          if (m == 0) {
            p += Long.BYTES;
            continue;
          }
          at = p + (Long.numberOfTrailingZeros(m) >>> 3);
          if (at >= e) {
            p = e;
            break;
          }
        } else {
          at = p;
        }
        byte c = b[at];
        if (stop(c)) {
          p = at;
          break;
        }
        colon = c == ':' ? at : colon;
        p = at + 1;
      }
      if (p > e) {
        p = e;
      }
      int nameEnd = colon < 0 ? p : colon;
      double v = colon < 0 ? 1 : value(colon + 1, p, ts, nameEnd);
      if (nameEnd == ts) {
        throw new TextFeed.LineProblem("a feature value without a feature name");
      }
      int h = Murmur3.hash(b, ts, nameEnd - ts, seed);
      double x = v * scale;
      if (!Double.isFinite(x) || Math.abs(x) > limits.maxMagnitude()) {
        throw new TextFeed.LineProblem(
            "value "
                + (colon < 0 ? "1" : text(colon + 1, p))
                + " of feature '"
                + text(ts, nameEnd)
                + "' (index "
                + (h & mask)
                + ")"
                + (scaleFrom < 0 ? "" : " times namespace scale " + text(scaleFrom, scaleTo))
                + (Double.isFinite(x)
                    ? " exceeds " + limits.maxMagnitude() + limits.magnitudeRule()
                    : " is not finite"));
      }
      row.add(letter, ns, row.keepsNames() ? name(ts, nameEnd) : null, h, x);
    }
    return p;
  }

  /** A feature's value {@code b[from..to)}; its name is {@code b[nameFrom..nameTo)}. */
  private double value(int from, int to, int nameFrom, int nameTo) throws TextFeed.LineProblem {
    double v = TextNumbers.parse(b, from, to);
    if (!Double.isFinite(v)) {
      throw new TextFeed.LineProblem(
          "value of feature '"
              + text(nameFrom, nameTo)
              + "' '"
              + text(from, to)
              + "' is not a finite number");
    }
    return v;
  }

  /** The label of the part before the first '|': LABEL [IMPORTANCE] ['TAG]. */
  private void header(int s, int bar) throws TextFeed.LineProblem {
    // A tag may touch the bar: "1 'tag|f". It carries no meaning for training.
    int quote = find((byte) '\'', s, bar);
    int e = quote < 0 ? bar : quote;
    int p = s;
    while (p < e && space(b[p])) {
      p++;
    }
    if (p == e) {
      throw new TextFeed.LineProblem(
          "no label before '|' (unlabelled examples cannot be trained or scored)");
    }
    labelStart = p;
    while (p < e && !space(b[p])) {
      p++;
    }
    labelEnd = p;
    while (p < e && space(b[p])) {
      p++;
    }
    int weightStart = p;
    while (p < e && !space(b[p])) {
      p++;
    }
    int weightEnd = p;
    while (p < e && space(b[p])) {
      p++;
    }
    if (p < e) {
      throw new TextFeed.LineProblem(
          "'" + text(s, bar).strip() + "' is not LABEL [IMPORTANCE] ['TAG]");
    }
    label = number(labelStart, labelEnd, "label");
    if (weightEnd > weightStart && number(weightStart, weightEnd, "importance weight") != 1) {
      throw new TextFeed.LineProblem(
          "importance weight "
              + text(weightStart, weightEnd)
              + " is not supported (every example counts once)");
    }
  }

  private double number(int from, int to, String what) throws TextFeed.LineProblem {
    double v = TextNumbers.parse(b, from, to);
    if (!Double.isFinite(v)) {
      throw new TextFeed.LineProblem(what + " '" + text(from, to) + "' is not a finite number");
    }
    return v;
  }

  /**
   * Bytes for a feature or namespace name of {@link VwRow.NameSink}: {@link VwReader#readableName}.
   */
  private String name(int from, int to) {
    return VwReader.readableName(b, from, to);
  }

  /** Bytes for a message: as UTF-8 (other bytes shown as U+FFFD), shortened. */
  private String text(int from, int to) {
    String t = new String(b, from, to - from, StandardCharsets.UTF_8);
    return t.length() > MAX_NAME_IN_MESSAGE ? t.substring(0, MAX_NAME_IN_MESSAGE) + "..." : t;
  }
}
