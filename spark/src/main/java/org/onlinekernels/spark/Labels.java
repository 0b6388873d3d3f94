package org.onlinekernels.spark;

import java.io.Serializable;
import java.util.Collection;

/**
 * How labels become outputs, as the command line's {@code train} reads them: labels all in {@code
 * {-1, +1}} or all in {@code {0, 1}} are binary (one output; {@code 0} and {@code -1} are the
 * negative class), otherwise classes {@code 0..K-1} (K outputs, one-vs-rest).
 *
 * @param binary one output
 * @param classes {@code K}: 2 when binary
 */
public record Labels(boolean binary, int classes) implements Serializable {
  /** Validates. */
  public Labels {
    if (classes < 2 || (binary && classes != 2)) {
      throw new IllegalArgumentException("need 2 classes (binary) or more, got " + classes);
    }
  }

  /** Binary labels ({@code 2}) or {@code K >= 3} classes. */
  public static Labels of(int numClasses) {
    return new Labels(numClasses == 2, numClasses);
  }

  /** The scheme of the labels seen in a data set. */
  public static Labels seen(Collection<Double> labels) {
    if (labels.isEmpty()) {
      throw new IllegalArgumentException("the training data has no rows");
    }
    if (labels.stream().allMatch(y -> y == 1 || y == -1)
        || labels.stream().allMatch(y -> y == 0 || y == 1)) {
      return new Labels(true, 2);
    }
    double max = 0;
    for (double y : labels) {
      check(y, Integer.MAX_VALUE);
      max = Math.max(max, y);
    }
    return new Labels(false, Math.max(2, (int) max + 1));
  }

  private static void check(double y, int classes) {
    if (!(y >= 0 && y == Math.rint(y) && y < classes)) {
      throw new IllegalArgumentException(
          "labels must be +1/-1 or 0/1 (binary) or 0, 1, ..., K-1 (K classes"
              + (classes == Integer.MAX_VALUE ? "" : ", K = " + classes)
              + "), found "
              + y);
    }
  }

  /** The trainer's label of {@code y}: {@code +1/-1} for binary, the class otherwise. */
  public double target(double y) {
    if (binary) {
      if (y != 1 && y != 0 && y != -1) {
        throw new IllegalArgumentException("binary labels must be +1/-1 or 0/1, found " + y);
      }
      return y > 0 ? 1 : -1;
    }
    check(y, classes);
    return y;
  }

  /** Number of outputs: 1 for binary, else {@code K}. */
  public int outputs() {
    return binary ? 1 : classes;
  }
}
