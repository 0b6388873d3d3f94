package org.onlinekernels.cli;

/**
 * Text from a file or an option made safe for a one-line message: control characters (CR, LF and
 * ESC among them) and unpaired surrogates shown as {@code \\uXXXX}, so a damaged value can neither
 * split the message nor hide what it holds. Every error line the command line prints passes through
 * it; escaping twice changes nothing (a backslash is not a control character).
 */
final class Visible {
  private Visible() {}

  /** {@code s} with every control character written as {@code \\uXXXX}; "null" for null. */
  static String of(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isISOControl(c) || Character.isSurrogate(c) && !validPair(s, i)) {
        b.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
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
