package org.onlinekernels.codegen;

import org.onlinekernels.codegen.LaneRule.Phase;
import org.onlinekernels.codegen.VectorTranslator.Kind;
import org.onlinekernels.codegen.VectorTranslator.Value;

/**
 * The Vector API forms of a rule for one flavor, {@code <Flavor><Rule>Vectors}: the dense forms
 * over one segment per field, each lane function written out in the loop by {@link
 * VectorTranslator}, the tail run by the plain-Java forms. The predict sums in the virtual lanes'
 * order with one accumulator: a register at 512 bits, the lanes array at narrower widths (the
 * vector at {@code i} adding into lanes {@code [i mod V, i mod V + L)}), so every width and the
 * plain-Java forms give the same bits. A sparse row's fused round computes lane-wise only once its
 * records are gathered into arrays ({@link VectorGathered}); loads and stores at a row's random
 * coordinates stay plain Java under both providers.
 */
final class VectorForms extends LaneForms {
  VectorForms(LaneRule rule, Flavor flavor) {
    super(rule, flavor, new JavaWriter());
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
    out.line(
        " * "
            + rule.name
            + "'s Vector API forms in "
            + (mixed ? "mixed precision" : flavor.t)
            + ": the lane functions of {@link "
            + flavor.lanesClass(rule)
            + "}");
    out.line(
        " * written out lane-wise; tails and sparse rows run {@link "
            + forms
            + "}. See VectorForms in");
    out.line(" * online-kernels-codegen for the summation order.");
    out.line(" */");
    out.line("final class " + className(rule, flavor) + " {");
    if (mixed) {
      out.line("private static final VectorSpecies<Double> S = VectorConstants.DOUBLE_SPECIES;");
      out.line("private static final int L = S.length();");
      out.doc(
          "Float lanes as many as S has doubles: a float field or input is loaded at half width and widened.");
      out.line(
          "private static final VectorSpecies<Float> FS = VectorSpecies.of(float.class, VectorShape.forBitSize(L * Float.SIZE));");
    } else {
      out.line(
          "private static final VectorSpecies<"
              + flavor.boxed()
              + "> S = VectorConstants."
              + flavor.t.toUpperCase()
              + "_SPECIES;");
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
      out.line(
          "return (DoubleVector) FloatVector.fromMemorySegment(FS, m, byteOffset, VectorConstants.ORDER)"
              + ".convertShape(VectorOperators.F2D, S, 0);");
      out.line("}");
      out.blank();
      out.line(
          "private static void storeFloat(DoubleVector v, MemorySegment m, long byteOffset) {");
      out.line(
          "((FloatVector) v.convertShape(VectorOperators.D2F, FS, 0)).intoMemorySegment(m, byteOffset, VectorConstants.ORDER);");
      out.line("}");
    }
    dense(false);
    if (!rule.perCoordinate.isEmpty()) {
      dense(true);
    }
    if (!mixed) {
      new VectorGathered(rule, flavor, out).write();
    }
    out.line("}");
    return Generated.header(rule, className(rule, flavor) + ", the Vector API forms") + out;
  }

  // ---------------------------------------------------------------- dense

  void dense(boolean perCoordinate) {
    String sfx = perCoordinate ? "PerCoordinate" : "";
    String segs = segmentParams(perCoordinate);
    String vl = flavor.lanes + "VirtualLanes";
    String bound = mixed ? "n - n % V" : "S.loopBound(n)";

    if (rule.computesWeight()) {
      out.blank();
      out.line("/**");
      out.line(
          " * Dense predict over {@code [0, n)}: commits the predict's field values, writes {@code w} to");
      out.line(
          " * {@code wOut} unless null, returns {@code yhat} in the virtual lanes' order (one accumulator).");
      out.line(" */");
      out.line(
          "static "
              + flavor.t
              + " predictDense"
              + sfx
              + "("
              + segs
              + ", MemorySegment xs, int n, MemorySegment wOut"
              + uniformParams(perCoordinate)
              + ") {");
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
      out.line(
          w.code() + ".intoMemorySegment(wOut, " + offset("double") + ", VectorConstants.ORDER);");
      out.line("}");
      String masked =
          w.code()
              + ".blend("
              + (flavor.t.equals("float") ? "0f" : "0.0")
              + ", xv.compare(VectorOperators.EQ, "
              + (flavor.t.equals("float") ? "0f" : "0.0")
              + "))";
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
      out.line(
          forms
              + ".predictDense"
              + sfx
              + "("
              + segmentArgs(perCoordinate)
              + ", xs, bound1, n, wOut, p"
              + uniformArgs(perCoordinate)
              + ");");
      out.line("return " + vl + ".sum(p);");
      out.line("}");
    }

    out.blank();
    out.doc(
        "Dense update over {@code [0, n)}, recomputing the predict values it reads from the state.");
    out.line(
        "static void updateDense"
            + sfx
            + "("
            + segs
            + ", MemorySegment xs, int n, "
            + flavor.t
            + " g"
            + uniformParams(perCoordinate)
            + ") {");
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
    out.line(
        forms
            + ".updateDense"
            + sfx
            + "("
            + segmentArgs(perCoordinate)
            + ", xs, bound, n, g"
            + uniformArgs(perCoordinate)
            + ");");
    out.line("}");

    if (new ScalarForms(rule, flavor).storedWeight()) {
      out.blank();
      out.doc(
          "Dense update over {@code [0, n)} with the weights a storing predict wrote to {@code wIn}.");
      out.line(
          "static void updateDenseStored"
              + sfx
              + "("
              + segs
              + ", MemorySegment wIn, MemorySegment xs, int n, "
              + flavor.t
              + " g"
              + uniformParams(perCoordinate)
              + ") {");
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
      c.bound.put(
          "w", c.tr.declare("w", new Value("load(wIn, " + offset("double") + ")", Kind.LANE)));
      c.calls(rule.updatesWithoutSums());
      c.store(c.written);
      out.line("}");
      out.line(
          forms
              + ".updateDenseStored"
              + sfx
              + "("
              + segmentArgs(perCoordinate)
              + ", wIn, xs, bound, n, g"
              + uniformArgs(perCoordinate)
              + ");");
      out.line("}");
    }

    out.blank();
    out.doc("Weight read-out over {@code [0, n)}.");
    out.line(
        "static void weights"
            + sfx
            + "("
            + segs
            + ", MemorySegment out, int n"
            + uniformParams(perCoordinate)
            + ") {");
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
    out.line(
        forms
            + ".weights"
            + sfx
            + "("
            + segmentArgs(perCoordinate)
            + ", out, bound, n"
            + uniformArgs(perCoordinate)
            + ");");
    out.line("}");
  }
}
