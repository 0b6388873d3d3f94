package org.onlinekernels.codegen;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.onlinekernels.codegen.LaneRule.Phase;

/**
 * The plain-Java forms on block state (float and double): state as one segment, field {@code f} of
 * coordinate {@code i} at element {@code f * step + i * stride} (planar: {@code step = d, stride =
 * 1}; interleaved: {@code step = 1, stride = FIELDS}), rows as arrays. The fused round entry by
 * entry ({@code predictBlock} writes nothing but per-entry scratch; {@code updateBlock} writes
 * every new value) and gathered (records into arrays, computed there, changed fields back).
 */
final class BlockForms extends PlainForms {
  BlockForms(LaneRule rule, Flavor flavor, JavaWriter out) {
    super(rule, flavor, out);
  }

  /** Writes the block forms. */
  void write() {
    blockRows();
    gathered();
  }

  void blockRows() {
    String state = "MemorySegment st, long step, long stride";
    String row = "int[] idx, " + t + "[] val, int from, int nnz";
    List<LaneRule.Function> predict = predictForContribution();

    out.blank();
    out.line("/**");
    out.line(
        " * Predict half of a fused round over entries {@code [from, from + nnz)} on block state: returns");
    out.line(
        " * {@code yhat}; writes only the per-entry scratch ("
            + (kept.isEmpty() ? "none" : keptNames())
            + ").");
    out.line(" */");
    out.line(
        "static "
            + t
            + " predictBlock("
            + state
            + ", "
            + row
            + scratchParams()
            + uniformParams(false)
            + ") {");
    CoordinateCode.uniforms(rule, flavor, out, false);
    String derived =
        rule.phase(Phase.UNIFORM).stream().map(f -> ", " + f.name()).reduce("", String::concat);
    partialSums(
        j ->
            "predictBlockEntry(st, step, stride, idx, val, from, "
                + j
                + scratchArgs()
                + uniformArgs(false)
                + derived
                + ")");
    out.line("}");

    out.blank();
    out.line("/**");
    out.line(
        " * {@link #predictBlock} summed as a separate sparse predict always was: two partial sums, entry");
    out.line(" * {@code j} into sum {@code j mod 2}, combined as {@code s0 + s1}.");
    out.line(" */");
    out.line(
        "static "
            + t
            + " predictBlockSeparate("
            + state
            + ", "
            + row
            + scratchParams()
            + uniformParams(false)
            + ") {");
    CoordinateCode.uniforms(rule, flavor, out, false);
    out.line(t + " a0 = 0, a1 = 0;");
    out.line("int j = 0;");
    out.line("for (; j + 1 < nnz; j += 2) {");
    out.line(
        "a0 += predictBlockEntry(st, step, stride, idx, val, from, j"
            + scratchArgs()
            + uniformArgs(false)
            + derived
            + ");");
    out.line(
        "a1 += predictBlockEntry(st, step, stride, idx, val, from, j + 1"
            + scratchArgs()
            + uniformArgs(false)
            + derived
            + ");");
    out.line("}");
    out.line("if (j < nnz) {");
    out.line(
        "a0 += predictBlockEntry(st, step, stride, idx, val, from, j"
            + scratchArgs()
            + uniformArgs(false)
            + derived
            + ");");
    out.line("}");
    out.line("return a0 + a1;");
    out.line("}");

    out.blank();
    out.line(
        "private static "
            + t
            + " predictBlockEntry("
            + state
            + ", "
            + row.replace("int nnz", "int j")
            + scratchParams()
            + uniformParams(false)
            + derivedParams()
            + ") {");
    out.line("long b = idx[from + j] * stride;");
    out.line(t + " x = val[from + j];");
    CoordinateCode c = new CoordinateCode(rule, flavor, out, blockLoad()).bind("x", "x");
    bindDerived(c);
    c.calls(predict);
    for (LaneRule.Function f : kept) {
      out.line(scratch(f.name()) + "[j] = " + c.value(f.name()) + ";");
    }
    out.line("return " + contribution(c) + ";");
    out.line("}");

    if (!rule.predictFieldOutputs().isEmpty()) {
      out.blank();
      out.doc(
          "Writes the predict's new field values from the scratch: a predict whose update comes as a separate call.");
      out.line(
          "static void commitBlock("
              + state
              + ", int[] idx, int from, int nnz"
              + scratchParams()
              + ") {");
      out.line("for (int j = 0; j < nnz; j++) {");
      out.line("long b = idx[from + j] * stride;");
      for (String f : rule.predictFieldOutputs()) {
        out.line(blockStore(f, scratch(f) + "[j]"));
      }
      out.line("}");
      out.line("}");
    }

    out.blank();
    out.doc(
        "Update half of the fused round {@link #predictBlock} began, with the loss derivative {@code g}.");
    out.line(
        "static "
            + updateReturns()
            + " updateBlock("
            + state
            + ", "
            + row
            + scratchParams()
            + ", "
            + t
            + " g"
            + uniformParams(false)
            + ") {");
    c = openUpdateLoop();
    bindDerived(c);
    for (LaneRule.Function f : kept) {
      c.bind(f.name(), scratch(f.name()) + "[j]");
    }
    c.calls(rule.phase(Phase.UPDATE));
    sumAdd(c);
    storeBlock(c, rule.predictFieldOutputs());
    out.line("}");
    sumReturn();
    out.line("}");

    out.blank();
    out.doc(
        "Update after a separate predict that committed its field values: the values the update reads are recomputed from the state.");
    out.line(
        "static "
            + updateReturns()
            + " updateBlockRecompute("
            + state
            + ", "
            + row
            + ", "
            + t
            + " g"
            + uniformParams(false)
            + ") {");
    c = openUpdateLoop();
    bindDerived(c);
    recompute(c);
    c.calls(rule.phase(Phase.UPDATE));
    sumAdd(c);
    storeBlock(c, List.of());
    out.line("}");
    sumReturn();
    out.line("}");

    out.blank();
    out.doc("Weight read-out of coordinates {@code [0, n)} into {@code out} (contiguous).");
    out.line(
        "static void weightsBlock("
            + state
            + ", MemorySegment out, int n"
            + uniformParams(false)
            + ") {");
    CoordinateCode.uniforms(rule, flavor, out, false);
    out.line("for (int i = 0; i < n; i++) {");
    out.line("long b = i * stride;");
    c = new CoordinateCode(rule, flavor, out, blockLoad());
    bindDerived(c);
    out.line("out.setAtIndex(" + Flavor.layout(flavor.in) + ", i, " + readOut(c) + ");");
    out.line("}");
    out.line("}");
  }

  /**
   * The fused round in three steps: gather a row's records into one array per field, compute on
   * those arrays (a loop the vector forms can run lane-wise), scatter the changed fields back. Each
   * entry runs the same lane calls on the same values as {@link #blockRows}' forms, and the
   * contributions are summed in the same four partial sums, so the bits are theirs.
   */
  void gathered() {
    String state = "MemorySegment st, long step, long stride";
    String recs = String.join(", ", rule.fields.stream().map(f -> t + "[] " + record(f)).toList());
    String recArgs = String.join(", ", rule.fields.stream().map(ScalarForms::record).toList());

    out.blank();
    out.doc(
        "Loads the records of entries {@code [from, from + nnz)}: field {@code f} of entry {@code j} into {@code rec<f>[j]}.");
    out.line("static void gather(" + state + ", int[] idx, int from, int nnz, " + recs + ") {");
    out.line("for (int j = 0; j < nnz; j++) {");
    out.line("long b = idx[from + j] * stride;");
    for (String f : rule.fields) {
      out.line(record(f) + "[j] = " + blockLoad().apply(f) + ";");
    }
    out.line("}");
    out.line("}");

    out.blank();
    out.line("/**");
    out.line(
        " * Predict half of a gathered round over entries {@code [jFrom, jTo)}: the kept values into their");
    out.line(
        " * scratch, each entry's contribution {@code x w} into {@code contrib} (summed by the caller).");
    out.line(" */");
    out.line(
        "static void predictGathered("
            + recs
            + ", "
            + t
            + "[] val, int from, int jFrom, int jTo"
            + scratchParams()
            + ", "
            + t
            + "[] contrib"
            + uniformParams(false)
            + ") {");
    CoordinateCode.uniforms(rule, flavor, out, false);
    out.line("for (int j = jFrom; j < jTo; j++) {");
    out.line(t + " x = val[from + j];");
    CoordinateCode cc =
        new CoordinateCode(rule, flavor, out, f -> record(f) + "[j]").bind("x", "x");
    bindDerived(cc);
    cc.calls(predictForContribution());
    for (LaneRule.Function f : kept) {
      out.line(scratch(f.name()) + "[j] = " + cc.value(f.name()) + ";");
    }
    out.line("contrib[j] = " + contribution(cc) + ";");
    out.line("}");
    out.line("}");

    out.blank();
    out.line("/**");
    out.line(
        " * Update half of a gathered round over entries {@code [jFrom, jTo)}, with the loss derivative");
    out.line(
        " * {@code g}: the fields the update changes get their new values in their record arrays.");
    out.line(" */");
    out.line(
        "static "
            + updateReturns()
            + " updateGathered("
            + recs
            + ", "
            + t
            + "[] val, int from, int jFrom, int jTo"
            + scratchParams()
            + ", "
            + t
            + " g"
            + uniformParams(false)
            + ") {");
    CoordinateCode.uniforms(rule, flavor, out, false);
    sumInit();
    out.line("for (int j = jFrom; j < jTo; j++) {");
    out.line(t + " x = val[from + j];");
    out.line(t + " gx = g * x;");
    cc =
        new CoordinateCode(rule, flavor, out, f -> record(f) + "[j]")
            .bind("x", "x")
            .bind("g", "g")
            .bind("gx", "gx");
    bindDerived(cc);
    for (LaneRule.Function f : kept) {
      cc.bind(f.name(), scratch(f.name()) + "[j]");
    }
    cc.calls(rule.phase(Phase.UPDATE));
    sumAdd(cc);
    for (String f : rule.fields) {
      if (cc.written().contains(f)) {
        out.line(record(f) + "[j] = " + cc.value(f) + ";");
      }
    }
    out.line("}");
    sumReturn();
    out.line("}");

    List<String> changed = changedFields(rule);
    out.blank();
    out.line("/**");
    out.line(
        " * Writes a gathered round's changed fields back to the records of entries {@code [from, from + nnz)}:");
    out.line(
        " * "
            + String.join(", ", changed.stream().map(f -> "{@code " + f + "}").toList())
            + " (an update's new value, else the predict's).");
    out.line(" */");
    out.line(
        "static void scatter("
            + state
            + ", int[] idx, int from, int nnz"
            + changed.stream().map(f -> ", " + t + "[] " + f + "New").reduce("", String::concat)
            + ") {");
    out.line("for (int j = 0; j < nnz; j++) {");
    out.line("long b = idx[from + j] * stride;");
    for (String f : changed) {
      out.line(blockStore(f, f + "New[j]"));
    }
    out.line("}");
    out.line("}");
  }

  Function<String, String> blockLoad() {
    return f -> "st.getAtIndex(" + Flavor.layout(t) + ", " + blockOffset(f) + ")";
  }

  String blockOffset(String field) {
    int k = rule.fields.indexOf(field);
    return k == 0 ? "b" : k == 1 ? "step + b" : k + " * step + b";
  }

  String blockStore(String field, String value) {
    return "st.setAtIndex(" + Flavor.layout(t) + ", " + blockOffset(field) + ", " + value + ");";
  }

  /**
   * Stores every field written by the update, and the predict's kept field values not overwritten.
   */
  void storeBlock(CoordinateCode c, List<String> fromPredict) {
    Set<String> store = new LinkedHashSet<>(fromPredict);
    store.addAll(c.written());
    for (String f : rule.fields) {
      if (store.contains(f)) {
        out.line(blockStore(f, c.value(f)));
      }
    }
  }

  /**
   * Opens an update's loop over entries {@code [from, from + nnz)} of interleaved records: the
   * uniforms, the sum, then per entry the record offset {@code b}, {@code x} and {@code gx}.
   */
  private CoordinateCode openUpdateLoop() {
    CoordinateCode.uniforms(rule, flavor, out, false);
    sumInit();
    out.line("for (int j = 0; j < nnz; j++) {");
    out.line("long b = idx[from + j] * stride;");
    out.line(t + " x = val[from + j];");
    out.line(t + " gx = g * x;");
    return new CoordinateCode(rule, flavor, out, blockLoad())
        .bind("x", "x")
        .bind("g", "g")
        .bind("gx", "gx");
  }
}
