package org.onlinekernels.bench.report;

import java.awt.Color;
import java.util.Locale;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * What the report writers share: Markdown table rows, the spellings of their figures (root locale:
 * a report reads the same on every machine) and the charts' look.
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

  /**
   * A chart 900 pixels wide, x axis logarithmic, markers of 7 pixels, error bars in their series'
   * colour, on white.
   */
  public static XYChart chart(
      String title, String x, String y, int height, Styler.LegendPosition legend) {
    XYChart c =
        new XYChartBuilder()
            .width(900)
            .height(height)
            .title(title)
            .xAxisTitle(x)
            .yAxisTitle(y)
            .build();
    c.getStyler().setXAxisLogarithmic(true);
    c.getStyler().setLegendPosition(legend);
    c.getStyler().setMarkerSize(7);
    c.getStyler().setErrorBarsColorSeriesColor(true);
    c.getStyler().setChartBackgroundColor(Color.WHITE);
    return c;
  }
}
