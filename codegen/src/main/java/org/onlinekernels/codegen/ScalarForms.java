package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.onlinekernels.codegen.LaneRule.Phase;

/**
 * The plain-Java forms of a rule for one flavor, {@code <Flavor><Rule>Forms}: every loop over
 * coordinates calls the rule's lane functions, so the arithmetic is the rule's, in its order.
 *
 * <ul>
 *   <li><b>Block rows</b> (float, double): state as one segment, field {@code f} of coordinate
 *       {@code i} at element {@code f * step + i * stride} (planar: {@code step = d, stride = 1};
 *       interleaved: {@code step = 1, stride = FIELDS}), rows as arrays. The fused round's
 *       predict writes nothing but per-entry scratch; its update writes every new value.
 *   <li><b>Field rows</b>: one segment per field (every flavor; the per-coordinate variant adds
 *       one read-only segment per per-coordinate uniform).
 *   <li><b>Dense</b>: one segment per field, coordinates {@code [from, to)}; the predict sums in
 *       the virtual lanes' order, so the vector forms give the same bits.
 * </ul>
 *
 * A row's prediction is summed in four partial sums, entry {@code j} into sum {@code j mod 4},
 * combined as {@code (s0 + s1) + (s2 + s3)}.
 */
final class ScalarForms {
  private final LaneRule rule;
  private final Flavor flavor;
  private final JavaWriter out = new JavaWriter();
  private final String t;
  private final String lanes;
  /** Predict functions the fused round keeps per entry: field outputs and values the update reads. */
  private final List<LaneRule.Function> kept;

  ScalarForms(LaneRule rule, Flavor flavor) {
    this.rule = rule;
    this.flavor = flavor;
    this.t = flavor.t;
    this.lanes = flavor.lanesClass(rule);
    Set<String> keep = new LinkedHashSet<>(rule.predictFieldOutputs());
    for (LaneRule.Function f : rule.predictValuesForUpdate()) {
      keep.add(f.name());
    }
    this.kept = rule.phase(Phase.PREDICT).stream().filter(f -> keep.contains(f.name())).toList();
  }

  /** The predict values kept per entry by a fused round, in predict order. */
  static List<String> kept(LaneRule rule) {
    return new ScalarForms(rule, Flavor.FLOAT).kept.stream().map(LaneRule.Function::name).toList();
  }

  static String className(LaneRule rule, Flavor flavor) {
    return flavor.prefix + rule.name + "Forms";
  }

  String source() {
    out.line("package " + rule.packageName + ";");
    out.blank();
    out.line("import java.lang.foreign.MemorySegment;");
    out.line("import java.lang.foreign.ValueLayout;");
    out.line("import org.onlinekernels.kernel.lanes." + flavor.lanes + "VirtualLanes;");
    out.blank();
    out.line("/**");
    out.line(" * " + rule.name + "'s plain-Java forms in " + (flavor == Flavor.MIXED
        ? "mixed precision (float inputs and " + String.join(", ", rule.mixedFloatFields) + "; double arithmetic)" : t) + ":");
    out.line(" * every loop calls the lane functions of {@link " + lanes + "}; see ScalarForms in");
    out.line(" * online-kernels-codegen for what each form is.");
    out.line(" */");
    out.line("final class " + className(rule, flavor) + " {");
    out.line("private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;");
    out.line("private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;");
    out.line("private static final int V = " + flavor.lanes + "VirtualLanes.LANES;");
    out.blank();
    out.doc("Number of state fields per coordinate.");
    out.line("static final int FIELDS = " + rule.fields.size() + ";");
    out.blank();
    out.line("private " + className(rule, flavor) + "() {}");
    if (flavor != Flavor.MIXED) {
      blockRows();
      gathered();
    }
    fieldRows(false);
    if (!rule.perCoordinate.isEmpty()) {
      fieldRows(true);
    }
    dense(false);
    if (!rule.perCoordinate.isEmpty()) {
      dense(true);
    }
    out.line("}");
    return Generated.header(rule, className(rule, flavor) + ", the plain-Java forms") + out;
  }

  // ---------------------------------------------------------------- parameters

  private String uniformParams(boolean perCoordinate) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, String> u : rule.uniforms().entrySet()) {
      if (perCoordinate && rule.perCoordinate.contains(u.getKey())) {
        continue;
      }
      sb.append(", ").append(u.getValue().equals("float") ? t : u.getValue()).append(' ').append(u.getKey());
    }
    return sb.toString();
  }

  private String uniformArgs(boolean perCoordinate) {
    StringBuilder sb = new StringBuilder();
    for (String u : rule.uniforms().keySet()) {
      if (!(perCoordinate && rule.perCoordinate.contains(u))) {
        sb.append(", ").append(u);
      }
    }
    return sb.toString();
  }

  private String fieldSegments(boolean perCoordinate) {
    List<String> s = new ArrayList<>();
    for (String f : rule.fields) {
      s.add("MemorySegment " + f);
    }
    if (perCoordinate) {
      for (String u : rule.perCoordinate) {
        s.add("MemorySegment " + u);
      }
    }
    return String.join(", ", s);
  }

  private String fieldArgs(boolean perCoordinate) {
    List<String> s = new ArrayList<>(rule.fields);
    if (perCoordinate) {
      s.addAll(rule.perCoordinate);
    }
    return String.join(", ", s);
  }

  private String scratchParams() {
    StringBuilder sb = new StringBuilder();
    for (LaneRule.Function f : kept) {
      sb.append(", ").append(t).append("[] ").append(scratch(f.name()));
    }
    return sb.toString();
  }

  private String scratchArgs() {
    StringBuilder sb = new StringBuilder();
    for (LaneRule.Function f : kept) {
      sb.append(", ").append(scratch(f.name()));
    }
    return sb.toString();
  }

  static String scratch(String value) {
    return "out" + Character.toUpperCase(value.charAt(0)) + value.substring(1);
  }

  private String suffix(boolean perCoordinate) {
    return perCoordinate ? "PerCoordinate" : "";
  }

  // ---------------------------------------------------------------- loads and stores

  private Function<String, String> blockLoad() {
    return f -> "st.getAtIndex(" + Flavor.layout(t) + ", " + blockOffset(f) + ")";
  }

  private String blockOffset(String field) {
    int k = rule.fields.indexOf(field);
    return k == 0 ? "b" : k == 1 ? "step + b" : k + " * step + b";
  }

  private String blockStore(String field, String value) {
    return "st.setAtIndex(" + Flavor.layout(t) + ", " + blockOffset(field) + ", " + value + ");";
  }

  private Function<String, String> fieldLoad(String index) {
    return f -> f + ".getAtIndex(" + Flavor.layout(storageOf(f)) + ", " + index + ")";
  }

  private String storageOf(String name) {
    // Per-coordinate uniforms are read-only buffers of the arithmetic type (double under mixed
    // precision: a rate computed from a box's width keeps its double value).
    return rule.fields.contains(name) ? flavor.storage(rule, name) : t;
  }

  private String fieldStore(String field, String index, String value) {
    String s = flavor.storage(rule, field);
    String v = s.equals(t) ? value : "(" + s + ") " + value;
    return field + ".setAtIndex(" + Flavor.layout(s) + ", " + index + ", " + v + ");";
  }

  /** The weight's contribution {@code x w} of an entry: 0 where {@code x == 0} for a computed weight (it may be infinite). */
  private String contribution(CoordinateCode c) {
    if (rule.computesWeight()) {
      return "x != 0 ? x * " + c.value("w") + " : 0";
    }
    return "x * " + c.value(rule.weightField);
  }

  // ---------------------------------------------------------------- block rows

  private void blockRows() {
    String state = "MemorySegment st, long step, long stride";
    String row = "int[] idx, " + t + "[] val, int from, int nnz";
    List<LaneRule.Function> predict = predictForContribution();

    out.blank();
    out.line("/**");
    out.line(" * Predict half of a fused round over entries {@code [from, from + nnz)} on block state: returns");
    out.line(" * {@code yhat}; writes only the per-entry scratch (" + (kept.isEmpty() ? "none" : keptNames()) + ").");
    out.line(" */");
    out.line("static " + t + " predictBlock(" + state + ", " + row + scratchParams() + uniformParams(false) + ") {");
    CoordinateCode.uniforms(rule, flavor, out, false);
    String derived = rule.phase(Phase.UNIFORM).stream().map(f -> ", " + f.name()).reduce("", String::concat);
    partialSums(j -> "predictBlockEntry(st, step, stride, idx, val, from, " + j + scratchArgs() + uniformArgs(false) + derived + ")");
    out.line("}");

    out.blank();
    out.line("/**");
    out.line(" * {@link #predictBlock} summed as a separate sparse predict always was: two partial sums, entry");
    out.line(" * {@code j} into sum {@code j mod 2}, combined as {@code s0 + s1}.");
    out.line(" */");
    out.line("static " + t + " predictBlockSeparate(" + state + ", " + row + scratchParams() + uniformParams(false) + ") {");
    CoordinateCode.uniforms(rule, flavor, out, false);
    out.line(t + " a0 = 0, a1 = 0;");
    out.line("int j = 0;");
    out.line("for (; j + 1 < nnz; j += 2) {");
    out.line("a0 += predictBlockEntry(st, step, stride, idx, val, from, j" + scratchArgs() + uniformArgs(false) + derived + ");");
    out.line("a1 += predictBlockEntry(st, step, stride, idx, val, from, j + 1" + scratchArgs() + uniformArgs(false) + derived + ");");
    out.line("}");
    out.line("if (j < nnz) {");
    out.line("a0 += predictBlockEntry(st, step, stride, idx, val, from, j" + scratchArgs() + uniformArgs(false) + derived + ");");
    out.line("}");
    out.line("return a0 + a1;");
    out.line("}");

    out.blank();
    out.line("private static " + t + " predictBlockEntry(" + state + ", " + row.replace("int nnz", "int j")
        + scratchParams() + uniformParams(false) + derivedParams() + ") {");
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
      out.doc("Writes the predict's new field values from the scratch: a predict whose update comes as a separate call.");
      out.line("static void commitBlock(" + state + ", int[] idx, int from, int nnz" + scratchParams() + ") {");
      out.line("for (int j = 0; j < nnz; j++) {");
      out.line("long b = idx[from + j] * stride;");
      for (String f : rule.predictFieldOutputs()) {
        out.line(blockStore(f, scratch(f) + "[j]"));
      }
      out.line("}");
      out.line("}");
    }

    out.blank();
    out.doc("Update half of the fused round {@link #predictBlock} began, with the loss derivative {@code g}.");
    out.line("static " + updateReturns() + " updateBlock(" + state + ", " + row + scratchParams() + ", " + t + " g" + uniformParams(false) + ") {");
    CoordinateCode.uniforms(rule, flavor, out, false);
    sumInit();
    out.line("for (int j = 0; j < nnz; j++) {");
    out.line("long b = idx[from + j] * stride;");
    out.line(t + " x = val[from + j];");
    out.line(t + " gx = g * x;");
    c = new CoordinateCode(rule, flavor, out, blockLoad()).bind("x", "x").bind("g", "g").bind("gx", "gx");
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
    out.doc("Update after a separate predict that committed its field values: the values the update reads are recomputed from the state.");
    out.line("static " + updateReturns() + " updateBlockRecompute(" + state + ", " + row + ", " + t + " g" + uniformParams(false) + ") {");
    CoordinateCode.uniforms(rule, flavor, out, false);
    sumInit();
    out.line("for (int j = 0; j < nnz; j++) {");
    out.line("long b = idx[from + j] * stride;");
    out.line(t + " x = val[from + j];");
    out.line(t + " gx = g * x;");
    c = new CoordinateCode(rule, flavor, out, blockLoad()).bind("x", "x").bind("g", "g").bind("gx", "gx");
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
    out.line("static void weightsBlock(" + state + ", MemorySegment out, int n" + uniformParams(false) + ") {");
    CoordinateCode.uniforms(rule, flavor, out, false);
    out.line("for (int i = 0; i < n; i++) {");
    out.line("long b = i * stride;");
    c = new CoordinateCode(rule, flavor, out, blockLoad());
    bindDerived(c);
    out.line("out.setAtIndex(" + Flavor.layout(flavor.in) + ", i, " + readOut(c) + ");");
    out.line("}");
    out.line("}");
  }

  // ---------------------------------------------------------------- gathered rows

  /**
   * The fused round in three steps: gather a row's records into one array per field, compute on
   * those arrays (a loop the vector forms can run lane-wise), scatter the changed fields back. Each
   * entry runs the same lane calls on the same values as {@link #blockRows}' forms, and the
   * contributions are summed in the same four partial sums, so the bits are theirs.
   */
  private void gathered() {
    String state = "MemorySegment st, long step, long stride";
    String recs = String.join(", ", rule.fields.stream().map(f -> t + "[] " + record(f)).toList());
    String recArgs = String.join(", ", rule.fields.stream().map(ScalarForms::record).toList());

    out.blank();
    out.doc("Loads the records of entries {@code [from, from + nnz)}: field {@code f} of entry {@code j} into {@code rec<f>[j]}.");
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
    out.line(" * Predict half of a gathered round over entries {@code [jFrom, jTo)}: the kept values into their");
    out.line(" * scratch, each entry's contribution {@code x w} into {@code contrib} (summed by the caller).");
    out.line(" */");
    out.line("static void predictGathered(" + recs + ", " + t + "[] val, int from, int jFrom, int jTo" + scratchParams() + ", " + t
        + "[] contrib" + uniformParams(false) + ") {");
    CoordinateCode.uniforms(rule, flavor, out, false);
    out.line("for (int j = jFrom; j < jTo; j++) {");
    out.line(t + " x = val[from + j];");
    CoordinateCode cc = new CoordinateCode(rule, flavor, out, f -> record(f) + "[j]").bind("x", "x");
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
    out.line(" * Update half of a gathered round over entries {@code [jFrom, jTo)}, with the loss derivative");
    out.line(" * {@code g}: the fields the update changes get their new values in their record arrays.");
    out.line(" */");
    out.line("static " + updateReturns() + " updateGathered(" + recs + ", " + t + "[] val, int from, int jFrom, int jTo" + scratchParams()
        + ", " + t + " g" + uniformParams(false) + ") {");
    CoordinateCode.uniforms(rule, flavor, out, false);
    sumInit();
    out.line("for (int j = jFrom; j < jTo; j++) {");
    out.line(t + " x = val[from + j];");
    out.line(t + " gx = g * x;");
    cc = new CoordinateCode(rule, flavor, out, f -> record(f) + "[j]").bind("x", "x").bind("g", "g").bind("gx", "gx");
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
    out.line(" * Writes a gathered round's changed fields back to the records of entries {@code [from, from + nnz)}:");
    out.line(" * " + String.join(", ", changed.stream().map(f -> "{@code " + f + "}").toList())
        + " (an update's new value, else the predict's).");
    out.line(" */");
    out.line("static void scatter(" + state + ", int[] idx, int from, int nnz"
        + changed.stream().map(f -> ", " + t + "[] " + f + "New").reduce("", String::concat) + ") {");
    out.line("for (int j = 0; j < nnz; j++) {");
    out.line("long b = idx[from + j] * stride;");
    for (String f : changed) {
      out.line(blockStore(f, f + "New[j]"));
    }
    out.line("}");
    out.line("}");
  }

  /** The array a gathered round holds field {@code field} in. */
  static String record(String field) {
    return "rec" + Character.toUpperCase(field.charAt(0)) + field.substring(1);
  }

  /** Fields a round changes, in record order: the predict's field outputs and the update's. */
  static List<String> changedFields(LaneRule rule) {
    Set<String> c = new LinkedHashSet<>(rule.predictFieldOutputs());
    c.addAll(rule.updateFieldOutputs());
    return rule.fields.stream().filter(c::contains).toList();
  }

  /** Stores every field written by the update, and the predict's kept field values not overwritten. */
  private void storeBlock(CoordinateCode c, List<String> fromPredict) {
    Set<String> store = new LinkedHashSet<>(fromPredict);
    store.addAll(c.written());
    for (String f : rule.fields) {
      if (store.contains(f)) {
        out.line(blockStore(f, c.value(f)));
      }
    }
  }

  private String keptNames() {
    return String.join(", ", kept.stream().map(LaneRule.Function::name).toList());
  }

  /** The predict functions a prediction evaluates: all of them (field outputs and the weight). */
  private List<LaneRule.Function> predictForContribution() {
    return rule.phase(Phase.PREDICT);
  }

  /** Recomputes, from the state, the predict values the update reads (field outputs are idempotent). */
  private void recompute(CoordinateCode c) {
    for (LaneRule.Function f : rule.predictValuesForUpdate()) {
      c.call(f);
    }
  }

  /** The weight as read out: the predict's weight with {@code x = 0}, or the weight field. */
  private String readOut(CoordinateCode c) {
    if (!rule.computesWeight()) {
      String w = c.value(rule.weightField);
      return flavor.in.equals(t) ? w : "(" + flavor.in + ") " + w;
    }
    c.bind("x", "0");
    c.calls(rule.readOut());
    String w = c.value("w");
    return flavor == Flavor.MIXED ? readOutMixed(w) : w;
  }

  /** A double weight read out as float: clamped into float's finite range first, then rounded. */
  private static String readOutMixed(String w) {
    return "(float) Math.max(-Float.MAX_VALUE, Math.min(" + w + ", Float.MAX_VALUE))";
  }

  private String derivedParams() {
    StringBuilder sb = new StringBuilder();
    for (LaneRule.Function f : rule.phase(Phase.UNIFORM)) {
      sb.append(", ").append(f.type().equals("float") ? t : f.type()).append(' ').append(f.name());
    }
    return sb.toString();
  }

  private void bindDerived(CoordinateCode c) {
    bindDerived(c, false);
  }

  /** Binds the uniforms and the uniform functions computed once per call in this variant. */
  private void bindDerived(CoordinateCode c, boolean perCoordinate) {
    for (LaneRule.Function f : rule.uniformFunctions(perCoordinate)) {
      c.bind(f.name(), f.name());
    }
    for (String u : rule.uniforms().keySet()) {
      if (!(perCoordinate && rule.perCoordinate.contains(u))) {
        c.bind(u, u);
      }
    }
  }

  /** The four partial sums of a row, entry {@code j}'s contribution given by {@code entry.apply("j")}. */
  private void partialSums(Function<String, String> entry) {
    out.line(t + " a0 = 0, a1 = 0, a2 = 0, a3 = 0;");
    out.line("int j = 0;");
    out.line("for (; j + 3 < nnz; j += 4) {");
    out.line("a0 += " + entry.apply("j") + ";");
    out.line("a1 += " + entry.apply("j + 1") + ";");
    out.line("a2 += " + entry.apply("j + 2") + ";");
    out.line("a3 += " + entry.apply("j + 3") + ";");
    out.line("}");
    out.line("for (; j < nnz; j++) {");
    out.line(t + " c = " + entry.apply("j") + ";");
    out.line("switch (j & 3) {");
    out.line("case 0 -> a0 += c;");
    out.line("case 1 -> a1 += c;");
    out.line("default -> a2 += c;");
    out.line("}");
    out.line("}");
    out.line("return (a0 + a1) + (a2 + a3);");
  }

  private String updateReturns() {
    return rule.sums().isEmpty() ? "void" : t;
  }

  /** Row update forms of a rule with a {@code @Sum} function return that sum, one sum in entry order. */
  private void sumInit() {
    if (!rule.sums().isEmpty()) {
      out.line(t + " sum = 0;");
    }
  }

  private void sumAdd(CoordinateCode c) {
    for (LaneRule.Function f : rule.sums()) {
      out.line("sum += " + c.value(f.name()) + ";");
    }
  }

  private void sumReturn() {
    if (!rule.sums().isEmpty()) {
      out.line("return sum;");
    }
  }

  // ---------------------------------------------------------------- field rows

  private void fieldRows(boolean perCoordinate) {
    String sfx = suffix(perCoordinate);
    String segs = fieldSegments(perCoordinate);
    String row = "int[] idx, " + flavor.in + "[] val, int from, int nnz";

    predictRows(perCoordinate, sfx, segs, row);

    if (!rule.predictFieldOutputs().isEmpty()) {
      out.blank();
      out.doc("Writes the predict's new field values from the scratch.");
      out.line("static void commitRows" + sfx + "(" + segs + ", int[] idx, int from, int nnz" + scratchParams() + ") {");
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
    out.line("static " + updateReturns() + " updateRows" + sfx + "(" + segs + ", " + row + scratchParams() + ", " + t + " g" + uniformParams(perCoordinate) + ") {");
    CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
    sumInit();
    out.line("for (int j = 0; j < nnz; j++) {");
    out.line("int i = idx[from + j];");
    out.line(t + " x = val[from + j];");
    out.line(t + " gx = g * x;");
    CoordinateCode c = new CoordinateCode(rule, flavor, out, fieldLoad("i")).bind("x", "x").bind("g", "g").bind("gx", "gx");
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
    out.doc("Update after a separate predict that committed its field values (values recomputed from the state).");
    out.line("static " + updateReturns() + " updateRowsRecompute" + sfx + "(" + segs + ", " + row + ", " + t + " g" + uniformParams(perCoordinate) + ") {");
    CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
    sumInit();
    out.line("for (int j = 0; j < nnz; j++) {");
    out.line("int i = idx[from + j];");
    out.line(t + " x = val[from + j];");
    out.line(t + " gx = g * x;");
    c = new CoordinateCode(rule, flavor, out, fieldLoad("i")).bind("x", "x").bind("g", "g").bind("gx", "gx");
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
      out.doc("Update after a separate predict that committed its field values, with its weights {@code wIn[j]} (compact, entry {@code j}).");
      out.line("static " + updateReturns() + " updateRowsStored" + sfx + "(" + segs + ", " + t + "[] wIn, " + row + ", " + t + " g"
          + uniformParams(perCoordinate) + ") {");
      CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
      sumInit();
      out.line("for (int j = 0; j < nnz; j++) {");
      out.line("int i = idx[from + j];");
      out.line(t + " x = val[from + j];");
      out.line(t + " gx = g * x;");
      c = new CoordinateCode(rule, flavor, out, fieldLoad("i")).bind("x", "x").bind("g", "g").bind("gx", "gx")
          .bind("w", "wIn[j]");
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
  private void predictRows(boolean perCoordinate, String sfx, String segs, String row) {
    out.blank();
    out.line("/**");
    out.line(" * Predict over entries {@code [from, from + nnz)} on one segment per field" + (perCoordinate
        ? " (per-coordinate " + String.join(", ", rule.perCoordinate) + ")" : "") + ": returns {@code yhat}");
    out.line(" * summed in two partial sums (entry {@code j} into sum {@code j mod 2}); writes only the per-entry scratch.");
    out.line(" */");
    out.line("static " + t + " predictRows" + sfx + "(" + segs + ", " + row + scratchParams() + uniformParams(perCoordinate) + ") {");
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

  private void storeFields(CoordinateCode c, List<String> fromPredict, String index) {
    Set<String> store = new LinkedHashSet<>(fromPredict);
    store.addAll(c.written());
    for (String f : rule.fields) {
      if (store.contains(f)) {
        out.line(fieldStore(f, index, c.value(f)));
      }
    }
  }

  // ---------------------------------------------------------------- dense

  private void dense(boolean perCoordinate) {
    String sfx = suffix(perCoordinate);
    String segs = fieldSegments(perCoordinate);
    String x = "MemorySegment xs";
    String xLoad = "xs.getAtIndex(" + Flavor.layout(flavor.in) + ", i)";

    if (rule.computesWeight()) {
      out.blank();
      out.line("/**");
      out.line(" * Dense predict over {@code [from, to)} ({@code from} a multiple of {@code V}): commits the");
      out.line(" * predict's field values, writes {@code w_i} to {@code wOut} unless null, and fuses each");
      out.line(" * {@code x_i w_i} (0 where {@code x_i == 0}) into lane {@code p[i mod V]}: the virtual lanes' order");
      out.line(" * with one accumulator, the vector forms' bits; also their tail.");
      out.line(" */");
      out.line("static void predictDense" + sfx + "(" + segs + ", " + x + ", int from, int to, MemorySegment wOut, "
          + t + "[] p" + uniformParams(perCoordinate) + ") {");
      CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
      out.line("for (int i = from; i < to; i++) {");
      out.line(t + " x = " + xLoad + ";");
      CoordinateCode c = new CoordinateCode(rule, flavor, out, fieldLoad("i")).bind("x", "x");
      bindDerived(c, perCoordinate);
      c.calls(rule.phase(Phase.PREDICT));
      for (String f : c.written()) {
        out.line(fieldStore(f, "i", c.value(f)));
      }
      out.line("if (wOut != null) {");
      out.line("wOut.setAtIndex(" + Flavor.layout(t) + ", i, " + c.value("w") + ");");
      out.line("}");
      out.line("p[i % V] = Math.fma(x, x != 0 ? " + c.value("w") + " : 0, p[i % V]);");
      out.line("}");
      out.line("}");
    }

    out.blank();
    out.doc("Dense update over {@code [from, to)}, recomputing the predict values it reads from the state; also the vector forms' tail.");
    out.line("static void updateDense" + sfx + "(" + segs + ", " + x + ", int from, int to, " + t + " g" + uniformParams(perCoordinate) + ") {");
    CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
    out.line("for (int i = from; i < to; i++) {");
    out.line(t + " x = " + xLoad + ";");
    out.line(t + " gx = g * x;");
    CoordinateCode c = new CoordinateCode(rule, flavor, out, fieldLoad("i")).bind("x", "x").bind("g", "g").bind("gx", "gx");
    bindDerived(c, perCoordinate);
    recompute(c);
    c.calls(rule.updatesWithoutSums());
    storeFields(c, List.of(), "i");
    out.line("}");
    out.line("}");

    if (storedWeight()) {
      out.blank();
      out.doc("Dense update over {@code [from, to)} with the weights a storing predict wrote to {@code w}; also the vector forms' tail.");
      out.line("static void updateDenseStored" + sfx + "(" + segs + ", MemorySegment wIn, " + x + ", int from, int to, " + t + " g"
          + uniformParams(perCoordinate) + ") {");
      CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
      out.line("for (int i = from; i < to; i++) {");
      out.line(t + " x = " + xLoad + ";");
      out.line(t + " gx = g * x;");
      c = new CoordinateCode(rule, flavor, out, fieldLoad("i")).bind("x", "x").bind("g", "g").bind("gx", "gx")
          .bind("w", "wIn.getAtIndex(" + Flavor.layout(t) + ", i)");
      bindDerived(c, perCoordinate);
      c.calls(rule.updatesWithoutSums());
      storeFields(c, List.of(), "i");
      out.line("}");
      out.line("}");
    }

    out.blank();
    out.doc("Weight read-out over {@code [from, to)}; also the vector forms' tail.");
    out.line("static void weights" + sfx + "(" + segs + ", MemorySegment out, int from, int to" + uniformParams(perCoordinate) + ") {");
    CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
    out.line("for (int i = from; i < to; i++) {");
    c = new CoordinateCode(rule, flavor, out, fieldLoad("i"));
    bindDerived(c, perCoordinate);
    out.line("out.setAtIndex(" + Flavor.layout(flavor.in) + ", i, " + readOut(c) + ");");
    out.line("}");
    out.line("}");
  }

  /**
   * Whether the rule has a stored-weights dense update: its weight is computed and the weight is
   * the only predict value its update reads.
   */
  boolean storedWeight() {
    return rule.computesWeight() && rule.predictValuesForUpdate().stream().map(LaneRule.Function::name).toList()
        .equals(rule.closure(Set.of("w")).stream().map(LaneRule.Function::name).toList())
        && rule.phase(Phase.UPDATE).stream().anyMatch(f -> f.params().contains("w"));
  }
}
