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
  private final String name;
  private final boolean stored;
  private final DispatchWriter w;

  FormsAdapter(LaneRule rule) {
    this.rule = rule;
    this.name = className(rule);
    this.stored = new ScalarForms(rule, Flavor.FLOAT).storedWeight();
    this.w = new DispatchWriter(rule, ScalarForms.kept(rule).size());
  }

  static String className(LaneRule rule) {
    return rule.name + "RuleForms";
  }

  private static String strings(List<String> names) {
    return String.join(", ", names.stream().map(k -> "\"" + k + "\"").toList());
  }

  /** The class the source is: its shape, the holes filled by {@link #source}. */
  private static final String TEMPLATE =
      """
      ${header}
      package ${package};

      import java.lang.foreign.MemorySegment;
      import java.util.List;
      import org.onlinekernels.kernel.lanes.RoundScratch;
      import org.onlinekernels.kernel.lanes.RuleForms;
      import org.onlinekernels.kernel.lanes.RuleShape;

      /**
       * ${rule}'s generated forms behind {@link RuleForms}: one instance per element type,
       * provider and variant, each method dispatching to the forms of {@link ${ruleClass}}.
       */
      final class ${class} implements RuleForms {
        /** Element types: the flavor numbers of {@link #of}. */
        static final int FLOAT = RuleShape.FLOAT, DOUBLE = RuleShape.DOUBLE, MIXED = RuleShape.MIXED;

        /** Uniforms in {@code u} order. */
        static final String[] UNIFORMS = {${uniforms}};

        /** Per-coordinate uniforms, the buffers after the fields in the per-coordinate variant. */
        static final String[] PER_COORDINATE = {${perCoordinate}};

        /** The state fields in record order. */
        static final String[] FIELDS = {${fields}};

        /** Whether the rule has a mixed-precision form. */
        static final boolean HAS_MIXED = ${hasMixed};

        /** Predict values a fused round keeps per entry. */
        static final int KEPT = ${kept};

        /** The rule as the optimizers' engine sees it. */
        static final RuleShape SHAPE = new RuleShape(List.of(FIELDS), List.of(${mixedFields}), \
      List.of(UNIFORMS), List.of(PER_COORDINATE), KEPT, ${class}::of);

        private final int flavor;
        private final boolean vector;
        private final boolean perCoordinate;

        private ${class}(int flavor, boolean vector, boolean perCoordinate) {
          this.flavor = flavor;
          this.vector = vector;
          this.perCoordinate = perCoordinate;
        }

        /**
         * The forms for element type {@code flavor} ({@link #FLOAT}, {@link #DOUBLE}, {@link
         * #MIXED}), on the vector provider or not, in the per-coordinate variant or not.
         */
        static ${class} of(int flavor, boolean vector, boolean perCoordinate) {
          if (flavor == MIXED && !HAS_MIXED || perCoordinate && PER_COORDINATE.length == 0) {
            throw new IllegalArgumentException("${rule} has no such form");
          }
          return new ${class}(flavor, vector, perCoordinate);
        }

        ${methods}
      }
      """;

  String source() {
    List<String> methods = new ArrayList<>();
    methods.add(w.simple("int fields()", Integer.toString(rule.fields.size())));
    methods.add(w.simple("boolean computesWeight()", Boolean.toString(rule.computesWeight())));
    methods.add(
        w.simple(
            "int weightField()",
            Integer.toString(rule.computesWeight() ? -1 : rule.fields.indexOf(rule.weightField))));
    methods.add(w.simple("boolean perCoordinate()", "perCoordinate"));
    methods.add(w.simple("boolean storesWeights()", Boolean.toString(stored)));
    methods.addAll(new InterleavedDispatch(rule, w).write());
    methods.addAll(new PlanarDispatch(rule, w, stored).write());
    return Template.fill(
        TEMPLATE,
        "header",
        Generated.header(rule, "the forms behind the engine's RuleForms"),
        "package",
        rule.packageName,
        "rule",
        rule.name,
        "ruleClass",
        rule.ruleClass,
        "class",
        name,
        "uniforms",
        strings(
            rule.uniforms().keySet().stream()
                .filter(k -> rule.uniforms().get(k).equals("float"))
                .toList()),
        "perCoordinate",
        strings(rule.perCoordinate),
        "fields",
        strings(rule.fields),
        "hasMixed",
        rule.hasMixed(),
        "kept",
        w.kept,
        "mixedFields",
        strings(rule.mixedFloatFields),
        "methods",
        String.join("\n\n", methods));
  }
}
