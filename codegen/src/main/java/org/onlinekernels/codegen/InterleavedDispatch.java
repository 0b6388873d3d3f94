package org.onlinekernels.codegen;

import java.util.List;

/**
 * The adapter methods over interleaved state ({@code <Rule>RuleForms}' block and gathered forms):
 * each switches on the element type and calls the generated block forms.
 */
final class InterleavedDispatch {
  private final LaneRule rule;
  private final DispatchWriter w;
  private final int kept;

  InterleavedDispatch(LaneRule rule, DispatchWriter w) {
    this.rule = rule;
    this.w = w;
    this.kept = w.kept;
  }

  void write() {
    String rows = DispatchWriter.ROWS;
    String block = "MemorySegment st, long step, long stride";
    // The fused round's predict and a separate sparse predict: the same arguments.
    for (String predict : List.of("predictBlock", "predictBlockSeparate")) {
      w.method(
          "double " + predict + "(" + block + ", " + rows + ", RoundScratch s, double[] u)",
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
                  + ");");
    }
    w.method(
        "void commitBlock(" + block + ", int[] idx, int from, int nnz, RoundScratch s)",
        true,
        false,
        f ->
            rule.predictFieldOutputs().isEmpty()
                ? "return;"
                : w.forms(f)
                    + ".commitBlock(st, step, stride, idx, from, nnz"
                    + w.scratch(f)
                    + ");");
    w.method(
        "double updateBlock(" + block + ", " + rows + ", RoundScratch s, double g, double[] u)",
        true,
        false,
        f ->
            w.sum(
                w.forms(f)
                    + ".updateBlock(st, step, stride, idx, "
                    + w.updateArgs(f, false, true)
                    + ")"));
    w.method(
        "double updateBlockRecompute(" + block + ", " + rows + ", double g, double[] u)",
        true,
        false,
        f ->
            w.sum(
                w.forms(f)
                    + ".updateBlockRecompute(st, step, stride, idx, "
                    + w.updateArgs(f, false, false)
                    + ")"));
    w.method(
        "void weightsBlock(" + block + ", MemorySegment out, int n, double[] u)",
        true,
        false,
        f -> w.forms(f) + ".weightsBlock(st, step, stride, out, n" + w.uniforms(f, false) + ");");

    String recs =
        String.join(
            "",
            java.util.stream.IntStream.range(0, rule.fields.size())
                .mapToObj(k -> ", s.%s(" + (kept + k) + ")")
                .toList());
    String contributions = ", s.%s(" + (kept + rule.fields.size()) + ")";
    w.method(
        "double predictGathered(" + block + ", " + rows + ", RoundScratch s, double[] u)",
        true,
        false,
        f -> {
          String a = f.t.equals("float") ? "f" : "d";
          String r = recs.formatted(DispatchWriter.repeat(a, rule.fields.size()));
          return w.forms(f)
              + ".gather(st, step, stride, idx, from, nnz"
              + r
              + ");\n"
              + "if (vector) {\n"
              + VectorForms.className(rule, f)
              + ".predictGathered("
              + r.substring(2)
              + ", "
              + DispatchWriter.vals(f)
              + ", from, nnz"
              + w.scratch(f)
              + contributions.formatted(a)
              + w.uniforms(f, false)
              + ");\n} else {\n"
              + w.forms(f)
              + ".predictGathered("
              + r.substring(2)
              + ", "
              + DispatchWriter.vals(f)
              + ", from, 0, nnz"
              + w.scratch(f)
              + contributions.formatted(a)
              + w.uniforms(f, false)
              + ");\n}\n"
              + "return org.onlinekernels.kernel.lanes."
              + f.lanes
              + "RowSums.sum4(s."
              + a
              + "("
              + (kept + rule.fields.size())
              + "), nnz);";
        });
    w.method(
        "double updateGathered(" + block + ", " + rows + ", RoundScratch s, double g, double[] u)",
        true,
        false,
        f -> {
          String a = f.t.equals("float") ? "f" : "d";
          String r = recs.formatted(DispatchWriter.repeat(a, rule.fields.size()));
          String scalar =
              w.forms(f)
                  + ".updateGathered("
                  + r.substring(2)
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
                  ? "if (vector) {\n"
                      + VectorForms.className(rule, f)
                      + ".updateGathered("
                      + r.substring(2)
                      + ", "
                      + w.updateArgs(f, false, true)
                      + ");\n} else {\n"
                      + scalar
                      + ";\n}\n"
                  : f.t + " sum = " + scalar + ";\n";
          StringBuilder changed = new StringBuilder();
          List<String> updated = rule.updateFieldOutputs();
          List<String> keptNames = ScalarForms.kept(rule);
          for (String field : ScalarForms.changedFields(rule)) {
            int k =
                updated.contains(field)
                    ? kept + rule.fields.indexOf(field)
                    : keptNames.indexOf(field);
            changed.append(", s.").append(a).append('(').append(k).append(')');
          }
          return update
              + w.forms(f)
              + ".scatter(st, step, stride, idx, from, nnz"
              + changed
              + ");\n"
              + (rule.sums().isEmpty() ? "return 0;" : "return sum;");
        });
  }
}
