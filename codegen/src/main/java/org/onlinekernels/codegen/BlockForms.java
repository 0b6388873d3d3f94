package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.List;
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
  private static final String STATE = "MemorySegment st, long step, long stride";

  BlockForms(LaneRule rule, Flavor flavor) {
    super(rule, flavor);
  }

  /** The block forms, in class order. */
  List<String> write() {
    List<String> out = new ArrayList<>();
    out.add(predictBlock());
    out.add(predictBlockSeparate());
    out.add(predictBlockEntry());
    if (!rule.predictFieldOutputs().isEmpty()) {
      out.add(commitBlock());
    }
    out.add(updateBlock());
    out.add(updateBlockRecompute());
    out.add(weightsBlock());
    out.add(gather());
    out.add(predictGathered());
    out.add(updateGathered());
    out.add(scatter());
    return out;
  }

  private String row() {
    return "int[] idx, " + t + "[] val, int from, int nnz";
  }

  /** The call of {@code predictBlockEntry} for entry {@code j}. */
  private String entry(String j) {
    String derived =
        rule.phase(Phase.UNIFORM).stream().map(f -> ", " + f.name()).reduce("", String::concat);
    return "predictBlockEntry(st, step, stride, idx, val, from, "
        + j
        + scratchArgs()
        + uniformArgs(false)
        + derived
        + ")";
  }

  private String predictBlock() {
    return Template.fill(
        """
        /**
         * Predict half of a fused round over entries {@code [from, from + nnz)} on block state:
         * returns {@code yhat}; writes only the per-entry scratch (${kept}).
         */
        static ${t} predictBlock(${state}, ${row}${scratch}${uniforms}) {
          ${derived}
          ${sums}
        }""",
        "kept",
        kept.isEmpty() ? "none" : keptNames(),
        "t",
        t,
        "state",
        STATE,
        "row",
        row(),
        "scratch",
        scratchParams(),
        "uniforms",
        uniformParams(false),
        "derived",
        derivedUniforms(false),
        "sums",
        partialSums(this::entry));
  }

  private String predictBlockSeparate() {
    return Template.fill(
        """
        /**
         * {@link #predictBlock} summed as a separate sparse predict always was: two partial sums,
         * entry {@code j} into sum {@code j mod 2}, combined as {@code s0 + s1}.
         */
        static ${t} predictBlockSeparate(${state}, ${row}${scratch}${uniforms}) {
          ${derived}
          ${t} a0 = 0, a1 = 0;
          int j = 0;
          for (; j + 1 < nnz; j += 2) {
            a0 += ${j};
            a1 += ${j1};
          }
          if (j < nnz) {
            a0 += ${j};
          }
          return a0 + a1;
        }""",
        "t",
        t,
        "state",
        STATE,
        "row",
        row(),
        "scratch",
        scratchParams(),
        "uniforms",
        uniformParams(false),
        "derived",
        derivedUniforms(false),
        "j",
        entry("j"),
        "j1",
        entry("j + 1"));
  }

  private String predictBlockEntry() {
    JavaWriter body = new JavaWriter();
    CoordinateCode c = new CoordinateCode(rule, flavor, body, blockLoad()).bind("x", "x");
    bindDerived(c);
    c.calls(predictForContribution());
    for (LaneRule.Function f : kept) {
      body.line(scratch(f.name()) + "[j] = " + c.value(f.name()) + ";");
    }
    body.line("return " + contribution(c) + ";");
    return Template.fill(
        """
        private static ${t} predictBlockEntry(${state}, ${row}${scratch}${uniforms}${derived}) {
          long b = idx[from + j] * stride;
          ${t} x = val[from + j];
          ${body}
        }""",
        "t",
        t,
        "state",
        STATE,
        "row",
        row().replace("int nnz", "int j"),
        "scratch",
        scratchParams(),
        "uniforms",
        uniformParams(false),
        "derived",
        derivedParams(),
        "body",
        body);
  }

  private String commitBlock() {
    List<String> stores = new ArrayList<>();
    for (String f : rule.predictFieldOutputs()) {
      stores.add(blockStore(f, scratch(f) + "[j]"));
    }
    return Template.fill(
        """
        /**
         * Writes the predict's new field values from the scratch: a predict whose update comes as a
         * separate call.
         */
        static void commitBlock(${state}, int[] idx, int from, int nnz${scratch}) {
          for (int j = 0; j < nnz; j++) {
            long b = idx[from + j] * stride;
            ${stores}
          }
        }""",
        "state",
        STATE,
        "scratch",
        scratchParams(),
        "stores",
        String.join("\n", stores));
  }

  private String updateBlock() {
    JavaWriter body = new JavaWriter();
    CoordinateCode c = updateEntry(body);
    for (LaneRule.Function f : kept) {
      c.bind(f.name(), scratch(f.name()) + "[j]");
    }
    c.calls(rule.phase(Phase.UPDATE));
    body.code(sumAdd(c));
    body.code(storeBlock(c, rule.predictFieldOutputs()));
    return updateLoop(
        """
        /**
         * Update half of the fused round {@link #predictBlock} began, with the loss derivative
         * {@code g}.
         */""",
        "updateBlock",
        scratchParams(),
        body);
  }

  private String updateBlockRecompute() {
    JavaWriter body = new JavaWriter();
    CoordinateCode c = updateEntry(body);
    recompute(c);
    c.calls(rule.phase(Phase.UPDATE));
    body.code(sumAdd(c));
    body.code(storeBlock(c, List.of()));
    return updateLoop(
        """
        /**
         * Update after a separate predict that committed its field values: the values the update
         * reads are recomputed from the state.
         */""",
        "updateBlockRecompute",
        "",
        body);
  }

  /** An update's per-entry code on block state, {@code x}, {@code g} and {@code gx} bound. */
  private CoordinateCode updateEntry(JavaWriter body) {
    CoordinateCode c =
        new CoordinateCode(rule, flavor, body, blockLoad())
            .bind("x", "x")
            .bind("g", "g")
            .bind("gx", "gx");
    bindDerived(c);
    return c;
  }

  /** An update form's loop over entries {@code [from, from + nnz)} of block state. */
  private String updateLoop(String doc, String name, String scratch, JavaWriter body) {
    return Template.fill(
        """
        ${doc}
        static ${returns} ${name}(${state}, ${row}${scratch}, ${t} g${uniforms}) {
          ${derived}
          ${sumInit}
          for (int j = 0; j < nnz; j++) {
            long b = idx[from + j] * stride;
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
        "state",
        STATE,
        "row",
        row(),
        "scratch",
        scratch,
        "t",
        t,
        "uniforms",
        uniformParams(false),
        "derived",
        derivedUniforms(false),
        "sumInit",
        sumInit(),
        "body",
        body,
        "sumReturn",
        sumReturn());
  }

  private String weightsBlock() {
    JavaWriter body = new JavaWriter();
    CoordinateCode c = new CoordinateCode(rule, flavor, body, blockLoad());
    bindDerived(c);
    body.line("out.setAtIndex(" + Flavor.layout(flavor.in) + ", i, " + readOut(c) + ");");
    return Template.fill(
        """
        /** Weight read-out of coordinates {@code [0, n)} into {@code out} (contiguous). */
        static void weightsBlock(${state}, MemorySegment out, int n${uniforms}) {
          ${derived}
          for (int i = 0; i < n; i++) {
            long b = i * stride;
            ${body}
          }
        }""",
        "state",
        STATE,
        "uniforms",
        uniformParams(false),
        "derived",
        derivedUniforms(false),
        "body",
        body);
  }

  /**
   * The fused round in three steps: gather a row's records into one array per field, compute on
   * those arrays (a loop the vector forms can run lane-wise), scatter the changed fields back. Each
   * entry runs the same lane calls on the same values as the entry-by-entry forms, and the
   * contributions are summed in the same four partial sums, so the bits are theirs.
   */
  private String gather() {
    List<String> loads = new ArrayList<>();
    for (String f : rule.fields) {
      loads.add(record(f) + "[j] = " + blockLoad().apply(f) + ";");
    }
    return Template.fill(
        """
        /**
         * Loads the records of entries {@code [from, from + nnz)}: field {@code f} of entry {@code
         * j} into {@code rec<f>[j]}.
         */
        static void gather(${state}, int[] idx, int from, int nnz, ${recs}) {
          for (int j = 0; j < nnz; j++) {
            long b = idx[from + j] * stride;
            ${loads}
          }
        }""",
        "state",
        STATE,
        "recs",
        recordParams(),
        "loads",
        String.join("\n", loads));
  }

  private String recordParams() {
    return String.join(", ", rule.fields.stream().map(f -> t + "[] " + record(f)).toList());
  }

  private String predictGathered() {
    JavaWriter body = new JavaWriter();
    CoordinateCode c =
        new CoordinateCode(rule, flavor, body, f -> record(f) + "[j]").bind("x", "x");
    bindDerived(c);
    c.calls(predictForContribution());
    for (LaneRule.Function f : kept) {
      body.line(scratch(f.name()) + "[j] = " + c.value(f.name()) + ";");
    }
    body.line("contrib[j] = " + contribution(c) + ";");
    return Template.fill(
        """
        /**
         * Predict half of a gathered round over entries {@code [jFrom, jTo)}: the kept values into
         * their scratch, each entry's contribution {@code x w} into {@code contrib} (summed by the
         * caller).
         */
        static void predictGathered(${recs}, ${t}[] val, int from, int jFrom, int jTo${scratch}, \
        ${t}[] contrib${uniforms}) {
          ${derived}
          for (int j = jFrom; j < jTo; j++) {
            ${t} x = val[from + j];
            ${body}
          }
        }""",
        "recs",
        recordParams(),
        "t",
        t,
        "scratch",
        scratchParams(),
        "uniforms",
        uniformParams(false),
        "derived",
        derivedUniforms(false),
        "body",
        body);
  }

  private String updateGathered() {
    JavaWriter body = new JavaWriter();
    CoordinateCode c =
        new CoordinateCode(rule, flavor, body, f -> record(f) + "[j]")
            .bind("x", "x")
            .bind("g", "g")
            .bind("gx", "gx");
    bindDerived(c);
    for (LaneRule.Function f : kept) {
      c.bind(f.name(), scratch(f.name()) + "[j]");
    }
    c.calls(rule.phase(Phase.UPDATE));
    body.code(sumAdd(c));
    for (String f : rule.fields) {
      if (c.written().contains(f)) {
        body.line(record(f) + "[j] = " + c.value(f) + ";");
      }
    }
    return Template.fill(
        """
        /**
         * Update half of a gathered round over entries {@code [jFrom, jTo)}, with the loss
         * derivative {@code g}: the fields the update changes get their new values in their record
         * arrays.
         */
        static ${returns} updateGathered(${recs}, ${t}[] val, int from, int jFrom, int jTo\
        ${scratch}, ${t} g${uniforms}) {
          ${derived}
          ${sumInit}
          for (int j = jFrom; j < jTo; j++) {
            ${t} x = val[from + j];
            ${t} gx = g * x;
            ${body}
          }
          ${sumReturn}
        }""",
        "returns",
        updateReturns(),
        "recs",
        recordParams(),
        "t",
        t,
        "scratch",
        scratchParams(),
        "uniforms",
        uniformParams(false),
        "derived",
        derivedUniforms(false),
        "sumInit",
        sumInit(),
        "body",
        body,
        "sumReturn",
        sumReturn());
  }

  private String scatter() {
    List<String> changed = changedFields(rule);
    List<String> stores = new ArrayList<>();
    for (String f : changed) {
      stores.add(blockStore(f, f + "New[j]"));
    }
    return Template.fill(
        """
        /**
         * Writes a gathered round's changed fields back to the records of entries {@code [from,
         * from + nnz)}: ${changed} (an update's new value, else the predict's).
         */
        static void scatter(${state}, int[] idx, int from, int nnz${params}) {
          for (int j = 0; j < nnz; j++) {
            long b = idx[from + j] * stride;
            ${stores}
          }
        }""",
        "changed",
        String.join(", ", changed.stream().map(f -> "{@code " + f + "}").toList()),
        "state",
        STATE,
        "params",
        changed.stream().map(f -> ", " + t + "[] " + f + "New").reduce("", String::concat),
        "stores",
        String.join("\n", stores));
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
   * The stores of every field written by the update, and of the predict's kept field values not
   * overwritten.
   */
  String storeBlock(CoordinateCode c, List<String> fromPredict) {
    List<String> lines = new ArrayList<>();
    for (String f : rule.fields) {
      if (fromPredict.contains(f) || c.written().contains(f)) {
        lines.add(blockStore(f, c.value(f)));
      }
    }
    return String.join("\n", lines);
  }
}
