package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.List;

/**
 * The rule's forms behind the engine's {@code RuleForms} interface, {@code <Rule>RuleForms}: one
 * instance per element type (float, double, mixed), provider (vector or plain Java) and variant
 * (uniform or per-coordinate), each method dispatching on those to the generated forms. The
 * optimizers' engine holds one instance and runs the rule through it.
 */
final class FormsAdapter {
  private final LaneRule rule;
  private final JavaWriter out = new JavaWriter();
  private final String name;
  private final boolean stored;
  private final int kept;

  FormsAdapter(LaneRule rule) {
    this.rule = rule;
    this.name = className(rule);
    this.stored = new ScalarForms(rule, Flavor.FLOAT).storedWeight();
    this.kept = ScalarForms.kept(rule).size();
  }

  static String className(LaneRule rule) {
    return rule.name + "RuleForms";
  }

  private List<Flavor> flavors() {
    return rule.hasMixed()
        ? List.of(Flavor.FLOAT, Flavor.DOUBLE, Flavor.MIXED)
        : List.of(Flavor.FLOAT, Flavor.DOUBLE);
  }

  String source() {
    out.line("package " + rule.packageName + ";");
    out.blank();
    out.line("import java.lang.foreign.MemorySegment;");
    out.line("import java.util.List;");
    out.line("import org.onlinekernels.kernel.lanes.RoundScratch;");
    out.line("import org.onlinekernels.kernel.lanes.RuleForms;");
    out.line("import org.onlinekernels.kernel.lanes.RuleShape;");
    out.blank();
    out.line("/**");
    out.line(
        " * "
            + rule.name
            + "'s generated forms behind {@link RuleForms}: one instance per element type, provider and");
    out.line(" * variant, each method dispatching to the forms of {@link " + rule.ruleClass + "}.");
    out.line(" */");
    out.line("final class " + name + " implements RuleForms {");
    out.doc("Element types: the flavor numbers of {@link #of}.");
    out.line(
        "static final int FLOAT = RuleShape.FLOAT, DOUBLE = RuleShape.DOUBLE, MIXED = RuleShape.MIXED;");
    out.doc("Uniforms in {@code u} order.");
    out.line(
        "static final String[] UNIFORMS = {"
            + String.join(
                ", ",
                rule.uniforms().keySet().stream()
                    .filter(k -> rule.uniforms().get(k).equals("float"))
                    .map(k -> "\"" + k + "\"")
                    .toList())
            + "};");
    out.doc("Per-coordinate uniforms, the buffers after the fields in the per-coordinate variant.");
    out.line(
        "static final String[] PER_COORDINATE = {"
            + String.join(", ", rule.perCoordinate.stream().map(k -> "\"" + k + "\"").toList())
            + "};");
    out.doc("The state fields in record order.");
    out.line(
        "static final String[] FIELDS = {"
            + String.join(", ", rule.fields.stream().map(k -> "\"" + k + "\"").toList())
            + "};");
    out.doc("Whether the rule has a mixed-precision form.");
    out.line("static final boolean HAS_MIXED = " + rule.hasMixed() + ";");
    out.doc("Predict values a fused round keeps per entry.");
    out.line("static final int KEPT = " + kept + ";");
    out.doc("The rule as the optimizers' engine sees it.");
    out.line(
        "static final RuleShape SHAPE = new RuleShape(List.of(FIELDS), List.of("
            + String.join(", ", rule.mixedFloatFields.stream().map(k -> "\"" + k + "\"").toList())
            + "), List.of(UNIFORMS), List.of(PER_COORDINATE), KEPT, "
            + name
            + "::of);");
    out.blank();
    out.line("private final int flavor;");
    out.line("private final boolean vector;");
    out.line("private final boolean perCoordinate;");
    out.blank();
    out.line("private " + name + "(int flavor, boolean vector, boolean perCoordinate) {");
    out.line("this.flavor = flavor;");
    out.line("this.vector = vector;");
    out.line("this.perCoordinate = perCoordinate;");
    out.line("}");
    out.blank();
    out.doc(
        "The forms for element type {@code flavor} ({@link #FLOAT}, {@link #DOUBLE}, {@link #MIXED}), on the vector provider or not, in the per-coordinate variant or not.");
    out.line("static " + name + " of(int flavor, boolean vector, boolean perCoordinate) {");
    out.line("if (flavor == MIXED && !HAS_MIXED || perCoordinate && PER_COORDINATE.length == 0) {");
    out.line("throw new IllegalArgumentException(\"" + rule.name + " has no such form\");");
    out.line("}");
    out.line("return new " + name + "(flavor, vector, perCoordinate);");
    out.line("}");
    simple("int fields()", Integer.toString(rule.fields.size()));
    simple("boolean computesWeight()", Boolean.toString(rule.computesWeight()));
    simple(
        "int weightField()",
        Integer.toString(rule.computesWeight() ? -1 : rule.fields.indexOf(rule.weightField)));
    simple("boolean perCoordinate()", "perCoordinate");
    simple("boolean storesWeights()", Boolean.toString(stored));

    String block = "MemorySegment st, long step, long stride";
    String rows = "int[] idx, float[] vf, double[] vd, int from, int nnz";
    method(
        "double predictBlock(" + block + ", " + rows + ", RoundScratch s, double[] u)",
        true,
        false,
        f ->
            "return "
                + forms(f)
                + ".predictBlock(st, step, stride, idx, "
                + vals(f)
                + ", from, nnz"
                + scratch(f)
                + uniforms(f, false)
                + ");");
    method(
        "double predictBlockSeparate(" + block + ", " + rows + ", RoundScratch s, double[] u)",
        true,
        false,
        f ->
            "return "
                + forms(f)
                + ".predictBlockSeparate(st, step, stride, idx, "
                + vals(f)
                + ", from, nnz"
                + scratch(f)
                + uniforms(f, false)
                + ");");
    method(
        "void commitBlock(" + block + ", int[] idx, int from, int nnz, RoundScratch s)",
        true,
        false,
        f ->
            rule.predictFieldOutputs().isEmpty()
                ? "return;"
                : forms(f) + ".commitBlock(st, step, stride, idx, from, nnz" + scratch(f) + ");");
    method(
        "double updateBlock(" + block + ", " + rows + ", RoundScratch s, double g, double[] u)",
        true,
        false,
        f ->
            sum(
                forms(f)
                    + ".updateBlock(st, step, stride, idx, "
                    + vals(f)
                    + ", from, nnz"
                    + scratch(f)
                    + ", "
                    + cast(f)
                    + "g"
                    + uniforms(f, false)
                    + ")"));
    method(
        "double updateBlockRecompute(" + block + ", " + rows + ", double g, double[] u)",
        true,
        false,
        f ->
            sum(
                forms(f)
                    + ".updateBlockRecompute(st, step, stride, idx, "
                    + vals(f)
                    + ", from, nnz, "
                    + cast(f)
                    + "g"
                    + uniforms(f, false)
                    + ")"));
    method(
        "void weightsBlock(" + block + ", MemorySegment out, int n, double[] u)",
        true,
        false,
        f -> forms(f) + ".weightsBlock(st, step, stride, out, n" + uniforms(f, false) + ");");

    String recs =
        String.join(
            "",
            java.util.stream.IntStream.range(0, rule.fields.size())
                .mapToObj(k -> ", s.%s(" + (kept + k) + ")")
                .toList());
    String contributions = ", s.%s(" + (kept + rule.fields.size()) + ")";
    method(
        "double predictGathered(" + block + ", " + rows + ", RoundScratch s, double[] u)",
        true,
        false,
        f -> {
          String a = f.t.equals("float") ? "f" : "d";
          String r = recs.formatted(repeat(a, rule.fields.size()));
          return forms(f)
              + ".gather(st, step, stride, idx, from, nnz"
              + r
              + ");\n"
              + "if (vector) {\n"
              + VectorForms.className(rule, f)
              + ".predictGathered("
              + r.substring(2)
              + ", "
              + vals(f)
              + ", from, nnz"
              + scratch(f)
              + contributions.formatted(a)
              + uniforms(f, false)
              + ");\n} else {\n"
              + forms(f)
              + ".predictGathered("
              + r.substring(2)
              + ", "
              + vals(f)
              + ", from, 0, nnz"
              + scratch(f)
              + contributions.formatted(a)
              + uniforms(f, false)
              + ");\n}\n"
              + "return org.onlinekernels.kernel.lanes."
              + f.lanes
              + "RowSums.sum4(s."
              + a
              + "("
              + (kept + rule.fields.size())
              + "), nnz);";
        });
    method(
        "double updateGathered(" + block + ", " + rows + ", RoundScratch s, double g, double[] u)",
        true,
        false,
        f -> {
          String a = f.t.equals("float") ? "f" : "d";
          String r = recs.formatted(repeat(a, rule.fields.size()));
          String scalar =
              forms(f)
                  + ".updateGathered("
                  + r.substring(2)
                  + ", "
                  + vals(f)
                  + ", from, 0, nnz"
                  + scratch(f)
                  + ", "
                  + cast(f)
                  + "g"
                  + uniforms(f, false)
                  + ")";
          String update =
              rule.sums().isEmpty()
                  ? "if (vector) {\n"
                      + VectorForms.className(rule, f)
                      + ".updateGathered("
                      + r.substring(2)
                      + ", "
                      + vals(f)
                      + ", from, nnz"
                      + scratch(f)
                      + ", "
                      + cast(f)
                      + "g"
                      + uniforms(f, false)
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
              + forms(f)
              + ".scatter(st, step, stride, idx, from, nnz"
              + changed
              + ");\n"
              + (rule.sums().isEmpty() ? "return 0;" : "return sum;");
        });

    String fs = "MemorySegment[] f";
    method(
        "double predictRows(" + fs + ", " + rows + ", RoundScratch s, double[] u)",
        false,
        true,
        (f, pc) ->
            "return "
                + forms(f)
                + ".predictRows"
                + sfx(pc)
                + "("
                + segs(pc)
                + ", idx, "
                + vals(f)
                + ", from, nnz"
                + scratch(f)
                + uniforms(f, pc)
                + ");");
    method(
        "void commitRows(" + fs + ", int[] idx, int from, int nnz, RoundScratch s)",
        false,
        true,
        (f, pc) ->
            rule.predictFieldOutputs().isEmpty()
                ? "return;"
                : forms(f)
                    + ".commitRows"
                    + sfx(pc)
                    + "("
                    + segs(pc)
                    + ", idx, from, nnz"
                    + scratch(f)
                    + ");");
    method(
        "double updateRows(" + fs + ", " + rows + ", RoundScratch s, double g, double[] u)",
        false,
        true,
        (f, pc) ->
            sum(
                forms(f)
                    + ".updateRows"
                    + sfx(pc)
                    + "("
                    + segs(pc)
                    + ", idx, "
                    + vals(f)
                    + ", from, nnz"
                    + scratch(f)
                    + ", "
                    + cast(f)
                    + "g"
                    + uniforms(f, pc)
                    + ")"));
    method(
        "double updateRowsRecompute(" + fs + ", " + rows + ", double g, double[] u)",
        false,
        true,
        (f, pc) ->
            sum(
                forms(f)
                    + ".updateRowsRecompute"
                    + sfx(pc)
                    + "("
                    + segs(pc)
                    + ", idx, "
                    + vals(f)
                    + ", from, nnz, "
                    + cast(f)
                    + "g"
                    + uniforms(f, pc)
                    + ")"));
    if (rule.computesWeight()) {
      denseMethod(
          "double predictDense(" + fs + ", MemorySegment x, int n, MemorySegment wOut, double[] u)",
          (f, pc, vec) ->
              vec
                  ? "return "
                      + VectorForms.className(rule, f)
                      + ".predictDense"
                      + sfx(pc)
                      + "("
                      + segs(pc)
                      + ", x, n, wOut"
                      + uniforms(f, pc)
                      + ");"
                  : scalarPredict(f, pc));
    } else {
      unsupported(
          "double predictDense("
              + fs
              + ", MemorySegment x, int n, MemorySegment wOut, double[] u)");
    }
    denseMethod(
        "void updateDense(" + fs + ", MemorySegment x, int n, double g, double[] u)",
        (f, pc, vec) ->
            (vec
                    ? VectorForms.className(rule, f)
                        + ".updateDense"
                        + sfx(pc)
                        + "("
                        + segs(pc)
                        + ", x, n, "
                    : forms(f) + ".updateDense" + sfx(pc) + "(" + segs(pc) + ", x, 0, n, ")
                + cast(f)
                + "g"
                + uniforms(f, pc)
                + ");");
    if (stored) {
      denseMethod(
          "void updateDenseStored("
              + fs
              + ", MemorySegment w, MemorySegment x, int n, double g, double[] u)",
          (f, pc, vec) ->
              (vec
                      ? VectorForms.className(rule, f)
                          + ".updateDenseStored"
                          + sfx(pc)
                          + "("
                          + segs(pc)
                          + ", w, x, n, "
                      : forms(f)
                          + ".updateDenseStored"
                          + sfx(pc)
                          + "("
                          + segs(pc)
                          + ", w, x, 0, n, ")
                  + cast(f)
                  + "g"
                  + uniforms(f, pc)
                  + ");");
    } else {
      unsupported(
          "void updateDenseStored("
              + fs
              + ", MemorySegment w, MemorySegment x, int n, double g, double[] u)");
    }
    denseMethod(
        "void weightsDense(" + fs + ", MemorySegment out, int n, double[] u)",
        (f, pc, vec) ->
            (vec
                    ? VectorForms.className(rule, f)
                        + ".weights"
                        + sfx(pc)
                        + "("
                        + segs(pc)
                        + ", out, n"
                    : forms(f) + ".weights" + sfx(pc) + "(" + segs(pc) + ", out, 0, n")
                + uniforms(f, pc)
                + ");");
    out.line("}");
    return Generated.header(rule, "the forms behind the engine's RuleForms") + out;
  }

  private void simple(String signature, String value) {
    out.blank();
    out.line("@Override");
    out.line("public " + signature + " {");
    out.line("return " + value + ";");
    out.line("}");
  }

  private void unsupported(String signature) {
    out.blank();
    out.line("@Override");
    out.line("public " + signature + " {");
    out.line("throw new UnsupportedOperationException(\"" + rule.name + " has no such form\");");
    out.line("}");
  }

  private interface Body {
    String of(Flavor f, boolean perCoordinate);
  }

  private interface DenseBody {
    String of(Flavor f, boolean perCoordinate, boolean vector);
  }

  private void method(
      String signature,
      boolean blockOnly,
      boolean variants,
      java.util.function.Function<Flavor, String> body) {
    method(signature, blockOnly, variants, (f, pc) -> body.apply(f));
  }

  /** A method that switches on the flavor (and, for field forms, the variant). */
  private void method(String signature, boolean blockOnly, boolean variants, Body body) {
    out.blank();
    out.line("@Override");
    out.line("public " + signature + " {");
    List<Flavor> fl = new ArrayList<>(flavors());
    if (blockOnly) {
      fl.remove(Flavor.MIXED);
    }
    out.line("switch (flavor) {");
    for (Flavor f : fl) {
      out.line("case " + f.name() + " -> {");
      if (variants && !rule.perCoordinate.isEmpty()) {
        out.line("if (perCoordinate) {");
        out.line(body.of(f, true));
        out.line("} else {");
        out.line(body.of(f, false));
        out.line("}");
      } else {
        out.line(body.of(f, false));
      }
      out.line("}");
    }
    out.line(
        "default -> throw new UnsupportedOperationException(\""
            + rule.name
            + ": no block form in mixed precision\");");
    out.line("}");
    if (!signature.startsWith("void")) {
      // every case returns or throws
    }
    out.line("}");
  }

  private void denseMethod(String signature, DenseBody body) {
    method(
        signature,
        false,
        true,
        (f, pc) ->
            "if (vector) {\n"
                + indent(body.of(f, pc, true))
                + "\n} else {\n"
                + indent(body.of(f, pc, false))
                + "\n}");
  }

  private static Object[] repeat(String a, int n) {
    Object[] o = new Object[n];
    java.util.Arrays.fill(o, a);
    return o;
  }

  private static String indent(String s) {
    return s;
  }

  private String scalarPredict(Flavor f, boolean pc) {
    String vl = "org.onlinekernels.kernel.lanes." + f.lanes + "VirtualLanes";
    return f.t
        + "[] p = "
        + vl
        + ".scratch();\n"
        + vl
        + ".clear(p, 1);\n"
        + forms(f)
        + ".predictDense"
        + sfx(pc)
        + "("
        + segs(pc)
        + ", x, 0, n, wOut, p"
        + uniforms(f, pc)
        + ");\nreturn "
        + vl
        + ".sum(p);";
  }

  private String sum(String call) {
    return rule.sums().isEmpty() ? call + ";\nreturn 0;" : "return " + call + ";";
  }

  private String forms(Flavor f) {
    return ScalarForms.className(rule, f);
  }

  private static String vals(Flavor f) {
    return f.in.equals("float") ? "vf" : "vd";
  }

  private static String cast(Flavor f) {
    return f.t.equals("float") ? "(float) " : "";
  }

  private String scratch(Flavor f) {
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < kept; k++) {
      sb.append(", s.").append(f.t.equals("float") ? "f" : "d").append('(').append(k).append(')');
    }
    return sb.toString();
  }

  private String uniforms(Flavor f, boolean pc) {
    StringBuilder sb = new StringBuilder();
    int k = 0;
    for (var u : rule.uniforms().entrySet()) {
      if (!u.getValue().equals("float")) {
        throw new GeneratorException(
            rule.where()
                + ": uniform "
                + u.getKey()
                + " is "
                + u.getValue()
                + "; uniforms are numbers (derive a boolean with a @Uniform function)");
      }
      if (!(pc && rule.perCoordinate.contains(u.getKey()))) {
        sb.append(", ").append(cast(f)).append("u[").append(k).append(']');
      }
      k++;
    }
    return sb.toString();
  }

  private String segs(boolean pc) {
    int n = rule.fields.size() + (pc ? rule.perCoordinate.size() : 0);
    List<String> s = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      s.add("f[" + k + "]");
    }
    return String.join(", ", s);
  }

  private static String sfx(boolean pc) {
    return pc ? "PerCoordinate" : "";
  }
}
