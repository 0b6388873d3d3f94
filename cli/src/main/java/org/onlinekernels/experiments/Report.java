package org.onlinekernels.experiments;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Writes an experiment's outputs into its directory: {@code README.md} (the command that made it,
 * the setup, the Markdown tables and links to the charts), CSV files and PNG charts.
 */
public final class Report {
  private final Path dir;
  private final StringBuilder md = new StringBuilder();

  /** A report into {@code dir} (created if needed), headed by {@code title} and the command. */
  public Report(Path dir, String title, String command) throws IOException {
    this.dir = dir;
    Files.createDirectories(dir);
    md.append("# ").append(title).append("\n\n");
    md.append("Made by (from the repository root):\n\n```\n").append(command).append("\n```\n\n");
    md.append(
        "Generated file; do not edit by hand. See docs/EXPERIMENTS.md for the discussion.\n\n");
  }

  /** Appends Markdown text. */
  public Report text(String s) {
    md.append(s).append("\n\n");
    return this;
  }

  /** Writes {@code name}.csv and appends the table as Markdown. */
  public Report table(String name, Table t) throws IOException {
    csvOnly(name, t);
    md.append(t.markdown()).append("\n(").append(name).append(".csv)\n\n");
    return this;
  }

  /** Writes {@code name}.csv only: a measurement that differs per run stays out of README.md. */
  public Report csvOnly(String name, Table t) throws IOException {
    Files.writeString(dir.resolve(name + ".csv"), t.csv(), StandardCharsets.UTF_8);
    return this;
  }

  /** Writes {@code name}.png and links it. */
  public Report plot(String name, LineChart p) throws IOException {
    p.writePng(dir.resolve(name + ".png"));
    md.append("![").append(name).append("](").append(name).append(".png)\n\n");
    return this;
  }

  /** Writes README.md. */
  public void finish() throws IOException {
    Files.writeString(dir.resolve("README.md"), md.toString(), StandardCharsets.UTF_8);
  }

  /** {@code %.4g}-style number for tables. */
  public static String g(double v) {
    if (!Double.isFinite(v)) {
      return Double.toString(v);
    }
    return String.format(
        Locale.ROOT, Math.abs(v) >= 1e5 || (v != 0 && Math.abs(v) < 1e-3) ? "%.3e" : "%.4f", v);
  }
}
