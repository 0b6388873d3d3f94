package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The adapter methods over interleaved state ({@code <Rule>RuleForms}' block and gathered forms):
 * each switches on the element type and calls the generated block forms.
 */
final class InterleavedDispatch {
  private static final String ROWS = DispatchWriter.ROWS;
  private static final String BLOCK = "MemorySegment st, long step, long stride";

  private final LaneRule rule;
  private final DispatchWriter w;
  private final int kept;

  InterleavedDispatch(LaneRule rule, DispatchWriter w) {
    this.rule = rule;
    this.w = w;
    this.kept = w.kept;
  }

  /** The methods over interleaved state, in class order. */
  List<String> write() {
    List<String> out = new ArrayList<>();
    // The fused round's predict and a separate sparse predict: the same arguments.
    for (String predict : List.of("predictBlock", "predictBlockSeparate")) {
      out.add(
          w.method(
              "double " + predict + "(" + BLOCK + ", " + ROWS + ", RoundScratch s, double[] u)",
              true,
              false,
              f ->
                  "return "
                      + w.forms(f)
                      + "."
                      + predict
                      + "(st, step, stride, idx, "
                      + DispatchWriter.vals(f)
                      + ", from, nnz"
                      + w.scratch(f)
                      + w.uniforms(f, false)
                      + ");"));
    }
    out.add(
        w.method(
            "void commitBlock(" + BLOCK + ", int[] idx, int from, int nnz, RoundScratch s)",
            true,
            false,
            f ->
                rule.predictFieldOutputs().isEmpty()
                    ? "return;"
                    : w.forms(f)
                        + ".commitBlock(st, step, stride, idx, from, nnz"
                        + w.scratch(f)
                        + ");"));
    out.add(update("updateBlock", "RoundScratch s, double g", true));
    out.add(update("updateBlockRecompute", "double g", false));
    out.add(
        w.method(
            "void weightsBlock(" + BLOCK + ", MemorySegment out, int n, double[] u)",
            true,
            false,
            f ->
                w.forms(f)
                    + ".weightsBlock(st, step, stride, out, n"
                    + w.uniforms(f, false)
                    + ");"));
    out.add(predictGathered());
    out.add(updateGathered());
    return out;
  }

  private String update(String name, String params, boolean withKept) {
    return w.method(
        "double " + name + "(" + BLOCK + ", " + ROWS + ", " + params + ", double[] u)",
        true,
        false,
        f ->
            w.sum(
                w.forms(f)
                    + "."
                    + name
                    + "(st, step, stride, idx, "
                    + w.updateArgs(f, false, withKept)
                    + ")"));
  }

  /** The scratch's record arrays ({@code s.f(k)} or {@code s.d(k)}), one per field. */
  private String records(Flavor f) {
    String a = f.t.equals("float") ? "f" : "d";
    return String.join(
        ", ",
        IntStream.range(0, rule.fields.size())
            .mapToObj(k -> "s." + a + "(" + (kept + k) + ")")
            .toList());
  }

  /** The scratch's contribution array. */
  private String contributions(Flavor f) {
    return "s." + (f.t.equals("float") ? "f" : "d") + "(" + (kept + rule.fields.size()) + ")";
  }

  private String predictGathered() {
    return w.method(
        "double predictGathered(" + BLOCK + ", " + ROWS + ", RoundScratch s, double[] u)",
        true,
        false,
        f ->
            Template.fill(
                """
                ${t}[] heap = s.heap${L}s();
                if (heap != null) {
                  s.rowIndices(${hw}.indexMap(idx, from, nnz, stride, s.indexMap()));
                ${hwFields}
                } else {
                  ${forms}.gather(st, step, stride, idx, from, nnz, ${recs});
                }
                if (vector) {
                  ${vectors}.predictGathered(${recs}, ${vals}, from, nnz${scratch}, ${contrib}\
                ${uniforms});
                } else {
                  ${forms}.predictGathered(${recs}, ${vals}, from, 0, nnz${scratch}, ${contrib}\
                ${uniforms});
                }
                return org.onlinekernels.kernel.lanes.${L}RowSums.sum4(${contrib}, nnz);""",
                "forms",
                w.forms(f),
                "recs",
                records(f),
                "vectors",
                VectorForms.className(rule, f),
                "vals",
                DispatchWriter.vals(f),
                "scratch",
                w.scratch(f),
                "contrib",
                contributions(f),
                "uniforms",
                w.uniforms(f, false),
                "L",
                f.lanes,
                "t",
                f.t,
                "hw",
                hardwareGathers(f),
                "hwFields",
                hardwareFields(f)));
  }

  /** The hand-written hardware gathers of the flavor's element type (kernel.vector). */
  private static String hardwareGathers(Flavor f) {
    return "org.onlinekernels.kernel.vector." + f.lanes + "RecordGathers";
  }

  /** One hardware gather per field: field {@code k} at {@code k * step} into its record array. */
  private String hardwareFields(Flavor f) {
    String a = f.t.equals("float") ? "f" : "d";
    return String.join(
        "\n",
        IntStream.range(0, rule.fields.size())
            .mapToObj(
                k ->
                    hardwareGathers(f)
                        + ".gather(heap, "
                        + k
                        + " * step, s.indexMap(), nnz, s."
                        + a
                        + "("
                        + (kept + k)
                        + "), s.hardwareGathers());")
            .toList());
  }

  private String updateGathered() {
    return w.method(
        "double updateGathered(" + BLOCK + ", " + ROWS + ", RoundScratch s, double g, double[] u)",
        true,
        false,
        f -> {
          String scalar =
              w.forms(f)
                  + ".updateGathered("
                  + records(f)
                  + ", "
                  + DispatchWriter.vals(f)
                  + ", from, 0, nnz"
                  + w.scratch(f)
                  + ", "
                  + DispatchWriter.cast(f)
                  + "g"
                  + w.uniforms(f, false)
                  + ")";
          String update =
              rule.sums().isEmpty()
                  ? Template.fill(
                      """
                      if (vector) {
                        ${vectors}.updateGathered(${recs}, ${args});
                      } else {
                        ${scalar};
                      }""",
                      "vectors",
                      VectorForms.className(rule, f),
                      "recs",
                      records(f),
                      "args",
                      w.updateArgs(f, false, true),
                      "scalar",
                      scalar)
                  : f.t + " sum = " + scalar + ";";
          return update
              + "\n"
              + f.t
              + "[] heap = s.heap"
              + f.lanes
              + "s();\nif (heap != null) {\n"
              + hardwareScatters(f)
              + "\n} else {\n"
              + w.forms(f)
              + ".scatter(st, step, stride, idx, from, nnz"
              + changed(f)
              + ");\n}\n"
              + (rule.sums().isEmpty() ? "return 0;" : "return sum;");
        });
  }

  /**
   * The scatter's sources: an update's new values (record arrays), else the predict's kept ones.
   */
  private String changed(Flavor f) {
    StringBuilder changed = new StringBuilder();
    for (String field : ScalarForms.changedFields(rule)) {
      changed.append(", ").append(source(f, field));
    }
    return changed.toString();
  }

  /** The scratch array a changed field is written back from. */
  private String source(Flavor f, String field) {
    String a = f.t.equals("float") ? "f" : "d";
    int k =
        rule.updateFieldOutputs().contains(field)
            ? kept + rule.fields.indexOf(field)
            : ScalarForms.kept(rule).indexOf(field);
    return "s." + a + "(" + k + ")";
  }

  /**
   * The changed fields written back through the index map of the predict half's gather, one field
   * at a time, at {@code k * step} for field {@code k}.
   */
  private String hardwareScatters(Flavor f) {
    return String.join(
        "\n",
        ScalarForms.changedFields(rule).stream()
            .map(
                field ->
                    hardwareGathers(f)
                        + ".scatter(heap, "
                        + rule.fields.indexOf(field)
                        + " * step, s.indexMap(), nnz, "
                        + source(f, field)
                        + ", s.hardwareScatters());")
            .toList());
  }
}
