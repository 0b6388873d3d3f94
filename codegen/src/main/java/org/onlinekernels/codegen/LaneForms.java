package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.onlinekernels.codegen.LaneRule.Phase;
import org.onlinekernels.codegen.VectorTranslator.Kind;
import org.onlinekernels.codegen.VectorTranslator.Value;

/**
 * What the writers of a rule's Vector API forms share ({@link VectorForms}, {@link
 * VectorGathered}): the rule, the flavor, the source being written, and the lane values bound by
 * name while one loop body is written ({@link Coordinate}).
 */
abstract class LaneForms {
  final LaneRule rule;
  final Flavor flavor;
  final String v;
  final String forms;
  final boolean mixed;

  LaneForms(LaneRule rule, Flavor flavor) {
    this.rule = rule;
    this.flavor = flavor;
    this.v = flavor.vector();
    this.forms = ScalarForms.className(rule, flavor);
    this.mixed = flavor == Flavor.MIXED;
  }

  String uniformParams(boolean perCoordinate) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, String> u : rule.uniforms().entrySet()) {
      if (!(perCoordinate && rule.perCoordinate.contains(u.getKey()))) {
        sb.append(", ")
            .append(u.getValue().equals("float") ? flavor.t : u.getValue())
            .append(' ')
            .append(u.getKey());
      }
    }
    return sb.toString();
  }

  String uniformArgs(boolean perCoordinate) {
    StringBuilder sb = new StringBuilder();
    for (String u : rule.uniforms().keySet()) {
      if (!(perCoordinate && rule.perCoordinate.contains(u))) {
        sb.append(", ").append(u);
      }
    }
    return sb.toString();
  }

  List<String> segments(boolean perCoordinate) {
    List<String> s = new ArrayList<>(rule.fields);
    if (perCoordinate) {
      s.addAll(rule.perCoordinate);
    }
    return s;
  }

  String segmentParams(boolean perCoordinate) {
    return String.join(
        ", ", segments(perCoordinate).stream().map(f -> "MemorySegment " + f).toList());
  }

  String segmentArgs(boolean perCoordinate) {
    return String.join(", ", segments(perCoordinate));
  }

  /** Under mixed precision: the float fields (per-coordinate uniforms are double buffers there). */
  boolean isFloatStorage(String name) {
    return mixed && rule.mixedFloatFields.contains(name);
  }

  /** The byte offset variable of a segment of {@code storage}. */
  String offset(String storage) {
    return mixed ? (storage.equals("float") ? "of" : "od") : "o";
  }

  String loadCode(String name) {
    boolean f = isFloatStorage(name);
    return (f ? "loadFloat(" : "load(") + name + ", " + offset(f ? "float" : "double") + ")";
  }

  String storeCode(String name, String value) {
    boolean f = isFloatStorage(name);
    return f
        ? "storeFloat(" + value + ", " + name + ", of);"
        : value
            + ".intoMemorySegment("
            + name
            + ", "
            + offset("double")
            + ", VectorConstants.ORDER);";
  }

  String xLoad() {
    return mixed ? "loadFloat(xs, of)" : "load(xs, o)";
  }

  /** The loop's byte offsets at coordinate {@code i}, written into {@code out}. */
  void offsets(JavaWriter out) {
    if (mixed) {
      out.line("long of = (long) i * Float.BYTES, od = (long) i * Double.BYTES;");
    } else {
      out.line("long o = (long) i * " + flavor.boxed() + ".BYTES;");
    }
  }

  /** The derived uniforms ({@code @Uniform} functions), computed once per call. */
  String derivedUniforms(boolean perCoordinate) {
    JavaWriter w = new JavaWriter();
    CoordinateCode.uniforms(rule, flavor, w, perCoordinate);
    return w.toString();
  }

  /** Lane values by name while one loop body is written (into {@code out}). */
  final class Coordinate {
    final JavaWriter out;
    final VectorTranslator tr;
    final Map<String, Value> bound = new LinkedHashMap<>();
    final Set<String> written = new LinkedHashSet<>();

    Coordinate(JavaWriter out) {
      this.out = out;
      this.tr = new VectorTranslator(rule, flavor, out, "S");
    }

    /**
     * How a field's lanes are loaded: from its segment at the loop's offset, unless set otherwise.
     */
    java.util.function.Function<String, String> loader = LaneForms.this::loadCode;

    Value value(String name) {
      Value b = bound.get(name);
      if (b != null) {
        return b;
      }
      LaneRule.Function fn = rule.functions.get(name);
      if (fn != null && fn.phase() == Phase.UNIFORM) {
        // A uniform function of per-coordinate values: computed lane-wise here.
        call(fn);
        return bound.get(name);
      }
      if (rule.fields.contains(name) || rule.perCoordinate.contains(name)) {
        Value loaded = tr.declare(name + "0", new Value(loader.apply(name), Kind.LANE));
        bound.put(name, loaded);
        return loaded;
      }
      throw new GeneratorException(
          rule.where() + ": nothing binds '" + name + "' in the vector loop");
    }

    void call(LaneRule.Function f) {
      List<Value> args = new ArrayList<>();
      for (String p : f.params()) {
        args.add(value(p));
      }
      String name = rule.fields.contains(f.name()) ? f.name() + "1" : f.name();
      bound.put(f.name(), tr.call(f, args, name));
      if (rule.fields.contains(f.name())) {
        written.add(f.name());
      }
    }

    void calls(List<LaneRule.Function> fs) {
      fs.forEach(this::call);
    }

    void bindUniforms(boolean perCoordinate) {
      for (Map.Entry<String, String> u : rule.uniforms().entrySet()) {
        if (!(perCoordinate && rule.perCoordinate.contains(u.getKey()))) {
          bound.put(
              u.getKey(),
              new Value(u.getKey(), u.getValue().equals("boolean") ? Kind.BOOLEAN : Kind.NUMBER));
        }
      }
      for (LaneRule.Function f : rule.uniformFunctions(perCoordinate)) {
        bound.put(
            f.name(), new Value(f.name(), f.type().equals("boolean") ? Kind.BOOLEAN : Kind.NUMBER));
      }
    }

    void store(Set<String> fields) {
      for (String f : rule.fields) {
        if (fields.contains(f)) {
          out.line(storeCode(f, bound.get(f).code()));
        }
      }
    }
  }
}
