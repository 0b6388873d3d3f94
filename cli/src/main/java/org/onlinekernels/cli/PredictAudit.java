package org.onlinekernels.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * {@code predict --audit}: per example its prediction, then every feature with its index, its
 * value, the sign its hash gives it ({@code +} or {@code -}; always {@code +} for LIBSVM data and
 * unsigned hashing), its weight and its contribution {@code sign * value * weight} (per output),
 * one tab-separated line each. For VW data the features are those of the line as read (plain and
 * crossed, by name, before colliding ones are summed); for LIBSVM data the stored entries, named by
 * their feature number (1-based). With {@code --normalize} the value is the row's normalized value
 * (the header says so), the one scored. A LIBSVM feature beyond the model's dimension, which
 * scoring ignores, shows the weight {@code -} and the contribution 0. The contributions sum to the
 * score, up to the order of the sum.
 */
final class PredictAudit implements VwRow.NameSink {
  /** One entry of a row as read: its value as in the file, and the sign its hash gives it. */
  private record Entry(String name, int index, boolean negated, double value) {}

  private final List<List<Entry>> rows = new ArrayList<>();
  private List<Entry> current = new ArrayList<>();
  private SparseDataset raw;
  private int[] rawIdx;
  private double[] rawVal;
  private double[] scoredVal;

  /**
   * The data the rows come from, once before {@link #text}.
   *
   * @param read the rows as read (names for LIBSVM rows, and the scale under normalization)
   * @param scored the rows as scored (normalized or not)
   */
  void data(SparseDataset read, SparseDataset scored) {
    raw = read;
    rawIdx = read.indices(); // the accessors copy: once, not per row
    rawVal = read.values();
    scoredVal = scored == read ? rawVal : scored.values();
  }

  @Override
  public void entry(String name, int index, boolean negated, double value) {
    // The sink gets the value after the hash's sign: the value as written is its magnitude's sign.
    current.add(new Entry(name, index, negated, negated ? -value : value));
  }

  @Override
  public void endRow() {
    rows.add(current);
    current = new ArrayList<>();
  }

  /** The column header; {@code normalized}: the values shown are the normalized ones. */
  static String header(LinearModel model, boolean normalized) {
    String value = normalized ? "value (normalized)" : "value";
    return model.outputs() == 1
        ? "# feature\tindex\t" + value + "\tsign\tweight\tcontribution"
        : "# feature\tindex\t"
            + value
            + "\tsign\tweight per output ("
            + model.outputs()
            + ")\tcontribution per output";
  }

  /** The audit of row {@code row}: its label and prediction, then its entries. */
  String text(int row, double label, double[] yhat, LinearModel model) {
    StringBuilder b = new StringBuilder();
    b.append("example ")
        .append(row + 1)
        .append(" (label ")
        .append(fmt(label))
        .append("): prediction ");
    PredictionText.append(b, model.multiclass(), yhat, model.outputs()).append('\n');
    List<Entry> entries = rows.isEmpty() ? libsvm(row) : scaled(rows.get(row), scale(row));
    int d = model.dimension();
    for (Entry e : entries) {
      b.append(e.name())
          .append('\t')
          .append(e.index())
          .append('\t')
          .append(fmt(e.value()))
          .append('\t')
          .append(e.negated() ? '-' : '+');
      boolean inModel = e.index() < d; // scoring ignores a LIBSVM feature beyond d
      double signed = e.negated() ? -e.value() : e.value();
      for (double[] w : model.weights()) {
        b.append('\t').append(inModel ? InvertHash.weight(model, w[e.index()]) : "-");
      }
      for (double[] w : model.weights()) {
        b.append('\t').append(inModel ? w[e.index()] * signed : 0.0);
      }
      b.append('\n');
    }
    return b.toString();
  }

  /** A LIBSVM row's stored entries, with the values as scored. */
  private List<Entry> libsvm(int row) {
    List<Entry> l = new ArrayList<>();
    for (int j = raw.rowStart(row); j < raw.rowEnd(row); j++) {
      l.add(new Entry(Integer.toString(rawIdx[j] + 1), rawIdx[j], false, scoredVal[j]));
    }
    return l;
  }

  private static List<Entry> scaled(List<Entry> entries, double scale) {
    if (scale == 1) {
      return entries;
    }
    List<Entry> l = new ArrayList<>(entries.size());
    for (Entry e : entries) {
      l.add(new Entry(e.name(), e.index(), e.negated(), e.value() * scale));
    }
    return l;
  }

  /**
   * The factor normalization applied to row {@code row} (1 without it; rows keep their entries).
   */
  private double scale(int row) {
    for (int j = raw.rowStart(row); scoredVal != rawVal && j < raw.rowEnd(row); j++) {
      if (rawVal[j] != 0) {
        return scoredVal[j] / rawVal[j];
      }
    }
    return 1;
  }

  private static String fmt(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15
        ? Long.toString((long) v)
        : String.format(Locale.ROOT, "%s", v);
  }
}
