package org.onlinekernels.io;

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
   * What is wrong with label {@code y} (spelled {@code text}) on line {@code line} given the labels
   * before it, or {@code null} if it is fine.
   */
  public String problem(double y, String text, long line) {
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
      return "bad label '" + text + "': must be +1/-1 or a class number 0..K-1";
    }
    if (y > Integer.MAX_VALUE - 1) {
      return "bad label '" + text + "': class number too large";
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

  private static String format(double y) {
    return y == Math.rint(y) && Math.abs(y) < 1e15 ? Long.toString((long) y) : Double.toString(y);
  }
}
