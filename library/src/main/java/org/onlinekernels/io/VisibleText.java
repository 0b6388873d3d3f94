package org.onlinekernels.io;

import java.util.Locale;

/**
 * Text from a file or an option made safe for a one-line message: control characters (CR, LF and
 * ESC among them) and unpaired surrogates shown as {@code \\uXXXX}, so a damaged value can neither
 * split the message nor hide what it holds. The library's model-file errors and every error line
 * the command line prints pass through it; escaping twice changes nothing (a backslash is not a
 * control character).
 */
public final class VisibleText {
  private VisibleText() {}

  /**
   * {@code s} with every control character and unpaired surrogate written as {@code \\uXXXX};
   * "null" for null.
   */
  public static String of(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isISOControl(c) || Character.isSurrogate(c) && !validPair(s, i)) {
        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  private static boolean validPair(String s, int i) {
    char c = s.charAt(i);
    return Character.isHighSurrogate(c)
        ? i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))
        : i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }
}
