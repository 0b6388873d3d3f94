package org.onlinekernels.experiments;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A line chart of an experiment, drawn by XChart (the plotting library of the benchmark report)
 * into a PNG. Points a log axis cannot show (zero, negative, non-finite) are left out of the
 * drawing; every plotted number is also in the experiment's CSV and Markdown table.
 */
public final class LineChart {
  static {
    // Charts are drawn off screen, also on machines without a display.
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  private static final BasicStroke DASHED =
      new BasicStroke(
          1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);

  private final XYChart chart;
  private final boolean logX;
  private final boolean logY;

  /** An empty chart with the given title and axis titles, each axis linear or logarithmic. */
  public LineChart(String title, String xLabel, String yLabel, boolean logX, boolean logY) {
    this.chart =
        new XYChartBuilder()
            .width(900)
            .height(540)
            .title(title)
            .xAxisTitle(xLabel)
            .yAxisTitle(yLabel)
            .build();
    this.logX = logX;
    this.logY = logY;
    Styler s = chart.getStyler();
    chart.getStyler().setXAxisLogarithmic(logX);
    chart.getStyler().setYAxisLogarithmic(logY);
    s.setLegendPosition(Styler.LegendPosition.OutsideS);
    s.setChartBackgroundColor(Color.WHITE);
    s.setMarkerSize(5);
  }

  /** Adds a solid series with markers. */
  public LineChart line(String name, double[] x, double[] y) {
    add(name, x, y);
    return this;
  }

  /** Adds a dashed series without markers (reference curves such as {@code sqrt T}). */
  public LineChart dashed(String name, double[] x, double[] y) {
    XYSeries s = add(name, x, y);
    if (s != null) {
      s.setMarker(SeriesMarkers.NONE);
      s.setLineStyle(DASHED);
    }
    return this;
  }

  private XYSeries add(String name, double[] x, double[] y) {
    if (x.length != y.length) {
      throw new IllegalArgumentException(
          name + ": " + x.length + " x values but " + y.length + " y values");
    }
    List<Double> xs = new ArrayList<>();
    List<Double> ys = new ArrayList<>();
    for (int i = 0; i < x.length; i++) {
      if (drawable(x[i], logX) && drawable(y[i], logY)) {
        xs.add(x[i]);
        ys.add(y[i]);
      }
    }
    return xs.isEmpty() ? null : chart.addSeries(name, xs, ys);
  }

  private static boolean drawable(double v, boolean log) {
    return Double.isFinite(v) && (!log || v > 0);
  }

  /** Writes the chart as {@code file} (PNG; the name should end in {@code .png}). */
  public void writePng(Path file) throws IOException {
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
