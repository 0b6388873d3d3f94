package org.onlinekernels.codegen;

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
  private final DispatchWriter w;

  FormsAdapter(LaneRule rule) {
    this.rule = rule;
    this.name = className(rule);
    this.stored = new ScalarForms(rule, Flavor.FLOAT).storedWeight();
    this.w = new DispatchWriter(rule, out, ScalarForms.kept(rule).size());
  }

  static String className(LaneRule rule) {
    return rule.name + "RuleForms";
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
    out.line("static final int KEPT = " + w.kept + ";");
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
    w.simple("int fields()", Integer.toString(rule.fields.size()));
    w.simple("boolean computesWeight()", Boolean.toString(rule.computesWeight()));
    w.simple(
        "int weightField()",
        Integer.toString(rule.computesWeight() ? -1 : rule.fields.indexOf(rule.weightField)));
    w.simple("boolean perCoordinate()", "perCoordinate");
    w.simple("boolean storesWeights()", Boolean.toString(stored));
    new InterleavedDispatch(rule, w).write();
    new PlanarDispatch(rule, w, stored).write();
    out.line("}");
    return Generated.header(rule, "the forms behind the engine's RuleForms") + out;
  }
}
