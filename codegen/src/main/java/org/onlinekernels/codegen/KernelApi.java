package org.onlinekernels.codegen;

import java.util.List;
import org.onlinekernels.codegen.KernelEntries.Entry;

/**
 * The rule's public stateless kernel, {@code <Rule>Kernel}: checked entries over caller-owned
 * buffers (one segment per field), each validating every argument once and then calling its body
 * through a method handle ({@code KernelBarrier}: the body stays a compilation root of its own, so
 * the Vector API code inside is compiled and inlined as one piece). Implementations: plain Java and
 * Vector API for float and double, picked by {@code of(provider, type)}. Sparse entries copy the
 * row into per-thread arrays and run the plain-Java row forms under both providers.
 */
final class KernelApi {
  private final LaneRule rule;
  private final JavaWriter out = new JavaWriter();
  private final String name;

  KernelApi(LaneRule rule) {
    this.rule = rule;
    this.name = rule.name + "Kernel";
  }

  static String className(LaneRule rule) {
    return rule.name + "Kernel";
  }

  String source() {
    List<Entry> es = new KernelEntries(rule).all();
    out.line("package " + rule.packageName + ";");
    out.blank();
    out.line("import java.lang.foreign.MemorySegment;");
    out.line("import java.lang.invoke.MethodHandle;");
    out.line("import java.lang.invoke.MethodHandles;");
    out.line("import java.lang.invoke.MethodType;");
    out.line("import org.onlinekernels.kernel.ElementType;");
    out.line("import org.onlinekernels.kernel.KernelBarrier;");
    out.line("import org.onlinekernels.kernel.KernelChecks;");
    out.line("import org.onlinekernels.kernel.KernelProvider;");
    out.line("import org.onlinekernels.kernel.lanes.RowScratch;");
    out.blank();
    out.line("/**");
    out.line(
        " * Stateless "
            + rule.name
            + " kernel over caller-owned buffers, one segment per state field ("
            + String.join(", ", rule.fields)
            + "),");
    out.line(
        " * each of {@code n} elements of the kernel's element type, native byte order, any offset; the rule");
    out.line(
        " * is {@link "
            + rule.ruleClass
            + "}. Every entry checks all its arguments before it writes anything.");
    out.line(" * Obtain one with {@link #of}.");
    out.line(" */");
    out.line(
        "public abstract sealed class "
            + name
            + " permits "
            + name
            + ".Scalar, "
            + name
            + ".Vector {");
    out.line("private final ElementType type;");
    if (rule.hasMixed()) {
      out.line("/** Whether this is the mixed-precision kernel. */");
      out.line("final boolean mixed;");
      for (String f : rule.fields) {
        out.line("private final ElementType " + KernelEntries.typeOf(rule, f) + ";");
      }
    }
    for (Entry e : es) {
      out.line("private final MethodHandle " + e.name() + "Body;");
    }
    out.blank();
    out.line("private " + name + "(ElementType type, boolean mixed) {");
    out.line("this.type = type;");
    if (rule.hasMixed()) {
      out.line("this.mixed = mixed;");
      for (String f : rule.fields) {
        out.line(
            "this."
                + KernelEntries.typeOf(rule, f)
                + " = "
                + (rule.mixedFloatFields.contains(f) ? "type" : "mixed ? ElementType.DOUBLE : type")
                + ";");
      }
    }
    for (Entry e : es) {
      out.line(
          e.name()
              + "Body = KernelBarrier.bind(MethodHandles.lookup(), this, "
              + name
              + ".class, \""
              + e.name()
              + "Impl\", "
              + e.methodType()
              + ");");
    }
    out.line("}");
    out.blank();
    out.doc(
        "The kernel for buffers of {@code type} on {@code provider}'s implementation (Vector API or plain Java).");
    out.line("public static " + name + " of(KernelProvider provider, ElementType type) {");
    out.line("if (type == null) {");
    out.line("throw new IllegalArgumentException(\"type must be FLOAT or DOUBLE, got null\");");
    out.line("}");
    out.line("return provider.isVector() ? Vector.of(type) : Scalar.of(type);");
    out.line("}");
    if (rule.hasMixed()) {
      out.blank();
      out.line("/**");
      out.line(
          " * The mixed-precision kernel on {@code provider}'s implementation: float inputs, weights and fields "
              + String.join(", ", rule.mixedFloatFields)
              + ";");
      out.line(
          " * the other fields double, and the arithmetic in double (bit-identical to the double rule fed the same float inputs).");
      out.line(" */");
      out.line("public static " + name + " mixed(KernelProvider provider) {");
      out.line("return provider.isVector() ? Vector.MIXED_KERNEL : Scalar.MIXED_KERNEL;");
      out.line("}");
    }
    out.blank();
    out.doc(
        "Element type of the inputs and weights (under mixed precision, of the float fields too).");
    out.line("public final ElementType elementType() {");
    out.line("return type;");
    out.line("}");
    for (Entry e : es) {
      out.blank();
      out.doc(e.doc());
      out.line("public final " + e.returns() + " " + e.name() + "(" + e.signature() + ") {");
      for (String c : e.checks()) {
        out.line(c);
      }
      out.line("try {");
      out.line(
          (e.returns().equals("void") ? "" : "return (" + e.returns() + ") ")
              + e.name()
              + "Body.invokeExact("
              + e.args()
              + ");");
      out.line("} catch (Throwable thrown) {");
      out.line("throw KernelBarrier.rethrow(thrown);");
      out.line("}");
      out.line("}");
    }
    for (Entry e : es) {
      out.blank();
      out.doc("Unchecked body of {@link #" + e.name() + "}.");
      out.line("abstract " + e.returns() + " " + e.name() + "Impl(" + e.signature() + ");");
    }
    KernelBodies bodies = new KernelBodies(rule, out, name);
    bodies.write("Scalar", false, es);
    bodies.write("Vector", true, es);
    out.line("}");
    return Generated.header(rule, "the public stateless kernel") + out;
  }
}
