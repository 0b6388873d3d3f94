package org.onlinekernels.codegen;

import java.util.List;
import org.onlinekernels.codegen.LaneRule.Phase;
import org.onlinekernels.codegen.VectorTranslator.Kind;
import org.onlinekernels.codegen.VectorTranslator.Value;

/**
 * The compute steps of a gathered round lane-wise ({@code <Flavor><Rule>Vectors}' gathered forms;
 * see {@link BlockForms} for the plain-Java ones).
 */
final class VectorGathered extends LaneForms {
  VectorGathered(LaneRule rule, Flavor flavor, JavaWriter out) {
    super(rule, flavor, out);
  }

  /**
   * The compute steps of a gathered round (ScalarForms' {@code gathered}) lane-wise over the record
   * arrays: entry {@code j} in lane {@code j mod L}, each lane doing the entry's scalar operations;
   * the tail, and a rule's summed update values, run the plain-Java forms.
   */
  void write() {
    String recs =
        String.join(
            ", ", rule.fields.stream().map(f -> flavor.t + "[] " + ScalarForms.record(f)).toList());
    String recArgs = String.join(", ", rule.fields.stream().map(ScalarForms::record).toList());
    List<LaneRule.Function> kept =
        ScalarForms.kept(rule).stream().map(rule.functions::get).toList();
    String keptParams =
        kept.stream()
            .map(f -> ", " + flavor.t + "[] " + ScalarForms.scratch(f.name()))
            .reduce("", String::concat);
    String keptArgs =
        kept.stream().map(f -> ", " + ScalarForms.scratch(f.name())).reduce("", String::concat);
    String zero = flavor.t.equals("float") ? "0f" : "0.0";

    out.blank();
    out.doc(
        "Predict half of a gathered round over entries {@code [0, nnz)}: kept values and contributions, lane-wise.");
    out.line(
        "static void predictGathered("
            + recs
            + ", "
            + flavor.t
            + "[] val, int from, int nnz"
            + keptParams
            + ", "
            + flavor.t
            + "[] contrib"
            + uniformParams(false)
            + ") {");
    CoordinateCode.uniforms(rule, flavor, out, false);
    out.line("int bound = S.loopBound(nnz);");
    out.line("for (int j = 0; j < bound; j += L) {");
    Coordinate c = new Coordinate();
    c.loader = f -> v + ".fromArray(S, " + ScalarForms.record(f) + ", j)";
    c.bindUniforms(false);
    Value x = c.tr.declare("xv", new Value(v + ".fromArray(S, val, from + j)", Kind.LANE));
    c.bound.put("x", x);
    c.calls(rule.phase(Phase.PREDICT));
    for (LaneRule.Function f : kept) {
      out.line(
          c.bound.get(f.name()).code() + ".intoArray(" + ScalarForms.scratch(f.name()) + ", j);");
    }
    String w = rule.computesWeight() ? c.bound.get("w").code() : c.value(rule.weightField).code();
    String contribution =
        rule.computesWeight()
            ? "xv.mul(" + w + ").blend(" + zero + ", xv.compare(VectorOperators.EQ, " + zero + "))"
            : "xv.mul(" + w + ")";
    out.line(contribution + ".intoArray(contrib, j);");
    out.line("}");
    out.line(
        forms
            + ".predictGathered("
            + recArgs
            + ", val, from, bound, nnz"
            + keptArgs
            + ", contrib"
            + uniformArgs(false)
            + ");");
    out.line("}");

    if (rule.sums().isEmpty()) {
      out.blank();
      out.doc(
          "Update half of a gathered round over entries {@code [0, nnz)}, lane-wise: new field values into the record arrays.");
      out.line(
          "static void updateGathered("
              + recs
              + ", "
              + flavor.t
              + "[] val, int from, int nnz"
              + keptParams
              + ", "
              + flavor.t
              + " g"
              + uniformParams(false)
              + ") {");
      CoordinateCode.uniforms(rule, flavor, out, false);
      out.line("int bound = S.loopBound(nnz);");
      out.line("for (int j = 0; j < bound; j += L) {");
      c = new Coordinate();
      c.loader = f -> v + ".fromArray(S, " + ScalarForms.record(f) + ", j)";
      c.bindUniforms(false);
      c.bound.put("g", new Value("g", Kind.NUMBER));
      x = c.tr.declare("xv", new Value(v + ".fromArray(S, val, from + j)", Kind.LANE));
      c.bound.put("x", x);
      c.bound.put("gx", c.tr.declare("gx", new Value(x.code() + ".mul(g)", Kind.LANE)));
      for (LaneRule.Function f : kept) {
        if (rule.phase(Phase.UPDATE).stream().noneMatch(u -> u.params().contains(f.name()))) {
          continue;
        }
        c.bound.put(
            f.name(),
            c.tr.declare(
                f.name() + "Kept",
                new Value(
                    v + ".fromArray(S, " + ScalarForms.scratch(f.name()) + ", j)", Kind.LANE)));
      }
      c.calls(rule.phase(Phase.UPDATE));
      for (String f : rule.fields) {
        if (c.written.contains(f)) {
          out.line(c.bound.get(f).code() + ".intoArray(" + ScalarForms.record(f) + ", j);");
        }
      }
      out.line("}");
      out.line(
          forms
              + ".updateGathered("
              + recArgs
              + ", val, from, bound, nnz"
              + keptArgs
              + ", g"
              + uniformArgs(false)
              + ");");
      out.line("}");
    }
  }
}
