package org.onlinekernels.io;

import java.nio.charset.StandardCharsets;

/**
 * The labels a data file may hold, checked line by line so that an error names the line: all {@code
 * +1/-1} (binary; any spelling that parses to exactly 1 or -1), or all class numbers {@code 0..K-1}
 * (multiclass). A fraction, a negative other than -1, or {@code -1} together with a class number 0
 * or &ge; 2 is refused. Shared by the LIBSVM and the Vowpal Wabbit readers.
 */
public final class LabelRule {
  private long firstMinusOneLine;
  private long firstClassLine;
  private double firstClassLabel;

  /** A rule for one file. */
  public LabelRule() {}

  /**
   * {@link #problem(double, String, long)} with the label spelled {@code b[s..e)}: the text is made
   * only for a message.
   */
  public String problem(double y, byte[] b, int s, int e, long line) {
    return check(y, null, b, s, e, line);
  }

  /** {@link #problem(double, String, long)} with the label spelled as the number it is. */
  public String problem(double y, long line) {
    return check(y, null, null, 0, 0, line);
  }

  /**
   * What is wrong with label {@code y} (spelled {@code text}) on line {@code line} given the labels
   * before it, or {@code null} if it is fine.
   */
  public String problem(double y, String text, long line) {
    return check(y, text, null, 0, 0, line);
  }

  /** The rule; the label's spelling is {@code text}, else {@code b[s..e)}, else its number. */
  private String check(double y, String text, byte[] b, int s, int e, long line) {
    if (y == 1.0) {
      return null;
    }
    if (y == -1.0) {
      if (firstClassLine > 0) {
        return "label -1 but line "
            + firstClassLine
            + " has class number "
            + format(firstClassLabel)
            + ": labels must be all +1/-1 (binary) or all class numbers 0..K-1";
      }
      if (firstMinusOneLine == 0) {
        firstMinusOneLine = line;
      }
      return null;
    }
    if (!(y >= 0) || y != Math.rint(y)) {
      return "bad label '"
          + spelling(y, text, b, s, e)
          + "': must be +1/-1 or a class number 0..K-1";
    }
    if (y > Integer.MAX_VALUE - 1) {
      return "bad label '" + spelling(y, text, b, s, e) + "': class number too large";
    }
    if (firstMinusOneLine > 0) {
      return "class number "
          + format(y)
          + " but line "
          + firstMinusOneLine
          + " has label -1: labels must be all +1/-1 (binary) or all class numbers 0..K-1";
    }
    if (firstClassLine == 0) {
      firstClassLine = line;
      firstClassLabel = y;
    }
    return null;
  }

  private static String spelling(double y, String text, byte[] b, int s, int e) {
    if (text != null) {
      return text;
    }
    if (b == null) {
      return format(y);
    }
    return e - s > 40
        ? new String(b, s, 40, StandardCharsets.ISO_8859_1) + "..."
        : new String(b, s, e - s, StandardCharsets.ISO_8859_1);
  }

  private static String format(double y) {
    return y == Math.rint(y) && Math.abs(y) < 1e15 ? Long.toString((long) y) : Double.toString(y);
  }
}
