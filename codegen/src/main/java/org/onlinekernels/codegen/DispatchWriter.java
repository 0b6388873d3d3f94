package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Writes the methods of {@code <Rule>RuleForms} that dispatch on the element type (and the variant
 * and provider), and spells the argument lists they pass to the generated forms.
 */
final class DispatchWriter {
  private final LaneRule rule;

  /** The row arguments of the block and row forms. */
  static final String ROWS = "int[] idx, float[] vf, double[] vd, int from, int nnz";

  /** Predict values a fused round keeps per entry. */
  final int kept;

  DispatchWriter(LaneRule rule, int kept) {
    this.rule = rule;
    this.kept = kept;
  }

  private List<Flavor> flavors() {
    return rule.hasMixed()
        ? List.of(Flavor.FLOAT, Flavor.DOUBLE, Flavor.MIXED)
        : List.of(Flavor.FLOAT, Flavor.DOUBLE);
  }

  /** A method that returns one value. */
  String simple(String signature, String value) {
    return "@Override\npublic " + signature + " {\n  return " + value + ";\n}";
  }

  /** A method the rule has no form for. */
  String unsupported(String signature) {
    return Template.fill(
        """
        @Override
        public ${signature} {
          throw new UnsupportedOperationException("${name} has no such form");
        }""",
        "signature",
        signature,
        "name",
        rule.name);
  }

  interface Body {
    String of(Flavor f, boolean perCoordinate);
  }

  interface DenseBody {
    String of(Flavor f, boolean perCoordinate, boolean vector);
  }

  String method(
      String signature, boolean blockOnly, boolean variants, Function<Flavor, String> body) {
    return method(signature, blockOnly, variants, (f, pc) -> body.apply(f));
  }

  /** A method that switches on the flavor (and, for field forms, the variant). */
  String method(String signature, boolean blockOnly, boolean variants, Body body) {
    List<Flavor> fl = new ArrayList<>(flavors());
    if (blockOnly) {
      fl.remove(Flavor.MIXED);
    }
    List<String> cases = new ArrayList<>();
    for (Flavor f : fl) {
      String branch =
          variants && !rule.perCoordinate.isEmpty()
              ? "if (perCoordinate) {\n"
                  + body.of(f, true)
                  + "\n} else {\n"
                  + body.of(f, false)
                  + "\n}"
              : body.of(f, false);
      cases.add("case " + f.name() + " -> {\n" + branch + "\n}");
    }
    return Template.fill(
        """
        @Override
        public ${signature} {
          switch (flavor) {
            ${cases}
            default ->
                throw new UnsupportedOperationException("${name}: no block form in mixed precision");
          }
        }""",
        "signature",
        signature,
        "cases",
        String.join("\n", cases),
        "name",
        rule.name);
  }

  String denseMethod(String signature, DenseBody body) {
    return method(
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
