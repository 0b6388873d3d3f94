package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.List;
import org.onlinekernels.codegen.LaneRule.Phase;
import org.onlinekernels.codegen.VectorTranslator.Kind;
import org.onlinekernels.codegen.VectorTranslator.Value;

/**
 * The compute steps of a gathered round lane-wise ({@code <Flavor><Rule>Vectors}' gathered forms;
 * see {@link BlockForms} for the plain-Java ones): entry {@code j} in lane {@code j mod L}, each
 * lane doing the entry's scalar operations; the tail, and a rule's summed update values, run the
 * plain-Java forms.
 */
final class VectorGathered extends LaneForms {
  private final List<LaneRule.Function> kept;
  private final String recs;
  private final String recArgs;
  private final String keptParams;
  private final String keptArgs;

  VectorGathered(LaneRule rule, Flavor flavor) {
    super(rule, flavor);
    this.kept = ScalarForms.kept(rule).stream().map(rule.functions::get).toList();
    this.recs =
        String.join(
            ", ", rule.fields.stream().map(f -> flavor.t + "[] " + ScalarForms.record(f)).toList());
    this.recArgs = String.join(", ", rule.fields.stream().map(ScalarForms::record).toList());
    this.keptParams =
        kept.stream()
            .map(f -> ", " + flavor.t + "[] " + ScalarForms.scratch(f.name()))
            .reduce("", String::concat);
    this.keptArgs =
        kept.stream().map(f -> ", " + ScalarForms.scratch(f.name())).reduce("", String::concat);
  }

  /** The gathered forms, in class order. */
  List<String> write() {
    List<String> out = new ArrayList<>();
    out.add(predictGathered());
    if (rule.sums().isEmpty()) {
      out.add(updateGathered());
    }
    return out;
  }

  /** The lane values of the entries at {@code j}, the fields read from their record arrays. */
  private Coordinate entries(JavaWriter body) {
    Coordinate c = new Coordinate(body);
    c.loader = f -> v + ".fromArray(S, " + ScalarForms.record(f) + ", j)";
    c.bindUniforms(false);
    c.bound.put("x", c.tr.declare("xv", new Value(v + ".fromArray(S, val, from + j)", Kind.LANE)));
    return c;
  }

  private String predictGathered() {
    JavaWriter body = new JavaWriter();
    Coordinate c = entries(body);
    c.calls(rule.phase(Phase.PREDICT));
    for (LaneRule.Function f : kept) {
      body.line(
          c.bound.get(f.name()).code() + ".intoArray(" + ScalarForms.scratch(f.name()) + ", j);");
    }
    String zero = flavor.t.equals("float") ? "0f" : "0.0";
    String w = rule.computesWeight() ? c.bound.get("w").code() : c.value(rule.weightField).code();
    body.line(
        (rule.computesWeight()
                ? "xv.mul("
                    + w
                    + ").blend("
                    + zero
                    + ", xv.compare(VectorOperators.EQ, "
                    + zero
                    + "))"
                : "xv.mul(" + w + ")")
            + ".intoArray(contrib, j);");
    return Template.fill(
        """
        /**
         * Predict half of a gathered round over entries {@code [0, nnz)}: kept values and
         * contributions, lane-wise.
         */
        static void predictGathered(${recs}, ${t}[] val, int from, int nnz${kept}, \
        ${t}[] contrib${uniforms}) {
          ${derived}
          int bound = S.loopBound(nnz);
          for (int j = 0; j < bound; j += L) {
            ${body}
          }
          ${forms}.predictGathered(${recArgs}, val, from, bound, nnz${keptArgs}, contrib\
        ${uniformArgs});
        }""",
        "recs",
        recs,
        "t",
        flavor.t,
        "kept",
        keptParams,
        "uniforms",
        uniformParams(false),
        "derived",
        derivedUniforms(false),
        "body",
        body,
        "forms",
        forms,
        "recArgs",
        recArgs,
        "keptArgs",
        keptArgs,
        "uniformArgs",
        uniformArgs(false));
  }

  private String updateGathered() {
    JavaWriter body = new JavaWriter();
    Coordinate c = entries(body);
    c.bound.put("g", new Value("g", Kind.NUMBER));
    c.bound.put("gx", c.tr.declare("gx", new Value("xv.mul(g)", Kind.LANE)));
    for (LaneRule.Function f : kept) {
      if (rule.phase(Phase.UPDATE).stream().noneMatch(u -> u.params().contains(f.name()))) {
        continue;
      }
      String load = v + ".fromArray(S, " + ScalarForms.scratch(f.name()) + ", j)";
      c.bound.put(f.name(), c.tr.declare(f.name() + "Kept", new Value(load, Kind.LANE)));
    }
    c.calls(rule.phase(Phase.UPDATE));
    for (String f : rule.fields) {
      if (c.written.contains(f)) {
        body.line(c.bound.get(f).code() + ".intoArray(" + ScalarForms.record(f) + ", j);");
      }
    }
    return Template.fill(
        """
        /**
         * Update half of a gathered round over entries {@code [0, nnz)}, lane-wise: new field
         * values into the record arrays.
         */
        static void updateGathered(${recs}, ${t}[] val, int from, int nnz${kept}, ${t} g\
        ${uniforms}) {
          ${derived}
          int bound = S.loopBound(nnz);
          for (int j = 0; j < bound; j += L) {
            ${body}
          }
          ${forms}.updateGathered(${recArgs}, val, from, bound, nnz${keptArgs}, g${uniformArgs});
        }""",
        "recs",
        recs,
        "t",
        flavor.t,
        "kept",
        keptParams,
        "uniforms",
        uniformParams(false),
        "derived",
        derivedUniforms(false),
        "body",
        body,
        "forms",
        forms,
        "recArgs",
        recArgs,
        "keptArgs",
        keptArgs,
        "uniformArgs",
        uniformArgs(false));
  }
}
