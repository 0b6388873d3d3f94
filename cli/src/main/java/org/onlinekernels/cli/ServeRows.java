package org.onlinekernels.cli;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmFormatException;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.trainer.Datasets;

/**
 * One served line as a one-row data set, read by the same readers {@code train} and {@code predict}
 * use (LIBSVM, or Vowpal Wabbit text with the model's hashing and namespaces), within the same
 * limits, then with the model's label map and row normalization applied. One per connection (the VW
 * row builder keeps scratch arrays).
 */
final class ServeRows {
  /** A line that is not an example of the model's format: the problem, without the line. */
  static final class BadLine extends Exception {
    private static final long serialVersionUID = 1L;

    BadLine(String problem) {
      super(problem);
    }
  }

  private final InputFormat format;
  private final boolean vw;
  private final int bits;
  private final VwRow row;
  private final LibSvmReader.Limits limits;
  private final LabelMap labels;
  private final boolean normalize;
  private final int classes;

  /**
   * Rows of {@code format} ({@code vw} with {@code bits} hash bits, else LIBSVM) within {@code
   * limits}.
   *
   * @param labels the map to apply (labels matter to training only), or null for none
   * @param classes the model's number of classes K: a label is a class number 0..K-1 (even 1 alone,
   *     which a one-row data set would read as binary +1); 0 for a binary model or no labels
   */
  ServeRows(
      InputFormat format,
      boolean vw,
      int bits,
      LibSvmReader.Limits limits,
      LabelMap labels,
      boolean normalize,
      int classes) {
    this.format = format;
    this.vw = vw;
    this.bits = bits;
    this.row = vw ? newRow() : null;
    this.limits = limits;
    this.labels = labels;
    this.normalize = normalize;
    this.classes = classes;
  }

  private VwRow newRow() {
    return new VwRow(bits, format.signed(), format.namespaces(), null);
  }

  /** The longest line accepted, in bytes. */
  int maxLineBytes() {
    return limits.maxLineBytes();
  }

  /** Whether the lines are Vowpal Wabbit text. */
  boolean vw() {
    return vw;
  }

  /** The format's name, for messages. */
  String formatName() {
    return vw ? "Vowpal Wabbit text" : "LIBSVM";
  }

  /**
   * The example on {@code b[s..e)}.
   *
   * @throws BadLine if the line is blank or not one example of the format, or its label is not one
   *     of the model's
   */
  SparseDataset parse(byte[] b, int s, int e) throws BadLine {
    SparseDataset one;
    try {
      ByteArrayInputStream in = new ByteArrayInputStream(b, s, e - s);
      // A long line gets a row builder of its own, dropped after it: the connection's builder
      // keeps its arrays from row to row, and would keep a long row's for the connection's life.
      one =
          vw
              ? VwReader.read(
                  in, "line", bits, e - s > ServeMemory.SHORT_LINE ? newRow() : row, limits)
              : LibSvmReader.read(in, "line", 0, limits);
    } catch (VwReader.FormatException ex) {
      throw new BadLine(ex.problem());
    } catch (LibSvmFormatException ex) {
      throw new BadLine(ex.problem());
    } catch (IOException ex) {
      throw new BadLine(ex.getMessage()); // an in-memory stream: only its content can be wrong
    }
    if (one.size() != 1) {
      throw new BadLine("no example (a blank or comment line); one example per line is expected");
    }
    if (labels != null) {
      try {
        one = labels.apply(one, "the line");
      } catch (Main.Failure ex) {
        throw new BadLine(ex.getMessage().replace("the line: example 1 has", "the line has"));
      }
    }
    if (classes > 0) {
      double y = one.label(0);
      if (!(y >= 0 && y < classes && y == Math.rint(y))) {
        throw new BadLine(
            "label "
                + (y == Math.rint(y) && Math.abs(y) < 1e15 ? Long.toString((long) y) : y)
                + " is not a class number 0.."
                + (classes - 1)
                + " of the model");
      }
      one = one.withClasses(new double[] {y}, classes);
    }
    return normalize ? Datasets.normalizeRows(one) : one;
  }
}
