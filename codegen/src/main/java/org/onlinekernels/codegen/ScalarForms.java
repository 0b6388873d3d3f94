package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.List;

/**
 * The plain-Java forms of a rule for one flavor, {@code <Flavor><Rule>Forms}: every loop over
 * coordinates calls the rule's lane functions, so the arithmetic is the rule's, in its order.
 *
 * <ul>
 *   <li><b>Block rows</b> (float, double): state as one segment, field {@code f} of coordinate
 *       {@code i} at element {@code f * step + i * stride} (planar: {@code step = d, stride = 1};
 *       interleaved: {@code step = 1, stride = FIELDS}), rows as arrays. The fused round's predict
 *       writes nothing but per-entry scratch; its update writes every new value.
 *   <li><b>Field rows</b>: one segment per field (every flavor; the per-coordinate variant adds one
 *       read-only segment per per-coordinate uniform).
 *   <li><b>Dense</b>: one segment per field, coordinates {@code [from, to)}; the predict sums in
 *       the virtual lanes' order, so the vector forms give the same bits.
 * </ul>
 *
 * A row's prediction is summed in four partial sums, entry {@code j} into sum {@code j mod 4},
 * combined as {@code (s0 + s1) + (s2 + s3)}.
 */
final class ScalarForms extends PlainForms {
  ScalarForms(LaneRule rule, Flavor flavor) {
    super(rule, flavor);
  }

  /** The predict values kept per entry by a fused round, in predict order. */
  static List<String> kept(LaneRule rule) {
    return new ScalarForms(rule, Flavor.FLOAT).kept.stream().map(LaneRule.Function::name).toList();
  }

  static String className(LaneRule rule, Flavor flavor) {
    return flavor.prefix + rule.name + "Forms";
  }

  String source() {
    List<String> members = new ArrayList<>();
    if (flavor != Flavor.MIXED) {
      members.addAll(new BlockForms(rule, flavor).write());
    }
    members.addAll(new FieldForms(rule, flavor, false).write());
    if (!rule.perCoordinate.isEmpty()) {
      members.addAll(new FieldForms(rule, flavor, true).write());
    }
    members.addAll(new DenseForms(rule, flavor, false).write());
    if (!rule.perCoordinate.isEmpty()) {
      members.addAll(new DenseForms(rule, flavor, true).write());
    }
    return Template.fill(
        """
        ${header}
        package ${package};

        import java.lang.foreign.MemorySegment;
        import java.lang.foreign.ValueLayout;
        import org.onlinekernels.kernel.lanes.${L}VirtualLanes;

        /**
         * ${name}'s plain-Java forms in ${precision}: every loop calls the lane functions of {@link
         * ${lanes}}; see ScalarForms in online-kernels-codegen for what each form is.
         */
        final class ${class} {
          private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
          private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;
          private static final int V = ${L}VirtualLanes.LANES;

          /** Number of state fields per coordinate. */
          static final int FIELDS = ${fields};

          private ${class}() {}

          ${members}
        }
        """,
        "header",
        Generated.header(rule, className(rule, flavor) + ", the plain-Java forms"),
        "package",
        rule.packageName,
        "L",
        flavor.lanes,
        "name",
        rule.name,
        "precision",
        flavor == Flavor.MIXED
            ? "mixed precision (float inputs and "
                + String.join(", ", rule.mixedFloatFields)
                + "; double arithmetic)"
            : t,
        "lanes",
        lanes,
        "class",
        className(rule, flavor),
        "fields",
        rule.fields.size(),
        "members",
        String.join("\n\n", members));
  }
}
