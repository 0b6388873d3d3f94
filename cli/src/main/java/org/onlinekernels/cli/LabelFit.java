package org.onlinekernels.cli;

/**
 * The labels a stream's model takes: the label map and the model's kind (binary, or {@code K}
 * classes), with how they were decided, so that a row whose label does not fit is refused with a
 * message that says what to do ({@code --labels}).
 *
 * @param map the label map
 * @param multiclass whether the model has {@code classes} outputs (else binary)
 * @param classes the number of classes when {@code multiclass}
 * @param decided how the labels were decided (e.g. "decided from the first 65536 rows")
 */
record LabelFit(LabelMap map, boolean multiclass, int classes, String decided) {
  /** {@link #decided} of labels given by {@code --labels}. */
  static final String GIVEN = "given by --labels";

  /** Label {@code raw} mapped, or NaN when it does not fit ({@link #problem} says why). */
  double map(double raw) {
    double y = map.map(raw);
    boolean fits = multiclass ? y >= 0 && y < classes && y == Math.rint(y) : y == 1 || y == -1;
    return fits ? y : Double.NaN;
  }

  /** Why label {@code raw} does not fit. */
  String problem(double raw) {
    if (decided.equals(GIVEN)) {
      return "label " + LabelMap.fmt(raw) + " is not one of the labels given by --labels";
    }
    return "label "
        + LabelMap.fmt(raw)
        + " does not fit the labels "
        + decided
        + (multiclass ? " (classes 0.." + (classes - 1) + ")" : " (binary, +1/-1)")
        + "; give --labels with every label of the data (NEG,POS for binary, else the classes"
        + " C0,C1,...)";
  }
}
