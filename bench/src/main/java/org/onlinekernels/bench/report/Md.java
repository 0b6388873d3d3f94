package org.onlinekernels.bench.report;

/** Markdown table rows for the report writers. */
public final class Md {
  private Md() {}

  /** Appends {@code | cell | cell | ... |} and a newline; each cell as {@code String.valueOf}. */
  public static void row(StringBuilder md, Object... cells) {
    md.append('|');
    for (Object c : cells) md.append(' ').append(c).append(" |");
    md.append('\n');
  }
}
