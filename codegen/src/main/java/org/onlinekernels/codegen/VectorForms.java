package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.List;
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
    super(rule, flavor);
  }

  static String className(LaneRule rule, Flavor flavor) {
    return flavor.prefix + rule.name + "Vectors";
  }

  String source() {
    List<String> members = new ArrayList<>();
    members.addAll(dense(false));
    if (!rule.perCoordinate.isEmpty()) {
      members.addAll(dense(true));
    }
    if (!mixed) {
      members.addAll(new VectorGathered(rule, flavor).write());
    }
    return Template.fill(
        """
        ${header}
        package ${package};

        import java.lang.foreign.MemorySegment;
        import jdk.incubator.vector.DoubleVector;
        import jdk.incubator.vector.FloatVector;
        import jdk.incubator.vector.VectorMask;
        import jdk.incubator.vector.VectorOperators;
        import jdk.incubator.vector.VectorShape;
        import jdk.incubator.vector.VectorSpecies;
        import org.onlinekernels.kernel.lanes.${L}LaneMath;
        import org.onlinekernels.kernel.lanes.${L}VirtualLanes;
        import org.onlinekernels.kernel.vector.VectorConstants;

        /**
         * ${name}'s Vector API forms in ${precision}: the lane functions of {@link ${lanes}} written
         * out lane-wise; tails and sparse rows run {@link ${forms}}. See VectorForms in
         * online-kernels-codegen for the summation order.
         */
        final class ${class} {
          ${species}
          private static final int P = VectorConstants.PARTS;
          private static final int V = ${L}VirtualLanes.LANES;

          private ${class}() {}

          private static ${v} load(MemorySegment m, long byteOffset) {
            return ${v}.fromMemorySegment(S, m, byteOffset, VectorConstants.ORDER);
          }

          ${mixedLoads}

          ${members}
        }
        """,
        "header",
        Generated.header(rule, className(rule, flavor) + ", the Vector API forms"),
        "package",
        rule.packageName,
        "L",
        flavor.lanes,
        "name",
        rule.name,
        "precision",
        mixed ? "mixed precision" : flavor.t,
        "lanes",
        flavor.lanesClass(rule),
        "forms",
        forms,
        "class",
        className(rule, flavor),
        "species",
        species(),
        "v",
        v,
        "mixedLoads",
        mixed ? MIXED_LOADS : "",
        "members",
        String.join("\n\n", members));
  }

  private String species() {
    if (mixed) {
      return """
          private static final VectorSpecies<Double> S = VectorConstants.DOUBLE_SPECIES;
          private static final int L = S.length();

          /**
           * Float lanes as many as S has doubles: a float field or input is loaded at half width
           * and widened.
           */
          private static final VectorSpecies<Float> FS =
              VectorSpecies.of(float.class, VectorShape.forBitSize(L * Float.SIZE));""";
    }
    return "private static final VectorSpecies<"
        + flavor.boxed()
        + "> S = VectorConstants."
        + flavor.t.toUpperCase()
        + "_SPECIES;\nprivate static final int L = S.length();";
  }

  private static final String MIXED_LOADS =
      """
      private static DoubleVector loadFloat(MemorySegment m, long byteOffset) {
        return (DoubleVector)
            FloatVector.fromMemorySegment(FS, m, byteOffset, VectorConstants.ORDER)
                .convertShape(VectorOperators.F2D, S, 0);
      }

      private static void storeFloat(DoubleVector v, MemorySegment m, long byteOffset) {
        ((FloatVector) v.convertShape(VectorOperators.D2F, FS, 0))
            .intoMemorySegment(m, byteOffset, VectorConstants.ORDER);
      }""";

  // ---------------------------------------------------------------- dense

  /** The dense forms of the variant, in class order. */
  List<String> dense(boolean perCoordinate) {
    List<String> out = new ArrayList<>();
    if (rule.computesWeight()) {
      out.add(predictDense(perCoordinate));
    }
    out.add(updateDense(perCoordinate, false));
    if (new ScalarForms(rule, flavor).storedWeight()) {
      out.add(updateDense(perCoordinate, true));
    }
    out.add(weights(perCoordinate));
    return out;
  }

  private String sfx(boolean perCoordinate) {
    return perCoordinate ? "PerCoordinate" : "";
  }

  private String bound() {
    return mixed ? "n - n % V" : "S.loopBound(n)";
  }

  private String predictDense(boolean perCoordinate) {
    JavaWriter body = new JavaWriter();
    offsets(body);
    Coordinate c = new Coordinate(body);
    c.bindUniforms(perCoordinate);
    Value x = c.tr.declare("xv", new Value(xLoad(), Kind.LANE));
    c.bound.put("x", x);
    c.calls(rule.phase(Phase.PREDICT));
    c.store(c.written);
    String w = c.bound.get("w").code();
    String zero = flavor.t.equals("float") ? "0f" : "0.0";
    String masked = w + ".blend(" + zero + ", xv.compare(VectorOperators.EQ, " + zero + "))";
    return Template.fill(
        """
        /**
         * Dense predict over {@code [0, n)}: commits the predict's field values, writes {@code w}
         * to {@code wOut} unless null, returns {@code yhat} in the virtual lanes' order (one
         * accumulator).
         */
        static ${t} predictDense${sfx}(${segs}, MemorySegment xs, int n, MemorySegment wOut\
        ${uniforms}) {
          ${derived}
          ${t}[] p = ${L}VirtualLanes.scratch();
          ${L}VirtualLanes.clear(p, 1);
          ${v} acc = ${v}.zero(S);
          int bound1 = n - n % V;
          for (int i = 0; i < bound1; i += L) {
            ${body}
            if (wOut != null) {
              ${w}.intoMemorySegment(wOut, ${offset}, VectorConstants.ORDER);
            }
            if (P == 1) {
              acc = xv.fma(${masked}, acc);
            } else {
              int lane = i % V;
              xv.fma(${masked}, ${v}.fromArray(S, p, lane)).intoArray(p, lane);
            }
          }
          if (P == 1) {
            acc.intoArray(p, 0);
          }
          ${forms}.predictDense${sfx}(${segArgs}, xs, bound1, n, wOut, p${uniformArgs});
          return ${L}VirtualLanes.sum(p);
        }""",
        "t",
        flavor.t,
        "sfx",
        sfx(perCoordinate),
        "segs",
        segmentParams(perCoordinate),
        "uniforms",
        uniformParams(perCoordinate),
        "derived",
        derivedUniforms(perCoordinate),
        "L",
        flavor.lanes,
        "v",
        v,
        "body",
        body,
        "w",
        w,
        "offset",
        offset("double"),
        "masked",
        masked,
        "forms",
        forms,
        "segArgs",
        segmentArgs(perCoordinate),
        "uniformArgs",
        uniformArgs(perCoordinate));
  }

  /** The dense update, recomputing the predict values it reads or ({@code stored}) reading w. */
  private String updateDense(boolean perCoordinate, boolean stored) {
    JavaWriter body = new JavaWriter();
    offsets(body);
    Coordinate c = new Coordinate(body);
    c.bindUniforms(perCoordinate);
    c.bound.put("g", new Value("g", Kind.NUMBER));
    Value x = c.tr.declare("xv", new Value(xLoad(), Kind.LANE));
    c.bound.put("x", x);
    c.bound.put("gx", c.tr.declare("gx", new Value(x.code() + ".mul(g)", Kind.LANE)));
    if (stored) {
      c.bound.put(
          "w", c.tr.declare("w", new Value("load(wIn, " + offset("double") + ")", Kind.LANE)));
    } else {
      c.calls(rule.predictValuesForUpdate());
      c.written.clear();
    }
    c.calls(rule.updatesWithoutSums());
    c.store(c.written);
    return Template.fill(
        """
        /** ${doc} */
        static void ${name}${sfx}(${segs}, ${w}MemorySegment xs, int n, ${t} g${uniforms}) {
          ${derived}
          int bound = ${bound};
          for (int i = 0; i < bound; i += L) {
            ${body}
          }
          ${forms}.${name}${sfx}(${segArgs}, ${wArg}xs, bound, n, g${uniformArgs});
        }""",
        "doc",
        stored
            ? "Dense update over {@code [0, n)} with the weights a storing predict wrote to {@code"
                + " wIn}."
            : "Dense update over {@code [0, n)}, recomputing the predict values it reads from the"
                + " state.",
        "name",
        stored ? "updateDenseStored" : "updateDense",
        "sfx",
        sfx(perCoordinate),
        "segs",
        segmentParams(perCoordinate),
        "w",
        stored ? "MemorySegment wIn, " : "",
        "t",
        flavor.t,
        "uniforms",
        uniformParams(perCoordinate),
        "derived",
        derivedUniforms(perCoordinate),
        "bound",
        bound(),
        "body",
        body,
        "forms",
        forms,
        "segArgs",
        segmentArgs(perCoordinate),
        "wArg",
        stored ? "wIn, " : "",
        "uniformArgs",
        uniformArgs(perCoordinate));
  }

  private String weights(boolean perCoordinate) {
    JavaWriter body = new JavaWriter();
    offsets(body);
    Coordinate c = new Coordinate(body);
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
      body.line(
          rule.computesWeight()
              ? "storeFloat(" + w + ".max(-Float.MAX_VALUE).min(Float.MAX_VALUE), out, of);"
              : "storeFloat(" + w + ", out, of);");
    } else {
      body.line(w + ".intoMemorySegment(out, o, VectorConstants.ORDER);");
    }
    return Template.fill(
        """
        /** Weight read-out over {@code [0, n)}. */
        static void weights${sfx}(${segs}, MemorySegment out, int n${uniforms}) {
          ${derived}
          int bound = ${bound};
          for (int i = 0; i < bound; i += L) {
            ${body}
          }
          ${forms}.weights${sfx}(${segArgs}, out, bound, n${uniformArgs});
        }""",
        "sfx",
        sfx(perCoordinate),
        "segs",
        segmentParams(perCoordinate),
        "uniforms",
        uniformParams(perCoordinate),
        "derived",
        derivedUniforms(perCoordinate),
        "bound",
        bound(),
        "body",
        body,
        "forms",
        forms,
        "segArgs",
        segmentArgs(perCoordinate),
        "uniformArgs",
        uniformArgs(perCoordinate));
  }
}
