package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes the methods of {@code <Rule>RuleForms} that dispatch on the element type (and the variant
 * and provider), and spells the argument lists they pass to the generated forms.
 */
final class DispatchWriter {
  private final LaneRule rule;
  private final JavaWriter out;

  /** The row arguments of the block and row forms. */
  static final String ROWS = "int[] idx, float[] vf, double[] vd, int from, int nnz";

  /** Predict values a fused round keeps per entry. */
  final int kept;

  DispatchWriter(LaneRule rule, JavaWriter out, int kept) {
    this.rule = rule;
    this.out = out;
    this.kept = kept;
  }

  private List<Flavor> flavors() {
    return rule.hasMixed()
        ? List.of(Flavor.FLOAT, Flavor.DOUBLE, Flavor.MIXED)
        : List.of(Flavor.FLOAT, Flavor.DOUBLE);
  }

  void simple(String signature, String value) {
    out.blank();
    out.line("@Override");
    out.line("public " + signature + " {");
    out.line("return " + value + ";");
    out.line("}");
  }

  void unsupported(String signature) {
    out.blank();
    out.line("@Override");
    out.line("public " + signature + " {");
    out.line("throw new UnsupportedOperationException(\"" + rule.name + " has no such form\");");
    out.line("}");
  }

  interface Body {
    String of(Flavor f, boolean perCoordinate);
  }

  interface DenseBody {
    String of(Flavor f, boolean perCoordinate, boolean vector);
  }

  void method(
      String signature,
      boolean blockOnly,
      boolean variants,
      java.util.function.Function<Flavor, String> body) {
    method(signature, blockOnly, variants, (f, pc) -> body.apply(f));
  }

  /** A method that switches on the flavor (and, for field forms, the variant). */
  void method(String signature, boolean blockOnly, boolean variants, Body body) {
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
    out.line("}");
  }

  void denseMethod(String signature, DenseBody body) {
    method(
        signature,
        false,
        true,
        (f, pc) ->
            "if (vector) {\n"
                + body.of(f, pc, true)
                + "\n} else {\n"
                + body.of(f, pc, false)
                + "\n}");
  }

  static Object[] repeat(String a, int n) {
    Object[] o = new Object[n];
    java.util.Arrays.fill(o, a);
    return o;
  }

  String sum(String call) {
    return rule.sums().isEmpty() ? call + ";\nreturn 0;" : "return " + call + ";";
  }

  String forms(Flavor f) {
    return ScalarForms.className(rule, f);
  }

  static String vals(Flavor f) {
    return f.in.equals("float") ? "vf" : "vd";
  }

  static String cast(Flavor f) {
    return f.t.equals("float") ? "(float) " : "";
  }

  String scratch(Flavor f) {
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < kept; k++) {
      sb.append(", s.").append(f.t.equals("float") ? "f" : "d").append('(').append(k).append(')');
    }
    return sb.toString();
  }

  String uniforms(Flavor f, boolean pc) {
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

  String segs(boolean pc) {
    int n = rule.fields.size() + (pc ? rule.perCoordinate.size() : 0);
    List<String> s = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      s.add("f[" + k + "]");
    }
    return String.join(", ", s);
  }

  static String sfx(boolean pc) {
    return pc ? "PerCoordinate" : "";
  }

  /**
   * The arguments of a row update after the state and indices: the row's values and range, the
   * values the predict kept ({@code kept}), the loss derivative and the uniforms.
   */
  String updateArgs(Flavor f, boolean pc, boolean kept) {
    return vals(f)
        + ", from, nnz"
        + (kept ? scratch(f) : "")
        + ", "
        + cast(f)
        + "g"
        + uniforms(f, pc);
  }
}
