package org.onlinekernels.cli;

import java.util.List;
import java.util.Locale;

/** Plain-text table of progressive-validation results, aligned for a terminal. */
public final class ResultTable {
  private ResultTable() {}

  /**
   * One header line and one line per result; text columns left-aligned, numbers right-aligned,
   * fixed decimals in {@link Locale#ROOT} so the output does not depend on the machine's locale.
   */
  public static String format(List<ProgressiveValidation.Result> results) {
    String[] head = {"algorithm", "parameters", "mean loss", "error rate", "examples/s"};
    String[][] rows = new String[results.size()][];
    for (int i = 0; i < rows.length; i++) {
      ProgressiveValidation.Result r = results.get(i);
      double eps = r.examplesPerSecond();
      rows[i] = new String[] {
          r.name(),
          r.params(),
          String.format(Locale.ROOT, "%.6f", r.meanLoss()),
          String.format(Locale.ROOT, "%.4f", r.errorRate()),
          Double.isFinite(eps) ? String.format(Locale.ROOT, "%.0f", eps) : "-",
      };
    }
    int[] width = new int[head.length];
    for (int c = 0; c < head.length; c++) {
      width[c] = head[c].length();
      for (String[] row : rows) {
        width[c] = Math.max(width[c], row[c].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    appendLine(sb, head, width);
    for (String[] row : rows) {
      appendLine(sb, row, width);
    }
    return sb.toString();
  }

  private static void appendLine(StringBuilder sb, String[] cells, int[] width) {
    StringBuilder line = new StringBuilder();
    for (int c = 0; c < cells.length; c++) {
      if (c > 0) {
        line.append("  ");
      }
      String pad = " ".repeat(width[c] - cells[c].length());
      line.append(c < 2 ? cells[c] + pad : pad + cells[c]);
    }
    // No trailing blanks: the last text column may be padded when the numbers are absent.
    sb.append(line.toString().stripTrailing()).append('\n');
  }
}
