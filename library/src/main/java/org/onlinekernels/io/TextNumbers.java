package org.onlinekernels.io;

import java.nio.charset.StandardCharsets;

/**
 * Numbers in the data formats' text: an optional sign, digits with an optional decimal point, an
 * optional exponent ({@code 1e-05}). Java-only spellings that {@link Double#parseDouble} would
 * accept ({@code NaN}, {@code Infinity}, {@code 1d}, hex) are not numbers here, so that a file
 * means the same to every reader. One parser for the LIBSVM and the Vowpal Wabbit readers.
 */
public final class TextNumbers {
  private TextNumbers() {}

  /**
   * The number in {@code b[from, to)}: {@code NaN} if the bytes are not one (the syntax has no
   * spelling of NaN), an infinity if it is beyond double's range. Plain integers of up to 15
   * digits, exact in a double, are converted without a string.
   */
  public static double parse(byte[] b, int from, int to) {
    int p = from;
    if (p < to && (b[p] == '+' || b[p] == '-')) {
      p++;
    }
    int digitsStart = p;
    long intVal = 0;
    while (p < to && b[p] >= '0' && b[p] <= '9') {
      intVal = intVal * 10 + (b[p] - '0');
      p++;
    }
    int intDigits = p - digitsStart;
    if (p == to) {
      if (intDigits == 0) {
        return Double.NaN;
      }
      if (intDigits <= 15) {
        double d = intVal;
        return b[from] == '-' ? -d : d;
      }
      return Double.parseDouble(new String(b, from, to - from, StandardCharsets.ISO_8859_1));
    }
    int fracDigits = 0;
    if (b[p] == '.') {
      p++;
      while (p < to && b[p] >= '0' && b[p] <= '9') {
        p++;
        fracDigits++;
      }
    }
    if (intDigits + fracDigits == 0) {
      return Double.NaN;
    }
    if (p < to && (b[p] == 'e' || b[p] == 'E')) {
      p++;
      if (p < to && (b[p] == '+' || b[p] == '-')) {
        p++;
      }
      int expStart = p;
      while (p < to && b[p] >= '0' && b[p] <= '9') {
        p++;
      }
      if (p == expStart) {
        return Double.NaN;
      }
    }
    if (p != to) {
      return Double.NaN;
    }
    return Double.parseDouble(new String(b, from, to - from, StandardCharsets.ISO_8859_1));
  }
}
