package org.onlinekernels.codegen;

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
    super(rule, flavor, new JavaWriter());
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
    out.line(
        " * "
            + rule.name
            + "'s plain-Java forms in "
            + (flavor == Flavor.MIXED
                ? "mixed precision (float inputs and "
                    + String.join(", ", rule.mixedFloatFields)
                    + "; double arithmetic)"
                : t)
            + ":");
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
      new BlockForms(rule, flavor, out).write();
    }
    FieldForms fields = new FieldForms(rule, flavor, out);
    DenseForms dense = new DenseForms(rule, flavor, out);
    fields.write(false);
    if (!rule.perCoordinate.isEmpty()) {
      fields.write(true);
    }
    dense.write(false);
    if (!rule.perCoordinate.isEmpty()) {
      dense.write(true);
    }
    out.line("}");
    return Generated.header(rule, className(rule, flavor) + ", the plain-Java forms") + out;
  }
}
