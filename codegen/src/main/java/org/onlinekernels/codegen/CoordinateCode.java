package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.onlinekernels.codegen.LaneRule.Phase;

/**
 * The scalar code of one coordinate: calls of lane functions in order, each argument bound by name
 * to a field's latest value (loaded on first use), an input, a uniform or an earlier value. Locals
 * are named after what they hold: {@code G0} the loaded field {@code G}, {@code G1} its new value,
 * {@code w} a value of a function named {@code w}.
 */
final class CoordinateCode {
  private final LaneRule rule;
  private final JavaWriter out;

  /** How to load a field (or a per-coordinate uniform): its Java expression. */
  private final Function<String, String> load;

  /** What a lane function's name is called with: {@code FloatXLanes.} in Java, a C prefix. */
  private final String callPrefix;

  /** The declared type of a value of a lane function's type ({@code float} is the flavor's). */
  private final UnaryOperator<String> typeOf;

  private final Map<String, String> bound = new LinkedHashMap<>();
  private final List<String> written = new ArrayList<>();

  CoordinateCode(LaneRule rule, Flavor flavor, JavaWriter out, Function<String, String> load) {
    this(
        rule,
        flavor,
        out,
        load,
        flavor.lanesClass(rule) + ".",
        type -> type.equals("float") ? flavor.t : type);
  }

  /**
   * Code in another language with Java's expressions and statements (C): lane function {@code f} is
   * called as {@code callPrefix + f}, a value of Java type {@code t} declared as {@code typeOf(t)}.
   */
  CoordinateCode(
      LaneRule rule,
      Flavor flavor,
      JavaWriter out,
      Function<String, String> load,
      String callPrefix,
      UnaryOperator<String> typeOf) {
    this.rule = rule;
    this.out = out;
    this.load = load;
    this.callPrefix = callPrefix;
    this.typeOf = typeOf;
  }

  /**
   * Binds {@code name} to a Java expression already in scope (an input, a uniform, a scratch
   * element).
   */
  CoordinateCode bind(String name, String expr) {
    bound.put(name, expr);
    return this;
  }

  /** The expression holding {@code name}'s latest value, loading a field on first use. */
  String value(String name) {
    String v = bound.get(name);
    if (v != null) {
      return v;
    }
    LaneRule.Function fn = rule.functions.get(name);
    if (fn != null && fn.phase() == Phase.UNIFORM) {
      // A uniform function of per-coordinate values: computed per coordinate here.
      return call(fn);
    }
    if (rule.fields.contains(name) || rule.perCoordinate.contains(name)) {
      String local = name + "0";
      out.line(typeOf.apply("float") + " " + local + " = " + load.apply(name) + ";");
      bound.put(name, local);
      return local;
    }
    throw new GeneratorException(rule.where() + ": nothing binds '" + name + "' here");
  }

  /** Emits the call of {@code f}, binding its name to the result. */
  String call(LaneRule.Function f) {
    List<String> args = new ArrayList<>();
    for (String p : f.params()) {
      args.add(value(p));
    }
    String local = rule.fields.contains(f.name()) ? f.name() + "1" : f.name();
    if (bound.containsValue(local)) {
      throw new GeneratorException(
          rule.where() + ": " + f.name() + " is computed twice in one pass");
    }
    out.line(
        typeOf.apply(f.type())
            + " "
            + local
            + " = "
            + callPrefix
            + f.name()
            + "("
            + String.join(", ", args)
            + ");");
    bound.put(f.name(), local);
    if (rule.fields.contains(f.name())) {
      written.add(f.name());
    }
    return local;
  }

  /** Emits the calls of {@code fs} in order. */
  CoordinateCode calls(List<LaneRule.Function> fs) {
    for (LaneRule.Function f : fs) {
      call(f);
    }
    return this;
  }

  /** Fields given a new value by the calls so far, in call order, each once. */
  List<String> written() {
    return written.stream().distinct().toList();
  }

  /**
   * The derived uniforms ({@code @Uniform} functions), computed once per call from the uniforms.
   */
  static void uniforms(LaneRule rule, Flavor flavor, JavaWriter out, boolean perCoordinate) {
    for (LaneRule.Function f : rule.uniformFunctions(perCoordinate)) {
      List<String> args = new ArrayList<>(f.params());
      String type = f.type().equals("float") ? flavor.t : f.type();
      out.line(
          type
              + " "
              + f.name()
              + " = "
              + flavor.lanesClass(rule)
              + "."
              + f.name()
              + "("
              + String.join(", ", args)
              + ");");
    }
  }
}
