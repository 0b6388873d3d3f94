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
  private final String name;
  private final List<String> kept;

  /**
   * @param name the kernel's class name, the subclasses' superclass
   */
  KernelBodies(LaneRule rule, String name) {
    this.rule = rule;
    this.name = name;
    this.kept = ScalarForms.kept(rule);
  }

  /** The {@code kind} subclass (Vector API bodies if {@code vector}, plain Java otherwise). */
  String write(String kind, boolean vector, List<Entry> es) {
    List<String> impls = new ArrayList<>();
    for (Entry e : es) {
      impls.add(impl(e, vector));
    }
    return Template.fill(
        """
        /** ${what} bodies; one instance per element type. */
        static final class ${kind} extends ${name} {
          private final boolean isFloat;

          private ${kind}(ElementType type, boolean mixed) {
            super(type, mixed);
            this.isFloat = type == ElementType.FLOAT;
          }

          ${instances}

          static ${kind} of(ElementType type) {
            return type == ElementType.FLOAT ? ${holder}FLOAT : ${holder}DOUBLE;
          }

          ${impls}
        }""",
        "what",
        vector ? "Vector API" : "Plain-Java",
        "kind",
        kind,
        "name",
        name,
        "instances",
        vector ? vectorInstances() : scalarInstances(),
        "holder",
        vector ? "Holder." : "",
        "impls",
        String.join("\n\n", impls));
  }

  private String vectorInstances() {
    return Template.fill(
        """
        /**
         * Loaded only on the vector provider, so the Vector API classes are never touched without
         * it.
         */
        private static final class Holder {
          static final Vector FLOAT = new Vector(ElementType.FLOAT, false);
          static final Vector DOUBLE = new Vector(ElementType.DOUBLE, false);
          ${mixed}
        }

        ${mixedKernel}""",
        "mixed",
        rule.hasMixed() ? "static final Vector MIXED = new Vector(ElementType.FLOAT, true);" : "",
        "mixedKernel",
        rule.hasMixed() ? "static final " + name + " MIXED_KERNEL = Holder.MIXED;" : "");
  }

  private String scalarInstances() {
    return "private static final Scalar FLOAT = new Scalar(ElementType.FLOAT, false);\n"
        + "private static final Scalar DOUBLE = new Scalar(ElementType.DOUBLE, false);"
        + (rule.hasMixed()
            ? "\nstatic final Scalar MIXED_KERNEL = new Scalar(ElementType.FLOAT, true);"
            : "");
  }

  /** Entry {@code e}'s unchecked body: a branch per flavor. */
  private String impl(Entry e, boolean vector) {
    String branches =
        Template.fill(
            """
            if (isFloat) {
              ${float}
            } else {
              ${double}
            }""",
            "float",
            body(e, Flavor.FLOAT, vector),
            "double",
            body(e, Flavor.DOUBLE, vector));
    if (rule.hasMixed()) {
      String mixed =
          e.name().contains("Stored") || e.name().contains("Storing")
              ? "throw new UnsupportedOperationException(\""
                  + rule.name
                  + ": no stored weights in mixed precision\");"
              : body(e, Flavor.MIXED, vector);
      branches = "if (mixed) {\n" + mixed + "\n} else " + branches;
    }
    return Template.fill(
        """
        @Override
        ${returns} ${name}Impl(${signature}) {
          ${branches}
        }""",
        "returns",
        e.returns(),
        "name",
        e.name(),
        "signature",
        e.signature(),
        "branches",
        branches);
  }

  /** The segments an entry passes to a form: its fields (null where it uses none). */
  private String fields(Entry e) {
    List<String> segs = new ArrayList<>();
    for (String fl : rule.fields) {
      segs.add(e.usedFields().contains(fl) ? fl : "null");
    }
    if (e.perCoordinate()) {
      for (String pu : rule.perCoordinate) {
        segs.add(e.usedUniforms().contains(pu) ? pu : "null");
      }
    }
    return String.join(", ", segs);
  }

  /** The uniform arguments of a form ({@code 0} where the entry takes none). */
  private String uniforms(Entry e, Flavor f) {
    StringBuilder u = new StringBuilder();
    for (Map.Entry<String, String> un : rule.uniforms().entrySet()) {
      if (!(e.perCoordinate() && rule.perCoordinate.contains(un.getKey()))) {
        String v = e.usedUniforms().contains(un.getKey()) ? un.getKey() : "0";
        u.append(", ").append(un.getValue().equals("float") && !v.equals("0") ? cast(f) : "");
        u.append(v);
      }
    }
    return u.toString();
  }

  private static String cast(Flavor f) {
    return f == Flavor.FLOAT ? "(float) " : "";
  }

  /** The call of the flavor's form that implements entry {@code e}. */
  private String body(Entry e, Flavor f, boolean vector) {
    String sfx = e.perCoordinate() ? "PerCoordinate" : "";
    String fields = fields(e);
    String u = uniforms(e, f);
    String forms = ScalarForms.className(rule, f);
    String impl = vector ? VectorForms.className(rule, f) : forms;
    String from = vector ? "" : "0, ";
    String ret = e.returns().equals("void") ? "" : "return ";
    String g = ", " + cast(f) + "g";
    return switch (e.name().replace(sfx, "")) {
      case "predictDense" -> dense(vector, ret, impl, sfx, fields, "x, n, null", u, f);
      case "predictDenseStoring" -> dense(vector, ret, impl, sfx, fields, "x, n, wOut", u, f);
      case "updateDense" ->
          impl + ".updateDense" + sfx + "(" + fields + ", x, " + from + "n" + g + u + ");";
      case "updateDenseStored" ->
          impl + ".updateDenseStored" + sfx + "(" + fields + ", w, x, " + from + "n" + g + u + ");";
      case "weights" -> impl + ".weights" + sfx + "(" + fields + ", out, " + from + "n" + u + ");";
      case "predictSparse" -> predictSparse(f, forms, sfx, fields, u, false);
      case "predictSparseStoring" -> predictSparse(f, forms, sfx, fields, u, true);
      case "updateSparse" ->
          rule.everyCoordinate
              ? updateEvery(f, forms, sfx, fields, u)
              : updateSparse(f, forms, sfx, fields, u, false);
      case "updateSparseStored" -> updateSparse(f, forms, sfx, fields, u, true);
      default -> throw new IllegalStateException(e.name());
    };
  }

  /** A dense predict: the vector form, or the plain-Java form's lanes summed. */
  private String dense(
      boolean vector,
      String ret,
      String impl,
      String sfx,
      String fields,
      String tail,
      String u,
      Flavor f) {
    if (vector) {
      return ret + impl + ".predictDense" + sfx + "(" + fields + ", " + tail + u + ");";
    }
    String[] parts = tail.split(", ");
    return Template.fill(
        """
        ${t}[] p = org.onlinekernels.kernel.lanes.${vl}.scratch();
        org.onlinekernels.kernel.lanes.${vl}.clear(p, 1);
        ${impl}.predictDense${sfx}(${fields}, ${x}, 0, ${n}, ${w}, p${u});
        ${ret}org.onlinekernels.kernel.lanes.${vl}.sum(p);""",
        "t",
        f.t,
        "vl",
        f.lanes + "VirtualLanes",
        "impl",
        impl,
        "sfx",
        sfx,
        "fields",
        fields,
        "x",
        parts[0],
        "n",
        parts[1],
        "w",
        parts[2],
        "u",
        u,
        "ret",
        ret);
  }

  /** The row copied into this thread's arrays. */
  private static String rowCopy(Flavor f) {
    return "RowScratch s = RowScratch.get();\nint[] ix = s.indices(idx, nnz);\n"
        + f.in
        + "[] vx = s."
        + f.in
        + "s(val, nnz);";
  }

  private static String layout(String type) {
    return "java.lang.foreign.ValueLayout."
        + (type.equals("float") ? "JAVA_FLOAT_UNALIGNED" : "JAVA_DOUBLE_UNALIGNED");
  }

  private String updateSparse(
      Flavor f, String forms, String sfx, String fields, String u, boolean storedW) {
    String ret = rule.sums().isEmpty() ? "" : "return ";
    String g = ", " + cast(f) + "g";
    if (!storedW) {
      return rowCopy(f)
          + "\n"
          + ret
          + forms
          + ".updateRowsRecompute"
          + sfx
          + "("
          + fields
          + ", ix, vx, 0, nnz"
          + g
          + u
          + ");";
    }
    String arr = f.t;
    return rowCopy(f)
        + "\n"
        + arr
        + "[] wx = s."
        + arr
        + "Values(0, nnz);\njava.lang.foreign.MemorySegment.copy(w, "
        + layout(arr)
        + ", 0, wx, 0, nnz);\n"
        + ret
        + forms
        + ".updateRowsStored"
        + sfx
        + "("
        + fields
        + ", wx, ix, vx, 0, nnz"
        + g
        + u
        + ");";
  }

  /**
   * The update of a rule that changes every coordinate: the row scattered into zeros, the dense
   * update, zeros again.
   */
  private String updateEvery(Flavor f, String forms, String sfx, String fields, String u) {
    return Template.fill(
        """
        ${copy}
        MemorySegment xd = s.dense(n);
        for (int j = 0; j < nnz; j++) {
          xd.setAtIndex(${layout}, ix[j], vx[j]);
        }
        try {
          ${forms}.updateDense${sfx}(${fields}, xd, 0, n, ${cast}g${u});
        } finally {
          for (int j = 0; j < nnz; j++) {
            xd.setAtIndex(${layout}, ix[j], ${zero});
          }
        }""",
        "copy",
        rowCopy(f),
        "layout",
        layout(f.in),
        "forms",
        forms,
        "sfx",
        sfx,
        "fields",
        fields,
        "cast",
        cast(f),
        "u",
        u,
        "zero",
        f.in.equals("float") ? "0f" : "0.0");
  }

  private String predictSparse(
      Flavor f, String forms, String sfx, String fields, String u, boolean storedW) {
    String arr = f.t;
    StringBuilder scratch = new StringBuilder();
    for (int k = 0; k < kept.size(); k++) {
      scratch.append(", s.").append(arr).append("Values(").append(k).append(", nnz)");
    }
    List<String> lines = new ArrayList<>();
    lines.add(rowCopy(f));
    lines.add(
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
      lines.add(forms + ".commitRows" + sfx + "(" + fields + ", ix, 0, nnz" + scratch + ");");
    }
    if (storedW) {
      lines.add(
          "java.lang.foreign.MemorySegment.copy(s."
              + arr
              + "Values("
              + kept.indexOf("w")
              + ", nnz), 0, wOut, "
              + layout(arr)
              + ", 0, nnz);");
    }
    lines.add("return yhat;");
    return String.join("\n", lines);
  }
}
