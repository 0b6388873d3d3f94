package org.onlinekernels.experiments;

import java.util.ArrayList;
import java.util.List;

/**
 * A table of text cells rendered as aligned plain text (for a terminal) or as Markdown (for the
 * docs), and as CSV (for plotting elsewhere). The first {@code textColumns} columns are
 * left-aligned, the rest (numbers) right-aligned.
 */
public final class Table {
  private final String[] head;
  private final int textColumns;
  private final List<String[]> rows = new ArrayList<>();

  /** A table with these column names; the first {@code textColumns} hold text. */
  public Table(int textColumns, String... head) {
    this.head = head.clone();
    this.textColumns = textColumns;
  }

  /** Appends a row (as many cells as columns). */
  public Table add(String... cells) {
    if (cells.length != head.length) {
      throw new IllegalArgumentException(
          "row has " + cells.length + " cells, table has " + head.length + " columns");
    }
    rows.add(cells.clone());
    return this;
  }

  private int[] widths() {
    int[] w = new int[head.length];
    for (int c = 0; c < head.length; c++) {
      w[c] = head[c].length();
      for (String[] r : rows) {
        w[c] = Math.max(w[c], r[c].length());
      }
    }
    return w;
  }

  private String line(String[] cells, int[] w, String sep, String start, String end) {
    StringBuilder sb = new StringBuilder(start);
    for (int c = 0; c < cells.length; c++) {
      if (c > 0) {
        sb.append(sep);
      }
      String pad = " ".repeat(w[c] - cells[c].length());
      sb.append(c < textColumns ? cells[c] + pad : pad + cells[c]);
    }
    return sb.append(end).toString().stripTrailing() + "\n";
  }

  /** Aligned plain text: header, then rows, columns two blanks apart. */
  public String text() {
    int[] w = widths();
    StringBuilder sb = new StringBuilder(line(head, w, "  ", "", ""));
    for (String[] r : rows) {
      sb.append(line(r, w, "  ", "", ""));
    }
    return sb.toString();
  }

  /** A GitHub-flavoured Markdown table. */
  public String markdown() {
    int[] w = widths();
    StringBuilder sb = new StringBuilder(line(head, w, " | ", "| ", " |"));
    String[] rule = new String[head.length];
    for (int c = 0; c < head.length; c++) {
      rule[c] =
          c < textColumns ? "-".repeat(Math.max(3, w[c])) : "-".repeat(Math.max(3, w[c]) - 1) + ":";
    }
    sb.append(line(rule, w, " | ", "| ", " |"));
    for (String[] r : rows) {
      sb.append(line(r, w, " | ", "| ", " |"));
    }
    return sb.toString();
  }

  /** CSV with a header line; cells containing a comma or quote are quoted. */
  public String csv() {
    StringBuilder sb = new StringBuilder();
    List<String[]> all = new ArrayList<>();
    all.add(head);
    all.addAll(rows);
    for (String[] r : all) {
      for (int c = 0; c < r.length; c++) {
        if (c > 0) {
          sb.append(',');
        }
        String v = r[c];
        sb.append(v.contains(",") || v.contains("\"") ? "\"" + v.replace("\"", "\"\"") + "\"" : v);
      }
      sb.append('\n');
    }
    return sb.toString();
  }
}
