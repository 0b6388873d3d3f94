package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.onlinekernels.codegen.KernelEntries.Entry;

/**
 * Writes the implementations nested in {@code <Rule>Kernel}: the {@code Scalar} and {@code Vector}
 * subclasses, one instance per element type, whose unchecked entry bodies call the flavor's
 * generated forms (the sparse ones through per-thread row copies).
 */
final class KernelBodies {
  private final LaneRule rule;
  private final JavaWriter out;
  private final String name;
  private final List<String> kept;

  /**
   * @param name the kernel's class name, the subclasses' superclass
   */
  KernelBodies(LaneRule rule, JavaWriter out, String name) {
    this.rule = rule;
    this.out = out;
    this.name = name;
    this.kept = ScalarForms.kept(rule);
  }

  /**
   * Writes the {@code kind} subclass (Vector API bodies if {@code vector}, plain Java otherwise).
   */
  void write(String kind, boolean vector, List<Entry> es) {
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
