package org.onlinekernels.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.data.SparseDataset;

/**
 * How a file's labels become the trainer's: {@code -1/+1} (binary, one output) or class numbers
 * {@code 0..K-1} (K outputs, one-vs-rest).
 *
 * <ul>
 *   <li>{@code --labels NEG,POS} (two values): binary, {@code NEG -> -1}, {@code POS -> +1};
 *   <li>{@code --labels C0,C1,...} (three or more): class {@code Ci -> i};
 *   <li>{@code --labels auto} (the default): {@code +1/-1} as they are; labels all in {@code {0,1}}
 *       or all in {@code {1,2}} are binary (the smaller is {@code -1}), so a binary file coded 0/1
 *       or 1/2 is never trained as two one-vs-rest classes; other class numbers stay classes.
 * </ul>
 *
 * A label outside an explicit list is an error naming the file's row.
 */
final class LabelMap {
  private final List<Double> from;
  private final boolean binary;
  private final String description;

  /** {@link #from} unboxed, for {@link #map}. */
  private final long[] fromBits;

  private LabelMap(List<Double> from, boolean binary, String description) {
    this.from = from;
    this.fromBits =
        from == null ? null : from.stream().mapToLong(Double::doubleToLongBits).toArray();
    this.binary = binary;
    this.description = description;
  }

  /** The labels as they are. */
  static final LabelMap IDENTITY = new LabelMap(null, false, null);

  /**
   * Parses the value of {@code --labels}; {@code null} or {@code auto} gives {@code null} (decide
   * from the data).
   */
  static LabelMap parse(String option) throws UsageException {
    if (option == null || option.equals("auto")) {
      return null;
    }
    String[] parts = option.split(",", -1);
    if (parts.length < 2) {
      throw new UsageException(
          "--labels needs 'auto' or at least two comma-separated labels, got '" + option + "'");
    }
    List<Double> values = new ArrayList<>();
    for (String p : parts) {
      double v;
      try {
        v = Double.parseDouble(p.trim());
      } catch (NumberFormatException e) {
        throw new UsageException("--labels: '" + p + "' is not a number (in '" + option + "')");
      }
      if (!Double.isFinite(v)) {
        throw new UsageException("--labels: '" + p + "' is not a finite number");
      }
      if (values.contains(v)) {
        throw new UsageException("--labels: label " + p.trim() + " given twice");
      }
      values.add(v);
    }
    boolean bin = values.size() == 2;
    String desc =
        bin
            ? "binary, "
                + fmt(values.get(0))
                + " -> -1, "
                + fmt(values.get(1))
                + " -> +1 (--labels)"
            : values.size()
                + " classes, "
                + fmt(values.get(0))
                + " -> 0 ... "
                + fmt(values.get(values.size() - 1))
                + " -> "
                + (values.size() - 1)
                + " (--labels)";
    return new LabelMap(values, bin, desc);
  }

  /**
   * The automatic rule for {@code data}: {@link #IDENTITY} for +1/-1 or general class numbers, a
   * binary map for labels all in {0,1} or all in {1,2}.
   *
   * @param allowBinaryCodes whether 0/1 and 1/2 may become binary (false when a multiclass model is
   *     applied)
   */
  static LabelMap auto(SparseDataset data, boolean allowBinaryCodes) {
    if (data.isBinary() || !allowBinaryCodes) {
      return IDENTITY;
    }
    return auto(data::label, data.size());
  }

  /**
   * The automatic rule for labels {@code label(0..n)}, not all {@code +1/-1}, that may become
   * binary (see {@link #auto(SparseDataset, boolean)}).
   */
  static LabelMap auto(java.util.function.IntToDoubleFunction label, int n) {
    boolean only01 = true;
    boolean only12 = true;
    for (int r = 0; r < n; r++) {
      double y = label.applyAsDouble(r);
      only01 &= y == 0 || y == 1;
      only12 &= y == 1 || y == 2;
    }
    if (only01) {
      return new LabelMap(
          List.of(0.0, 1.0), true, "binary, 0 -> -1, 1 -> +1 (labels 0/1; --labels overrides)");
    }
    if (only12) {
      return new LabelMap(
          List.of(1.0, 2.0), true, "binary, 1 -> -1, 2 -> +1 (labels 1/2; --labels overrides)");
    }
    return IDENTITY;
  }

  /** One line for the report, or {@code null} for labels used as they are. */
  String description() {
    return description;
  }

  /** Whether this map makes binary labels. */
  boolean binary() {
    return binary;
  }

  /**
   * Label {@code y} mapped: {@code -1/+1} for a binary map, the class number for a list of classes,
   * {@code y} itself for {@link #IDENTITY}; {@code NaN} when {@code y} is not in the map's list.
   */
  double map(double y) {
    if (from == null) {
      return y;
    }
    long bits = Double.doubleToLongBits(y);
    for (int i = 0; i < fromBits.length; i++) {
      if (fromBits[i] == bits) {
        return binary ? (i == 0 ? -1.0 : 1.0) : i;
      }
    }
    return Double.NaN;
  }

  /** Whether the map has a list of labels (else labels pass as they are). */
  boolean listed() {
    return from != null;
  }

  /** The number of labels listed (0 for {@link #IDENTITY}). */
  int size() {
    return from == null ? 0 : from.size();
  }

  /** {@code data} with its labels mapped; the file name is for the error message. */
  SparseDataset apply(SparseDataset data, String file) throws Main.Failure {
    if (from == null) {
      return data;
    }
    Map<Double, Double> to = new HashMap<>();
    for (int i = 0; i < from.size(); i++) {
      to.put(from.get(i), binary ? (i == 0 ? -1.0 : 1.0) : i);
    }
    double[] y = new double[data.size()];
    for (int r = 0; r < y.length; r++) {
      Double m = to.get(data.label(r));
      if (m == null) {
        throw new Main.Failure(
            file
                + ": example "
                + (r + 1)
                + " has label "
                + fmt(data.label(r))
                + ", which is not one of the labels "
                + String.join(",", from.stream().map(LabelMap::fmt).toList()));
      }
      y[r] = m;
    }
    return binary ? data.withLabels(y) : data.withClasses(y, from.size());
  }

  /**
   * The map as a state file records it: "" for labels used as they are, else the labels in order,
   * comma-separated.
   */
  String recorded() {
    return from == null ? "" : String.join(",", from.stream().map(LabelMap::fmt).toList());
  }

  /** The map a state file recorded ({@link #recorded()}). */
  static LabelMap ofRecorded(String recorded) throws UsageException {
    if (recorded.isEmpty()) {
      return IDENTITY;
    }
    LabelMap m = parse(recorded);
    return new LabelMap(
        m.from, m.binary, m.description.replace("(--labels)", "(from the state file)"));
  }

  static String fmt(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15
        ? Long.toString((long) v)
        : String.format(Locale.ROOT, "%s", v);
  }
}
