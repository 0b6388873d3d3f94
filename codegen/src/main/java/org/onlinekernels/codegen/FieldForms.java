package org.onlinekernels.codegen;

import java.util.List;
import org.onlinekernels.codegen.LaneRule.Phase;

/**
 * The plain-Java forms on one segment per field (every flavor; the per-coordinate variant adds one
 * read-only segment per per-coordinate uniform): a sparse row's predict, commit and update.
 */
final class FieldForms extends PlainForms {
  FieldForms(LaneRule rule, Flavor flavor, JavaWriter out) {
    super(rule, flavor, out);
  }

  /** Writes the field forms of the variant. */
  void write(boolean perCoordinate) {
    fieldRows(perCoordinate);
  }

  void fieldRows(boolean perCoordinate) {
    String sfx = suffix(perCoordinate);
    String segs = fieldSegments(perCoordinate);
    String row = "int[] idx, " + flavor.in + "[] val, int from, int nnz";

    predictRows(perCoordinate, sfx, segs, row);

    if (!rule.predictFieldOutputs().isEmpty()) {
      out.blank();
      out.doc("Writes the predict's new field values from the scratch.");
      out.line(
          "static void commitRows"
              + sfx
              + "("
              + segs
              + ", int[] idx, int from, int nnz"
              + scratchParams()
              + ") {");
      out.line("for (int j = 0; j < nnz; j++) {");
      out.line("int i = idx[from + j];");
      for (String f : rule.predictFieldOutputs()) {
        out.line(fieldStore(f, "i", scratch(f) + "[j]"));
      }
      out.line("}");
      out.line("}");
    }

    out.blank();
    out.doc("Update after {@link #predictRows" + sfx + "} with its scratch.");
    out.line(
        "static "
            + updateReturns()
            + " updateRows"
            + sfx
            + "("
            + segs
            + ", "
            + row
            + scratchParams()
            + ", "
            + t
            + " g"
            + uniformParams(perCoordinate)
            + ") {");
    CoordinateCode c = openUpdateLoop(perCoordinate);
    bindDerived(c, perCoordinate);
    for (LaneRule.Function f : kept) {
      c.bind(f.name(), scratch(f.name()) + "[j]");
    }
    c.calls(rule.phase(Phase.UPDATE));
    sumAdd(c);
    storeFields(c, rule.predictFieldOutputs(), "i");
    out.line("}");
    sumReturn();
    out.line("}");

    out.blank();
    out.doc(
        "Update after a separate predict that committed its field values (values recomputed from the state).");
    out.line(
        "static "
            + updateReturns()
            + " updateRowsRecompute"
            + sfx
            + "("
            + segs
            + ", "
            + row
            + ", "
            + t
            + " g"
            + uniformParams(perCoordinate)
            + ") {");
    c = openUpdateLoop(perCoordinate);
    bindDerived(c, perCoordinate);
    recompute(c);
    c.calls(rule.phase(Phase.UPDATE));
    sumAdd(c);
    storeFields(c, List.of(), "i");
    out.line("}");
    sumReturn();
    out.line("}");

    if (storedWeight()) {
      out.blank();
      out.doc(
          "Update after a separate predict that committed its field values, with its weights {@code wIn[j]} (compact, entry {@code j}).");
      out.line(
          "static "
              + updateReturns()
              + " updateRowsStored"
              + sfx
              + "("
              + segs
              + ", "
              + t
              + "[] wIn, "
              + row
              + ", "
              + t
              + " g"
              + uniformParams(perCoordinate)
              + ") {");
      c = openUpdateLoop(perCoordinate).bind("w", "wIn[j]");
      bindDerived(c, perCoordinate);
      c.calls(rule.phase(Phase.UPDATE));
      sumAdd(c);
      storeFields(c, List.of(), "i");
      out.line("}");
      sumReturn();
      out.line("}");
    }
  }

  /**
   * A predict on one segment per field (mixed precision, per-coordinate uniforms, the public
   * kernels' sparse entries), summed as a separate sparse predict always was: two partial sums,
   * entry {@code j} into sum {@code j mod 2}, combined as {@code s0 + s1}. A fused round on such
   * state sums the same way, so it equals a predict and an update there.
   */
  void predictRows(boolean perCoordinate, String sfx, String segs, String row) {
    out.blank();
    out.line("/**");
    out.line(
        " * Predict over entries {@code [from, from + nnz)} on one segment per field"
            + (perCoordinate
                ? " (per-coordinate " + String.join(", ", rule.perCoordinate) + ")"
                : "")
            + ": returns {@code yhat}");
    out.line(
        " * summed in two partial sums (entry {@code j} into sum {@code j mod 2}); writes only the per-entry scratch.");
    out.line(" */");
    out.line(
        "static "
            + t
            + " predictRows"
            + sfx
            + "("
            + segs
            + ", "
            + row
            + scratchParams()
            + uniformParams(perCoordinate)
            + ") {");
    CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
    out.line(t + " a0 = 0, a1 = 0;");
    out.line("for (int j = 0; j < nnz; j++) {");
    out.line("int i = idx[from + j];");
    out.line(t + " x = val[from + j];");
    CoordinateCode c = new CoordinateCode(rule, flavor, out, fieldLoad("i")).bind("x", "x");
    bindDerived(c, perCoordinate);
    c.calls(predictForContribution());
    for (LaneRule.Function f : kept) {
      out.line(scratch(f.name()) + "[j] = " + c.value(f.name()) + ";");
    }
    out.line(t + " c = " + contribution(c) + ";");
    out.line("if ((j & 1) == 0) {");
    out.line("a0 += c;");
    out.line("} else {");
    out.line("a1 += c;");
    out.line("}");
    out.line("}");
    out.line("return a0 + a1;");
    out.line("}");
  }

  /**
   * Opens an update's loop over entries {@code [from, from + nnz)}: the uniforms, the sum, then per
   * entry {@code i}, {@code x} and {@code gx}, bound for the rule's code.
   */
  private CoordinateCode openUpdateLoop(boolean perCoordinate) {
    CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
    sumInit();
    out.line("for (int j = 0; j < nnz; j++) {");
    out.line("int i = idx[from + j];");
    out.line(t + " x = val[from + j];");
    out.line(t + " gx = g * x;");
    return new CoordinateCode(rule, flavor, out, fieldLoad("i"))
        .bind("x", "x")
        .bind("g", "g")
        .bind("gx", "gx");
  }
}
