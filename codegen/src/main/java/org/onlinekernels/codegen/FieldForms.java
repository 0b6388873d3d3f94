package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.List;
import org.onlinekernels.codegen.LaneRule.Phase;

/**
 * The plain-Java forms on one segment per field (every flavor; the per-coordinate variant adds one
 * read-only segment per per-coordinate uniform): a sparse row's predict, commit and update.
 */
final class FieldForms extends PlainForms {
  private final boolean perCoordinate;
  private final String sfx;
  private final String segs;
  private final String row;

  FieldForms(LaneRule rule, Flavor flavor, boolean perCoordinate) {
    super(rule, flavor);
    this.perCoordinate = perCoordinate;
    this.sfx = suffix(perCoordinate);
    this.segs = fieldSegments(perCoordinate);
    this.row = "int[] idx, " + flavor.in + "[] val, int from, int nnz";
  }

  /** The field forms of the variant, in class order. */
  List<String> write() {
    List<String> out = new ArrayList<>();
    out.add(predictRows());
    if (!rule.predictFieldOutputs().isEmpty()) {
      out.add(commitRows());
    }
    JavaWriter body = new JavaWriter();
    CoordinateCode c = updateEntry(body);
    for (LaneRule.Function f : kept) {
      c.bind(f.name(), scratch(f.name()) + "[j]");
    }
    c.calls(rule.phase(Phase.UPDATE));
    body.code(sumAdd(c));
    body.code(storeFields(c, rule.predictFieldOutputs(), "i"));
    out.add(
        update(
            "/** Update after {@link #predictRows" + sfx + "} with its scratch. */",
            "updateRows",
            "",
            scratchParams(),
            body));

    body = new JavaWriter();
    c = updateEntry(body);
    recompute(c);
    c.calls(rule.phase(Phase.UPDATE));
    body.code(sumAdd(c));
    body.code(storeFields(c, List.of(), "i"));
    out.add(
        update(
            "/** Update after a separate predict that committed its field values (values"
                + " recomputed from the state). */",
            "updateRowsRecompute",
            "",
            "",
            body));

    if (storedWeight()) {
      body = new JavaWriter();
      c = updateEntry(body).bind("w", "wIn[j]");
      c.calls(rule.phase(Phase.UPDATE));
      body.code(sumAdd(c));
      body.code(storeFields(c, List.of(), "i"));
      out.add(
          update(
              "/** Update after a separate predict that committed its field values, with its"
                  + " weights {@code wIn[j]} (compact, entry {@code j}). */",
              "updateRowsStored",
              t + "[] wIn, ",
              "",
              body));
    }
    return out;
  }

  private String commitRows() {
    List<String> stores = new ArrayList<>();
    for (String f : rule.predictFieldOutputs()) {
      stores.add(fieldStore(f, "i", scratch(f) + "[j]"));
    }
    return Template.fill(
        """
        /** Writes the predict's new field values from the scratch. */
        static void commitRows${sfx}(${segs}, int[] idx, int from, int nnz${scratch}) {
          for (int j = 0; j < nnz; j++) {
            int i = idx[from + j];
            ${stores}
          }
        }""",
        "sfx",
        sfx,
        "segs",
        segs,
        "scratch",
        scratchParams(),
        "stores",
        String.join("\n", stores));
  }

  /** An update's per-entry code: {@code x}, {@code g}, {@code gx} and the uniforms bound. */
  private CoordinateCode updateEntry(JavaWriter body) {
    CoordinateCode c =
        new CoordinateCode(rule, flavor, body, fieldLoad("i"))
            .bind("x", "x")
            .bind("g", "g")
            .bind("gx", "gx");
    bindDerived(c, perCoordinate);
    return c;
  }

  /** An update form: its loop over entries {@code [from, from + nnz)}, {@code body} per entry. */
  private String update(String doc, String name, String before, String scratch, JavaWriter body) {
    return Template.fill(
        """
        ${doc}
        static ${returns} ${name}${sfx}(${segs}, ${before}${row}${scratch}, ${t} g${uniforms}) {
          ${derived}
          ${sumInit}
          for (int j = 0; j < nnz; j++) {
            int i = idx[from + j];
            ${t} x = val[from + j];
            ${t} gx = g * x;
            ${body}
          }
          ${sumReturn}
        }""",
        "doc",
        doc,
        "returns",
        updateReturns(),
        "name",
        name,
        "sfx",
        sfx,
        "segs",
        segs,
        "before",
        before,
        "row",
        row,
        "scratch",
        scratch,
        "t",
        t,
        "uniforms",
        uniformParams(perCoordinate),
        "derived",
        derivedUniforms(perCoordinate),
        "sumInit",
        sumInit(),
        "body",
        body,
        "sumReturn",
        sumReturn());
  }

  /**
   * A predict on one segment per field (mixed precision, per-coordinate uniforms, the public
   * kernels' sparse entries), summed as a separate sparse predict always was: two partial sums,
   * entry {@code j} into sum {@code j mod 2}, combined as {@code s0 + s1}. A fused round on such
   * state sums the same way, so it equals a predict and an update there.
   */
  private String predictRows() {
    JavaWriter body = new JavaWriter();
    CoordinateCode c = new CoordinateCode(rule, flavor, body, fieldLoad("i")).bind("x", "x");
    bindDerived(c, perCoordinate);
    c.calls(predictForContribution());
    for (LaneRule.Function f : kept) {
      body.line(scratch(f.name()) + "[j] = " + c.value(f.name()) + ";");
    }
    body.line(t + " c = " + contribution(c) + ";");
    return Template.fill(
        """
        /**
         * Predict over entries {@code [from, from + nnz)} on one segment per field${pc}: returns
         * {@code yhat} summed in two partial sums (entry {@code j} into sum {@code j mod 2});
         * writes only the per-entry scratch.
         */
        static ${t} predictRows${sfx}(${segs}, ${row}${scratch}${uniforms}) {
          ${derived}
          ${t} a0 = 0, a1 = 0;
          for (int j = 0; j < nnz; j++) {
            int i = idx[from + j];
            ${t} x = val[from + j];
            ${body}
            if ((j & 1) == 0) {
              a0 += c;
            } else {
              a1 += c;
            }
          }
          return a0 + a1;
        }""",
        "pc",
        perCoordinate ? " (per-coordinate " + String.join(", ", rule.perCoordinate) + ")" : "",
        "t",
        t,
        "sfx",
        sfx,
        "segs",
        segs,
        "row",
        row,
        "scratch",
        scratchParams(),
        "uniforms",
        uniformParams(perCoordinate),
        "derived",
        derivedUniforms(perCoordinate),
        "body",
        body);
  }
}
