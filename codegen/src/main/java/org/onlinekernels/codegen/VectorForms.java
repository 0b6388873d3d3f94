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
 * The Vector API forms of a rule for one flavor, {@code <Flavor><Rule>Vectors}: the dense forms
 * over one segment per field, each lane function written out in the loop by
 * {@link VectorTranslator}, the tail run by the plain-Java forms. The predict sums in the virtual
 * lanes' order with one accumulator: a register at 512 bits, the lanes array at narrower widths
 * (the vector at {@code i} adding into lanes {@code [i mod V, i mod V + L)}), so every width and
 * the plain-Java forms give the same bits. Sparse rows run the plain-Java forms under both
 * providers (a row's coordinates are random: gathering them into lanes costs more than it saves).
 */
final class VectorForms {
  private final LaneRule rule;
  private final Flavor flavor;
  private final JavaWriter out = new JavaWriter();
  private final String v;
  private final String forms;
  private final boolean mixed;

  VectorForms(LaneRule rule, Flavor flavor) {
    this.rule = rule;
    this.flavor = flavor;
    this.v = flavor.vector();
    this.forms = ScalarForms.className(rule, flavor);
    this.mixed = flavor == Flavor.MIXED;
  }

  static String className(LaneRule rule, Flavor flavor) {
    return flavor.prefix + rule.name + "Vectors";
  }

  String source() {
    out.line("package " + rule.packageName + ";");
    out.blank();
    out.line("import java.lang.foreign.MemorySegment;");
    if (flavor != Flavor.FLOAT) {
      out.line("import jdk.incubator.vector.DoubleVector;");
    }
    out.line("import jdk.incubator.vector.FloatVector;");
    out.line("import jdk.incubator.vector.VectorMask;");
    out.line("import jdk.incubator.vector.VectorOperators;");
    if (mixed) {
      out.line("import jdk.incubator.vector.VectorShape;");
    }
    out.line("import jdk.incubator.vector.VectorSpecies;");
    out.line("import org.onlinekernels.kernel.lanes." + flavor.lanes + "LaneMath;");
    out.line("import org.onlinekernels.kernel.lanes." + flavor.lanes + "VirtualLanes;");
    out.line("import org.onlinekernels.kernel.vector.VectorConstants;");
    out.blank();
    out.line("/**");
    out.line(" * " + rule.name + "'s Vector API forms in " + (mixed ? "mixed precision" : flavor.t)
        + ": the lane functions of {@link " + flavor.lanesClass(rule) + "}");
    out.line(" * written out lane-wise; tails and sparse rows run {@link " + forms + "}. See VectorForms in");
    out.line(" * online-kernels-codegen for the summation order.");
    out.line(" */");
    out.line("final class " + className(rule, flavor) + " {");
    if (mixed) {
      out.line("private static final VectorSpecies<Double> S = VectorConstants.DOUBLE_SPECIES;");
      out.line("private static final int L = S.length();");
      out.doc("Float lanes as many as S has doubles: a float field or input is loaded at half width and widened.");
      out.line("private static final VectorSpecies<Float> FS = VectorSpecies.of(float.class, VectorShape.forBitSize(L * Float.SIZE));");
    } else {
      out.line("private static final VectorSpecies<" + flavor.boxed() + "> S = VectorConstants." + flavor.t.toUpperCase() + "_SPECIES;");
      out.line("private static final int L = S.length();");
    }
    out.line("private static final int P = VectorConstants.PARTS;");
    out.line("private static final int V = " + flavor.lanes + "VirtualLanes.LANES;");
    out.blank();
    out.line("private " + className(rule, flavor) + "() {}");
    out.blank();
    out.line("private static " + v + " load(MemorySegment m, long byteOffset) {");
    out.line("return " + v + ".fromMemorySegment(S, m, byteOffset, VectorConstants.ORDER);");
    out.line("}");
    if (mixed) {
      out.blank();
      out.line("private static DoubleVector loadFloat(MemorySegment m, long byteOffset) {");
      out.line("return (DoubleVector) FloatVector.fromMemorySegment(FS, m, byteOffset, VectorConstants.ORDER)"
          + ".convertShape(VectorOperators.F2D, S, 0);");
      out.line("}");
      out.blank();
      out.line("private static void storeFloat(DoubleVector v, MemorySegment m, long byteOffset) {");
      out.line("((FloatVector) v.convertShape(VectorOperators.D2F, FS, 0)).intoMemorySegment(m, byteOffset, VectorConstants.ORDER);");
      out.line("}");
    }
    dense(false);
    if (!rule.perCoordinate.isEmpty()) {
      dense(true);
    }
    if (!mixed) {
      gathered();
    }
    out.line("}");
    return Generated.header(rule, className(rule, flavor) + ", the Vector API forms") + out;
  }

  // ---------------------------------------------------------------- helpers

  private String uniformParams(boolean perCoordinate) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, String> u : rule.uniforms().entrySet()) {
      if (!(perCoordinate && rule.perCoordinate.contains(u.getKey()))) {
        sb.append(", ").append(u.getValue().equals("float") ? flavor.t : u.getValue()).append(' ').append(u.getKey());
      }
    }
    return sb.toString();
  }

  private String uniformArgs(boolean perCoordinate) {
    StringBuilder sb = new StringBuilder();
    for (String u : rule.uniforms().keySet()) {
      if (!(perCoordinate && rule.perCoordinate.contains(u))) {
        sb.append(", ").append(u);
      }
    }
    return sb.toString();
  }

  private List<String> segments(boolean perCoordinate) {
    List<String> s = new ArrayList<>(rule.fields);
    if (perCoordinate) {
      s.addAll(rule.perCoordinate);
    }
    return s;
  }

  private String segmentParams(boolean perCoordinate) {
    return String.join(", ", segments(perCoordinate).stream().map(f -> "MemorySegment " + f).toList());
  }

  private String segmentArgs(boolean perCoordinate) {
    return String.join(", ", segments(perCoordinate));
  }

  /** Under mixed precision: the float fields (per-coordinate uniforms are double buffers there). */
  private boolean isFloatStorage(String name) {
    return mixed && rule.mixedFloatFields.contains(name);
  }

  /** The byte offset variable of a segment of {@code storage}. */
  private String offset(String storage) {
    return mixed ? (storage.equals("float") ? "of" : "od") : "o";
  }

  private String loadCode(String name) {
    boolean f = isFloatStorage(name);
    return (f ? "loadFloat(" : "load(") + name + ", " + offset(f ? "float" : "double") + ")";
  }

  private String storeCode(String name, String value) {
    boolean f = isFloatStorage(name);
    return f ? "storeFloat(" + value + ", " + name + ", of);" : value + ".intoMemorySegment(" + name + ", " + offset("double")
        + ", VectorConstants.ORDER);";
  }

  private String xLoad() {
    return mixed ? "loadFloat(xs, of)" : "load(xs, o)";
  }

  private void offsets() {
    if (mixed) {
      out.line("long of = (long) i * Float.BYTES, od = (long) i * Double.BYTES;");
    } else {
      out.line("long o = (long) i * " + flavor.boxed() + ".BYTES;");
    }
  }

  /** Lane values by name while one loop body is written. */
  private final class Coordinate {
    final VectorTranslator tr = new VectorTranslator(rule, flavor, out, "S");
    final Map<String, Value> bound = new LinkedHashMap<>();
    final Set<String> written = new LinkedHashSet<>();
    /** How a field's lanes are loaded: from its segment at the loop's offset, unless set otherwise. */
    java.util.function.Function<String, String> loader = VectorForms.this::loadCode;

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
      throw new GeneratorException(rule.where() + ": nothing binds '" + name + "' in the vector loop");
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
          bound.put(u.getKey(), new Value(u.getKey(), u.getValue().equals("boolean") ? Kind.BOOLEAN : Kind.NUMBER));
        }
      }
      for (LaneRule.Function f : rule.uniformFunctions(perCoordinate)) {
        bound.put(f.name(), new Value(f.name(), f.type().equals("boolean") ? Kind.BOOLEAN : Kind.NUMBER));
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

  // ---------------------------------------------------------------- gathered rows

  /**
   * The compute steps of a gathered round (ScalarForms' {@code gathered}) lane-wise over the
   * record arrays: entry {@code j} in lane {@code j mod L}, each lane doing the entry's scalar
   * operations; the tail, and a rule's summed update values, run the plain-Java forms.
   */
  private void gathered() {
    String recs = String.join(", ", rule.fields.stream().map(f -> flavor.t + "[] " + ScalarForms.record(f)).toList());
    String recArgs = String.join(", ", rule.fields.stream().map(ScalarForms::record).toList());
    List<LaneRule.Function> kept = ScalarForms.kept(rule).stream().map(rule.functions::get).toList();
    String keptParams = kept.stream().map(f -> ", " + flavor.t + "[] " + ScalarForms.scratch(f.name())).reduce("", String::concat);
    String keptArgs = kept.stream().map(f -> ", " + ScalarForms.scratch(f.name())).reduce("", String::concat);
    String zero = flavor.t.equals("float") ? "0f" : "0.0";

    out.blank();
    out.doc("Predict half of a gathered round over entries {@code [0, nnz)}: kept values and contributions, lane-wise.");
    out.line("static void predictGathered(" + recs + ", " + flavor.t + "[] val, int from, int nnz" + keptParams + ", " + flavor.t
        + "[] contrib" + uniformParams(false) + ") {");
    CoordinateCode.uniforms(rule, flavor, out, false);
    out.line("int bound = S.loopBound(nnz);");
    out.line("for (int j = 0; j < bound; j += L) {");
    Coordinate c = new Coordinate();
    c.loader = f -> v + ".fromArray(S, " + ScalarForms.record(f) + ", j)";
    c.bindUniforms(false);
    Value x = c.tr.declare("xv", new Value(v + ".fromArray(S, val, from + j)", Kind.LANE));
    c.bound.put("x", x);
    c.calls(rule.phase(Phase.PREDICT));
    for (LaneRule.Function f : kept) {
      out.line(c.bound.get(f.name()).code() + ".intoArray(" + ScalarForms.scratch(f.name()) + ", j);");
    }
    String w = rule.computesWeight() ? c.bound.get("w").code() : c.value(rule.weightField).code();
    String contribution = rule.computesWeight()
        ? "xv.mul(" + w + ").blend(" + zero + ", xv.compare(VectorOperators.EQ, " + zero + "))"
        : "xv.mul(" + w + ")";
    out.line(contribution + ".intoArray(contrib, j);");
    out.line("}");
    out.line(forms + ".predictGathered(" + recArgs + ", val, from, bound, nnz" + keptArgs + ", contrib" + uniformArgs(false) + ");");
    out.line("}");

    if (rule.sums().isEmpty()) {
      out.blank();
      out.doc("Update half of a gathered round over entries {@code [0, nnz)}, lane-wise: new field values into the record arrays.");
      out.line("static void updateGathered(" + recs + ", " + flavor.t + "[] val, int from, int nnz" + keptParams + ", " + flavor.t + " g"
          + uniformParams(false) + ") {");
      CoordinateCode.uniforms(rule, flavor, out, false);
      out.line("int bound = S.loopBound(nnz);");
      out.line("for (int j = 0; j < bound; j += L) {");
      c = new Coordinate();
      c.loader = f -> v + ".fromArray(S, " + ScalarForms.record(f) + ", j)";
      c.bindUniforms(false);
      c.bound.put("g", new Value("g", Kind.NUMBER));
      x = c.tr.declare("xv", new Value(v + ".fromArray(S, val, from + j)", Kind.LANE));
      c.bound.put("x", x);
      c.bound.put("gx", c.tr.declare("gx", new Value(x.code() + ".mul(g)", Kind.LANE)));
      for (LaneRule.Function f : kept) {
        if (rule.phase(Phase.UPDATE).stream().noneMatch(u -> u.params().contains(f.name()))) {
          continue;
        }
        c.bound.put(f.name(), c.tr.declare(f.name() + "Kept", new Value(v + ".fromArray(S, " + ScalarForms.scratch(f.name()) + ", j)",
            Kind.LANE)));
      }
      c.calls(rule.phase(Phase.UPDATE));
      for (String f : rule.fields) {
        if (c.written.contains(f)) {
          out.line(c.bound.get(f).code() + ".intoArray(" + ScalarForms.record(f) + ", j);");
        }
      }
      out.line("}");
      out.line(forms + ".updateGathered(" + recArgs + ", val, from, bound, nnz" + keptArgs + ", g" + uniformArgs(false) + ");");
      out.line("}");
    }
  }

  // ---------------------------------------------------------------- dense

  private void dense(boolean perCoordinate) {
    String sfx = perCoordinate ? "PerCoordinate" : "";
    String segs = segmentParams(perCoordinate);
    String vl = flavor.lanes + "VirtualLanes";
    String bound = mixed ? "n - n % V" : "S.loopBound(n)";

    if (rule.computesWeight()) {
      out.blank();
      out.line("/**");
      out.line(" * Dense predict over {@code [0, n)}: commits the predict's field values, writes {@code w} to");
      out.line(" * {@code wOut} unless null, returns {@code yhat} in the virtual lanes' order (one accumulator).");
      out.line(" */");
      out.line("static " + flavor.t + " predictDense" + sfx + "(" + segs + ", MemorySegment xs, int n, MemorySegment wOut"
          + uniformParams(perCoordinate) + ") {");
      CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
      out.line(flavor.t + "[] p = " + vl + ".scratch();");
      out.line(vl + ".clear(p, 1);");
      out.line(v + " acc = " + v + ".zero(S);");
      out.line("int bound1 = n - n % V;");
      out.line("for (int i = 0; i < bound1; i += L) {");
      offsets();
      Coordinate c = new Coordinate();
      c.bindUniforms(perCoordinate);
      Value x = c.tr.declare("xv", new Value(xLoad(), Kind.LANE));
      c.bound.put("x", x);
      c.calls(rule.phase(Phase.PREDICT));
      c.store(c.written);
      Value w = c.bound.get("w");
      out.line("if (wOut != null) {");
      out.line(w.code() + ".intoMemorySegment(wOut, " + offset("double") + ", VectorConstants.ORDER);");
      out.line("}");
      String masked = w.code() + ".blend(" + (flavor.t.equals("float") ? "0f" : "0.0") + ", xv.compare(VectorOperators.EQ, "
          + (flavor.t.equals("float") ? "0f" : "0.0") + "))";
      out.line("if (P == 1) {");
      out.line("acc = xv.fma(" + masked + ", acc);");
      out.line("} else {");
      out.line("int lane = i % V;");
      out.line("xv.fma(" + masked + ", " + v + ".fromArray(S, p, lane)).intoArray(p, lane);");
      out.line("}");
      out.line("}");
      out.line("if (P == 1) {");
      out.line("acc.intoArray(p, 0);");
      out.line("}");
      out.line(forms + ".predictDense" + sfx + "(" + segmentArgs(perCoordinate) + ", xs, bound1, n, wOut, p"
          + uniformArgs(perCoordinate) + ");");
      out.line("return " + vl + ".sum(p);");
      out.line("}");
    }

    out.blank();
    out.doc("Dense update over {@code [0, n)}, recomputing the predict values it reads from the state.");
    out.line("static void updateDense" + sfx + "(" + segs + ", MemorySegment xs, int n, " + flavor.t + " g"
        + uniformParams(perCoordinate) + ") {");
    CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
    out.line("int bound = " + bound + ";");
    out.line("for (int i = 0; i < bound; i += L) {");
    offsets();
    Coordinate c = new Coordinate();
    c.bindUniforms(perCoordinate);
    c.bound.put("g", new Value("g", Kind.NUMBER));
    Value x = c.tr.declare("xv", new Value(xLoad(), Kind.LANE));
    c.bound.put("x", x);
    c.bound.put("gx", c.tr.declare("gx", new Value(x.code() + ".mul(g)", Kind.LANE)));
    c.calls(rule.predictValuesForUpdate());
    c.written.clear();
    c.calls(rule.updatesWithoutSums());
    c.store(c.written);
    out.line("}");
    out.line(forms + ".updateDense" + sfx + "(" + segmentArgs(perCoordinate) + ", xs, bound, n, g" + uniformArgs(perCoordinate) + ");");
    out.line("}");

    if (new ScalarForms(rule, flavor).storedWeight()) {
      out.blank();
      out.doc("Dense update over {@code [0, n)} with the weights a storing predict wrote to {@code wIn}.");
      out.line("static void updateDenseStored" + sfx + "(" + segs + ", MemorySegment wIn, MemorySegment xs, int n, " + flavor.t
          + " g" + uniformParams(perCoordinate) + ") {");
      CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
      out.line("int bound = " + bound + ";");
      out.line("for (int i = 0; i < bound; i += L) {");
      offsets();
      c = new Coordinate();
      c.bindUniforms(perCoordinate);
      c.bound.put("g", new Value("g", Kind.NUMBER));
      x = c.tr.declare("xv", new Value(xLoad(), Kind.LANE));
      c.bound.put("x", x);
      c.bound.put("gx", c.tr.declare("gx", new Value(x.code() + ".mul(g)", Kind.LANE)));
      c.bound.put("w", c.tr.declare("w", new Value("load(wIn, " + offset("double") + ")", Kind.LANE)));
      c.calls(rule.updatesWithoutSums());
      c.store(c.written);
      out.line("}");
      out.line(forms + ".updateDenseStored" + sfx + "(" + segmentArgs(perCoordinate) + ", wIn, xs, bound, n, g"
          + uniformArgs(perCoordinate) + ");");
      out.line("}");
    }

    out.blank();
    out.doc("Weight read-out over {@code [0, n)}.");
    out.line("static void weights" + sfx + "(" + segs + ", MemorySegment out, int n" + uniformParams(perCoordinate) + ") {");
    CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
    out.line("int bound = " + bound + ";");
    out.line("for (int i = 0; i < bound; i += L) {");
    offsets();
    c = new Coordinate();
    c.bindUniforms(perCoordinate);
    String w;
    if (rule.computesWeight()) {
      c.bound.put("x", new Value(flavor.t.equals("float") ? "0f" : "0.0", Kind.NUMBER));
      c.calls(rule.readOut());
      w = c.bound.get("w").code();
    } else {
      w = c.value(rule.weightField).code();
    }
    if (mixed) {
      if (rule.computesWeight()) {
        out.line("storeFloat(" + w + ".max(-Float.MAX_VALUE).min(Float.MAX_VALUE), out, of);");
      } else {
        out.line("storeFloat(" + w + ", out, of);");
      }
    } else {
      out.line(w + ".intoMemorySegment(out, o, VectorConstants.ORDER);");
    }
    out.line("}");
    out.line(forms + ".weights" + sfx + "(" + segmentArgs(perCoordinate) + ", out, bound, n" + uniformArgs(perCoordinate) + ");");
    out.line("}");
  }
}
