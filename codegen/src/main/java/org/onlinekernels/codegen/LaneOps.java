package org.onlinekernels.codegen;

import org.onlinekernels.codegen.VectorTranslator.Kind;
import org.onlinekernels.codegen.VectorTranslator.Value;

/**
 * The Vector API spelling of the single operations {@link VectorTranslator} maps a lane function's
 * Java to: broadcasts and masks, blends for selects, {@code copySign} as bit operations, and {@code
 * expm1} as the lane math's polynomial written out; with the loop locals they declare.
 */
final class LaneOps {
  private final LaneRule rule;
  private final Flavor flavor;
  private final JavaWriter out;
  private final String species;
  private int fresh;

  /**
   * @param species the Java name of the arithmetic type's species in the generated class
   */
  LaneOps(LaneRule rule, Flavor flavor, JavaWriter out, String species) {
    this.rule = rule;
    this.flavor = flavor;
    this.out = out;
    this.species = species;
  }

  /** A fresh number for a local's name, unique within the generated class. */
  int next() {
    return fresh++;
  }

  /**
   * Declares {@code name} holding {@code v} (a local of the loop), returning the name as a value.
   */
  Value declare(String name, Value v) {
    out.line(typeOf(v.kind()) + " " + name + " = " + v.code() + ";");
    return new Value(name, v.kind());
  }

  String v() {
    return flavor.vector();
  }

  String maskType() {
    return "VectorMask<" + flavor.boxed() + ">";
  }

  String typeOf(Kind k) {
    return switch (k) {
      case LANE -> v();
      case MASK -> maskType();
      case NUMBER -> flavor.t;
      case BOOLEAN -> "boolean";
    };
  }

  String number(String literal) {
    return flavor.t.equals("float")
        ? literal + "f"
        : (literal.contains(".") || literal.contains("e") || literal.contains("p")
            ? literal
            : literal + ".0");
  }

  /** {@code c ? a : b}. */
  Value select(Value c, Value a, Value b) {
    if (c.kind() == Kind.BOOLEAN) {
      if (a.kind() == Kind.NUMBER && b.kind() == Kind.NUMBER) {
        return new Value("(" + c.code() + " ? " + a.code() + " : " + b.code() + ")", Kind.NUMBER);
      }
      if (a.kind() == Kind.MASK || b.kind() == Kind.MASK) {
        return new Value(
            "(" + c.code() + " ? " + mask(a).code() + " : " + mask(b).code() + ")", Kind.MASK);
      }
      return new Value(
          "(" + c.code() + " ? " + lane(a).code() + " : " + lane(b).code() + ")", Kind.LANE);
    }
    if (c.kind() != Kind.MASK) {
      throw new GeneratorException(rule.where() + ": a condition is " + c.kind());
    }
    // b.blend(a, c): the lanes where c holds take a.
    if (a.kind() == Kind.NUMBER) {
      return new Value(lane(b).code() + ".blend(" + a.code() + ", " + c.code() + ")", Kind.LANE);
    }
    return new Value(
        lane(b).code() + ".blend(" + lane(a).code() + ", " + c.code() + ")", Kind.LANE);
  }

  Value lane(Value v) {
    return switch (v.kind()) {
      case LANE -> v;
      case NUMBER -> new Value(v() + ".broadcast(" + species + ", " + v.code() + ")", Kind.LANE);
      default ->
          throw new GeneratorException(
              rule.where() + ": a " + v.kind() + " where a number is expected");
    };
  }

  Value mask(Value v) {
    return switch (v.kind()) {
      case MASK -> v;
      case BOOLEAN -> new Value(species + ".maskAll(" + v.code() + ")", Kind.MASK);
      default ->
          throw new GeneratorException(
              rule.where() + ": a " + v.kind() + " where a condition is expected");
    };
  }

  /**
   * {@code Math.copySign(m, s)}: the magnitude's bits without their sign, with the sign's sign bit.
   */
  Value copySign(Value m, Value s) {
    boolean f = flavor.t.equals("float");
    String bits = f ? "reinterpretAsInts()" : "reinterpretAsLongs()";
    String back = f ? "reinterpretAsFloats()" : "reinterpretAsDoubles()";
    String abs = f ? "0x7fffffff" : "0x7fffffffffffffffL";
    String sign = f ? "0x80000000" : "0x8000000000000000L";
    return new Value(
        lane(m).code()
            + "."
            + bits
            + ".lanewise(VectorOperators.AND, "
            + abs
            + ").lanewise(VectorOperators.OR, "
            + lane(s).code()
            + "."
            + bits
            + ".lanewise(VectorOperators.AND, "
            + sign
            + "))."
            + back,
        Kind.LANE);
  }

  /**
   * {@code expm1(h)} by the lane math's polynomial (FloatLaneMath.expm1, the same operations in the
   * same order).
   */
  Value expm1(String fn, Value h) {
    String k = fn + "_expm1_" + next();
    Value hv = declare(k + "_h", h);
    boolean f = flavor.t.equals("float");
    out.line(
        Template.fill(
            """
            ${V} ${k}_kr = ${h}.fma(${P}.LOG2E, ${P}.ROUNDER);
            ${V} ${k}_nk = ${k}_kr.sub(${P}.ROUNDER).neg();
            ${V} ${k}_r = ${k}_nk.fma(${V}.broadcast(${S}, ${P}.LN2_LO), \
            ${k}_nk.fma(${V}.broadcast(${S}, ${P}.LN2_HI), ${h}));
            ${V} ${k}_p = ${V}.broadcast(${S}, ${P}.COEFFS[0]);
            for (int c = 1; c < ${P}.COEFFS.length; c++) {
              ${k}_p = ${k}_p.fma(${k}_r, ${V}.broadcast(${S}, ${P}.COEFFS[c]));
            }
            ${V} ${k}_twoK = ${k}_kr.${bits}.add(${C}_BITS_OFFSET)\
            .lanewise(VectorOperators.LSHL, ${C}_SIGNIFICAND_BITS).${back};""",
            "V",
            v(),
            "k",
            k,
            "h",
            hv.code(),
            "P",
            flavor.lanes + "LaneMath",
            "S",
            species,
            "bits",
            f ? "reinterpretAsInts()" : "reinterpretAsLongs()",
            "C",
            "org.onlinekernels.kernel.lanes.Expm1Constants." + (f ? "FLOAT" : "DOUBLE"),
            "back",
            f ? "reinterpretAsFloats()" : "reinterpretAsDoubles()"));
    String r = k + "_r";
    String twoK = k + "_twoK";
    return declare(
        k,
        new Value(
            r
                + ".mul("
                + r
                + ").fma("
                + k
                + "_p, "
                + r
                + ").fma("
                + twoK
                + ", "
                + twoK
                + ".sub("
                + number("1")
                + "))",
            Kind.LANE));
  }
}
