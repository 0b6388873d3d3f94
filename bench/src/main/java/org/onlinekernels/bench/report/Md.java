package org.onlinekernels.bench.report;

import java.util.Locale;

/**
 * Markdown table rows for the report writers, and the spellings of their figures (root locale: a
 * report reads the same on every machine).
 */
public final class Md {
  private Md() {}

  /** Appends {@code | cell | cell | ... |} and a newline; each cell as {@code String.valueOf}. */
  public static void row(StringBuilder md, Object... cells) {
    md.append('|');
    for (Object c : cells) md.append(' ').append(c).append(" |");
    md.append('\n');
  }

  /** One decimal. */
  public static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  /** Two decimals. */
  public static String f2(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  /** Three decimals; NaN (not measured) as a dash. */
  public static String f3(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.3f", v);
  }

  /** One decimal with its sign. */
  public static String signed(double v) {
    return String.format(Locale.ROOT, "%+.1f", v);
  }

  /** A share as a whole percentage. */
  public static String pct(double v) {
    return String.format(Locale.ROOT, "%.0f %%", 100 * v);
  }

  /** 1.23 M, 456.7 k. */
  public static String si(double v) {
    if (v >= 1e9) return String.format(Locale.ROOT, "%.2f G", v / 1e9);
    if (v >= 1e6) return String.format(Locale.ROOT, "%.2f M", v / 1e6);
    if (v >= 1e3) return String.format(Locale.ROOT, "%.1f k", v / 1e3);
    return String.format(Locale.ROOT, "%.0f", v);
  }

  /** Nanoseconds in ns, µs or ms. */
  public static String fs(double ns) {
    if (ns >= 1e6) return String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
    if (ns >= 1e3) return String.format(Locale.ROOT, "%.2f µs", ns / 1e3);
    return String.format(Locale.ROOT, "%.1f ns", ns);
  }
}
