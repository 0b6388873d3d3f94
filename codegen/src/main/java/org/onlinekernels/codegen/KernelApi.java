package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
  private final boolean stored;
  private final List<String> kept;

  KernelApi(LaneRule rule) {
    this.rule = rule;
    this.name = rule.name + "Kernel";
    this.stored = new ScalarForms(rule, Flavor.FLOAT).storedWeight();
    this.kept = ScalarForms.kept(rule);
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
    impl("Scalar", false, es);
    impl("Vector", true, es);
    out.line("}");
    return Generated.header(rule, "the public stateless kernel") + out;
  }

  private void impl(String kind, boolean vector, List<Entry> es) {
    out.blank();
    out.doc((vector ? "Vector API" : "Plain-Java") + " bodies; one instance per element type.");
    out.line("static final class " + kind + " extends " + name + " {");
    out.line("private final boolean isFloat;");
    out.blank();
    out.line("private " + kind + "(ElementType type, boolean mixed) {");
    out.line("super(type, mixed);");
    out.line("this.isFloat = type == ElementType.FLOAT;");
    out.line("}");
    out.blank();
    String holder = vector ? "Holder." : "";
    if (vector) {
      out.doc(
          "Loaded only on the vector provider, so the Vector API classes are never touched without it.");
      out.line("private static final class Holder {");
      out.line("static final Vector FLOAT = new Vector(ElementType.FLOAT, false);");
      out.line("static final Vector DOUBLE = new Vector(ElementType.DOUBLE, false);");
      if (rule.hasMixed()) {
        out.line("static final Vector MIXED = new Vector(ElementType.FLOAT, true);");
      }
      out.line("}");
      if (rule.hasMixed()) {
        out.blank();
        out.line("static final " + name + " MIXED_KERNEL = Holder.MIXED;");
      }
    } else {
      out.line("private static final Scalar FLOAT = new Scalar(ElementType.FLOAT, false);");
      out.line("private static final Scalar DOUBLE = new Scalar(ElementType.DOUBLE, false);");
      if (rule.hasMixed()) {
        out.line("static final Scalar MIXED_KERNEL = new Scalar(ElementType.FLOAT, true);");
      }
    }
    out.blank();
    out.line("static " + kind + " of(ElementType type) {");
    out.line("return type == ElementType.FLOAT ? " + holder + "FLOAT : " + holder + "DOUBLE;");
    out.line("}");
    for (Entry e : es) {
      out.blank();
      out.line("@Override");
      out.line(e.returns() + " " + e.name() + "Impl(" + e.signature() + ") {");
      if (rule.hasMixed()) {
        out.line("if (mixed) {");
        if (e.name().contains("Stored") || e.name().contains("Storing")) {
          out.line(
              "throw new UnsupportedOperationException(\""
                  + rule.name
                  + ": no stored weights in mixed precision\");");
        } else {
          body(e, Flavor.MIXED, vector);
        }
        out.line("} else if (isFloat) {");
      } else {
        out.line("if (isFloat) {");
      }
      body(e, Flavor.FLOAT, vector);
      out.line("} else {");
      body(e, Flavor.DOUBLE, vector);
      out.line("}");
      out.line("}");
    }
    out.line("}");
  }

  /** The call of the flavor's form that implements entry {@code e}. */
  private void body(Entry e, Flavor f, boolean vector) {
    String cast = f == Flavor.FLOAT ? "(float) " : "";
    String sfx = e.perCoordinate() ? "PerCoordinate" : "";
    List<String> segs = new ArrayList<>();
    for (String fl : rule.fields) {
      // A field the entry does not use is not a parameter: the forms never touch it.
      segs.add(e.usedFields().contains(fl) ? fl : "null");
    }
    if (e.perCoordinate()) {
      for (String pu : rule.perCoordinate) {
        segs.add(e.usedUniforms().contains(pu) ? pu : "null");
      }
    }
    String fields = String.join(", ", segs);
    StringBuilder u = new StringBuilder();
    for (Map.Entry<String, String> un : rule.uniforms().entrySet()) {
      if (!(e.perCoordinate() && rule.perCoordinate.contains(un.getKey()))) {
        String v = e.usedUniforms().contains(un.getKey()) ? un.getKey() : "0";
        u.append(", ")
            .append(un.getValue().equals("float") && !v.equals("0") ? cast : "")
            .append(v);
      }
    }
    String forms = ScalarForms.className(rule, f);
    String impl = vector ? VectorForms.className(rule, f) : forms;
    String base = e.name().replace(sfx, "");
    String ret = e.returns().equals("void") ? "" : "return ";
    switch (base) {
      case "predictDense" ->
          denseOrScalar(vector, ret, impl, forms, "predictDense" + sfx, fields, "x, n, null", u, f);
      case "predictDenseStoring" ->
          denseOrScalar(vector, ret, impl, forms, "predictDense" + sfx, fields, "x, n, wOut", u, f);
      case "updateDense" ->
          out.line(
              impl
                  + ".updateDense"
                  + sfx
                  + "("
                  + fields
                  + ", x, "
                  + (vector ? "" : "0, ")
                  + "n, "
                  + cast
                  + "g"
                  + u
                  + ");");
      case "updateDenseStored" ->
          out.line(
              impl
                  + ".updateDenseStored"
                  + sfx
                  + "("
                  + fields
                  + ", w, x, "
                  + (vector ? "" : "0, ")
                  + "n, "
                  + cast
                  + "g"
                  + u
                  + ");");
      case "weights" ->
          out.line(
              impl
                  + ".weights"
                  + sfx
                  + "("
                  + fields
                  + ", out, "
                  + (vector ? "" : "0, ")
                  + "n"
                  + u
                  + ");");
      case "predictSparse" -> sparse(e, f, forms, sfx, fields, u, false, false);
      case "predictSparseStoring" -> sparse(e, f, forms, sfx, fields, u, false, true);
      case "updateSparse" -> sparse(e, f, forms, sfx, fields, u, true, false);
      case "updateSparseStored" -> sparse(e, f, forms, sfx, fields, u, true, true);
      default -> throw new IllegalStateException(base);
    }
  }

  private void denseOrScalar(
      boolean vector,
      String ret,
      String impl,
      String forms,
      String method,
      String fields,
      String tail,
      StringBuilder u,
      Flavor f) {
    if (vector) {
      out.line(ret + impl + "." + method + "(" + fields + ", " + tail + u + ");");
      return;
    }
    String vl = f.lanes + "VirtualLanes";
    out.line(f.t + "[] p = org.onlinekernels.kernel.lanes." + vl + ".scratch();");
    out.line("org.onlinekernels.kernel.lanes." + vl + ".clear(p, 1);");
    String[] parts = tail.split(", ");
    out.line(
        forms + "." + method + "(" + fields + ", " + parts[0] + ", 0, " + parts[1] + ", " + parts[2]
            + ", p" + u + ");");
    out.line(ret + "org.onlinekernels.kernel.lanes." + vl + ".sum(p);");
  }

  private void sparse(
      Entry e,
      Flavor f,
      String forms,
      String sfx,
      String fields,
      StringBuilder u,
      boolean update,
      boolean storedW) {
    String cast = f == Flavor.FLOAT ? "(float) " : "";
    String arr = f.t;
    out.line("RowScratch s = RowScratch.get();");
    out.line("int[] ix = s.indices(idx, nnz);");
    out.line(f.in + "[] vx = s." + f.in + "s(val, nnz);");
    if (update && storedW) {
      out.line(arr + "[] wx = s." + arr + "Values(0, nnz);");
      out.line(
          "java.lang.foreign.MemorySegment.copy(w, java.lang.foreign.ValueLayout."
              + (arr.equals("float") ? "JAVA_FLOAT_UNALIGNED" : "JAVA_DOUBLE_UNALIGNED")
              + ", 0, wx, 0, nnz);");
      out.line(
          (rule.sums().isEmpty() ? "" : "return ")
              + forms
              + ".updateRowsStored"
              + sfx
              + "("
              + fields
              + ", wx, ix, vx, 0, nnz, "
              + cast
              + "g"
              + u
              + ");");
      return;
    }
    if (update && rule.everyCoordinate) {
      // The rule changes every coordinate: the row scattered into zeros, the dense update, zeros
      // again.
      String layout =
          "java.lang.foreign.ValueLayout."
              + (f.in.equals("float") ? "JAVA_FLOAT_UNALIGNED" : "JAVA_DOUBLE_UNALIGNED");
      out.line("MemorySegment xd = s.dense(n);");
      out.line("for (int j = 0; j < nnz; j++) {");
      out.line("xd.setAtIndex(" + layout + ", ix[j], vx[j]);");
      out.line("}");
      out.line("try {");
      out.line(
          forms + ".updateDense" + sfx + "(" + fields + ", xd, 0, n, " + cast + "g" + u + ");");
      out.line("} finally {");
      out.line("for (int j = 0; j < nnz; j++) {");
      out.line(
          "xd.setAtIndex(" + layout + ", ix[j], " + (f.in.equals("float") ? "0f" : "0.0") + ");");
      out.line("}");
      out.line("}");
      return;
    }
    if (update) {
      out.line(
          (rule.sums().isEmpty() ? "" : "return ")
              + forms
              + ".updateRowsRecompute"
              + sfx
              + "("
              + fields
              + ", ix, vx, 0, nnz, "
              + cast
              + "g"
              + u
              + ");");
      return;
    }
    StringBuilder scratch = new StringBuilder();
    for (int k = 0; k < kept.size(); k++) {
      scratch.append(", s.").append(arr).append("Values(").append(k).append(", nnz)");
    }
    out.line(
        arr
            + " yhat = "
            + forms
            + ".predictRows"
            + sfx
            + "("
            + fields
            + ", ix, vx, 0, nnz"
            + scratch
            + u
            + ");");
    if (!rule.predictFieldOutputs().isEmpty()) {
      out.line(forms + ".commitRows" + sfx + "(" + fields + ", ix, 0, nnz" + scratch + ");");
    }
    if (storedW) {
      int wk = kept.indexOf("w");
      out.line(
          "java.lang.foreign.MemorySegment.copy(s."
              + arr
              + "Values("
              + wk
              + ", nnz), 0, wOut, java.lang.foreign.ValueLayout."
              + (arr.equals("float") ? "JAVA_FLOAT_UNALIGNED" : "JAVA_DOUBLE_UNALIGNED")
              + ", 0, nnz);");
    }
    out.line("return yhat;");
  }
}
