package org.onlinekernels.experiments;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart written as SVG text: several named series of (x, y) points, linear or log10 axes,
 * a legend. Just enough for the experiment plots, with no dependency: the library ships no
 * plotting code beyond this one class, and its output is deterministic text that diffs well.
 * Points that a log axis cannot show (non-positive) or that are not finite are skipped.
 */
public final class SvgPlot {
  private static final String[] COLORS = {
      "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22",
      "#000000"};
  private static final int W = 760;
  private static final int H = 460;
  private static final int L = 70;
  private static final int R = 230;
  private static final int T = 40;
  private static final int B = 50;

  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final boolean logX;
  private final boolean logY;
  private final List<String> names = new ArrayList<>();
  private final List<double[][]> series = new ArrayList<>();
  private final List<Boolean> dashed = new ArrayList<>();

  /** An empty chart. */
  public SvgPlot(String title, String xLabel, String yLabel, boolean logX, boolean logY) {
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
    this.logX = logX;
    this.logY = logY;
  }

  /** Adds a solid series. */
  public SvgPlot line(String name, double[] x, double[] y) {
    return add(name, x, y, false);
  }

  /** Adds a dashed series (reference lines). */
  public SvgPlot dashed(String name, double[] x, double[] y) {
    return add(name, x, y, true);
  }

  private SvgPlot add(String name, double[] x, double[] y, boolean dash) {
    names.add(name);
    series.add(new double[][] {x.clone(), y.clone()});
    dashed.add(dash);
    return this;
  }

  private boolean ok(double v, boolean log) {
    return Double.isFinite(v) && (!log || v > 0);
  }

  private static double tr(double v, boolean log) {
    return log ? Math.log10(v) : v;
  }

  /** The chart as a complete SVG document. */
  public String svg() {
    double x0 = Double.POSITIVE_INFINITY;
    double x1 = Double.NEGATIVE_INFINITY;
    double y0 = Double.POSITIVE_INFINITY;
    double y1 = Double.NEGATIVE_INFINITY;
    for (double[][] s : series) {
      for (int i = 0; i < s[0].length; i++) {
        if (ok(s[0][i], logX) && ok(s[1][i], logY)) {
          x0 = Math.min(x0, tr(s[0][i], logX));
          x1 = Math.max(x1, tr(s[0][i], logX));
          y0 = Math.min(y0, tr(s[1][i], logY));
          y1 = Math.max(y1, tr(s[1][i], logY));
        }
      }
    }
    if (!(x1 > x0)) {
      x1 = x0 + 1;
    }
    if (!(y1 > y0)) {
      y1 = y0 + 1;
    }
    double pad = (y1 - y0) * 0.04;
    y0 -= pad;
    y1 += pad;
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
            + " font-family=\"sans-serif\" font-size=\"12\">%n", W, H, W, H));
    sb.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", W, H));
    sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\">%s</text>%n", L, esc(title)));
    int pw = W - L - R;
    int ph = H - T - B;
    sb.append(String.format(Locale.ROOT,
        "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>%n", L, T, pw, ph));
    // Ticks: at integer powers of ten on log axes, at 5 even steps otherwise.
    for (int axis = 0; axis < 2; axis++) {
      boolean log = axis == 0 ? logX : logY;
      double a = axis == 0 ? x0 : y0;
      double b = axis == 0 ? x1 : y1;
      List<Double> ticks = new ArrayList<>();
      if (log && b - a >= 1) {
        for (double e = Math.ceil(a); e <= b; e++) {
          ticks.add(e);
        }
      } else {
        for (int i = 0; i <= 5; i++) {
          ticks.add(a + (b - a) * i / 5);
        }
      }
      for (double v : ticks) {
        String label = log ? fmt(Math.pow(10, v)) : fmt(v);
        if (axis == 0) {
          double px = L + (v - a) / (b - a) * pw;
          sb.append(String.format(Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                  + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
              px, T, px, T + ph, px, T + ph + 16, esc(label)));
        } else {
          double py = T + ph - (v - a) / (b - a) * ph;
          sb.append(String.format(Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
              L, py, L + pw, py, L - 4, py + 4, esc(label)));
        }
      }
    }
    sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
        L + pw / 2, H - 12, esc(xLabel + (logX ? " (log scale)" : ""))));
    sb.append(String.format(Locale.ROOT,
        "<text x=\"16\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 16 %d)\">%s</text>%n",
        T + ph / 2, T + ph / 2, esc(yLabel + (logY ? " (log scale)" : ""))));
    for (int s = 0; s < series.size(); s++) {
      String color = COLORS[s % COLORS.length];
      double[][] p = series.get(s);
      StringBuilder pts = new StringBuilder();
      for (int i = 0; i < p[0].length; i++) {
        if (ok(p[0][i], logX) && ok(p[1][i], logY)) {
          double px = L + (tr(p[0][i], logX) - x0) / (x1 - x0) * pw;
          double py = T + ph - (tr(p[1][i], logY) - y0) / (y1 - y0) * ph;
          pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
        }
      }
      sb.append(String.format(Locale.ROOT,
          "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"%s points=\"%s\"/>%n", color,
          dashed.get(s) ? " stroke-dasharray=\"6,4\"" : "", pts.toString().trim()));
      int ly = T + 10 + s * 18;
      sb.append(String.format(Locale.ROOT,
          "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>"
              + "<text x=\"%d\" y=\"%d\">%s</text>%n",
          L + pw + 10, ly, L + pw + 34, ly, color, dashed.get(s) ? " stroke-dasharray=\"6,4\"" : "",
          L + pw + 40, ly + 4, esc(names.get(s))));
    }
    return sb.append("</svg>\n").toString();
  }

  private static String fmt(double v) {
    double a = Math.abs(v);
    if (a != 0 && (a >= 1e5 || a < 1e-3)) {
      return String.format(Locale.ROOT, "%.0e", v);
    }
    return String.format(Locale.ROOT, a >= 100 || v == Math.rint(v) ? "%.0f" : a >= 1 ? "%.2f" : "%.3f", v);
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
