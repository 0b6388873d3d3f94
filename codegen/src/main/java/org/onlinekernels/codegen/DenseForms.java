package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.List;
import org.onlinekernels.codegen.LaneRule.Phase;

/**
 * The plain-Java dense forms: one segment per field, coordinates {@code [from, to)}; the predict
 * sums in the virtual lanes' order, so the vector forms give the same bits.
 */
final class DenseForms extends PlainForms {
  private final boolean perCoordinate;
  private final String sfx;
  private final String segs;
  private final String xLoad;

  DenseForms(LaneRule rule, Flavor flavor, boolean perCoordinate) {
    super(rule, flavor);
    this.perCoordinate = perCoordinate;
    this.sfx = suffix(perCoordinate);
    this.segs = fieldSegments(perCoordinate);
    this.xLoad = "xs.getAtIndex(" + Flavor.layout(flavor.in) + ", i)";
  }

  /** The dense forms of the variant, in class order. */
  List<String> write() {
    List<String> out = new ArrayList<>();
    if (rule.computesWeight()) {
      out.add(predictDense());
    }
    JavaWriter body = new JavaWriter();
    CoordinateCode c = updateEntry(body);
    recompute(c);
    c.calls(rule.updatesWithoutSums());
    body.code(storeFields(c, List.of(), "i"));
    out.add(
        update(
            "/** Dense update over {@code [from, to)}, recomputing the predict values it reads from"
                + " the state; also the vector forms' tail. */",
            "updateDense",
            "",
            body));
    if (storedWeight()) {
      body = new JavaWriter();
      c = updateEntry(body).bind("w", "wIn.getAtIndex(" + Flavor.layout(t) + ", i)");
      c.calls(rule.updatesWithoutSums());
      body.code(storeFields(c, List.of(), "i"));
      out.add(
          update(
              "/** Dense update over {@code [from, to)} with the weights a storing predict wrote"
                  + " to {@code w}; also the vector forms' tail. */",
              "updateDenseStored",
              "MemorySegment wIn, ",
              body));
    }
    out.add(weights());
    return out;
  }

  private String predictDense() {
    JavaWriter body = new JavaWriter();
    CoordinateCode c = new CoordinateCode(rule, flavor, body, fieldLoad("i")).bind("x", "x");
    bindDerived(c, perCoordinate);
    c.calls(rule.phase(Phase.PREDICT));
    for (String f : c.written()) {
      body.line(fieldStore(f, "i", c.value(f)));
    }
    String w = c.value("w");
    return Template.fill(
        """
        /**
         * Dense predict over {@code [from, to)} ({@code from} a multiple of {@code V}): commits the
         * predict's field values, writes {@code w_i} to {@code wOut} unless null, and fuses each
         * {@code x_i w_i} (0 where {@code x_i == 0}) into lane {@code p[i mod V]}: the virtual
         * lanes' order with one accumulator, the vector forms' bits; also their tail.
         */
        static void predictDense${sfx}(${segs}, MemorySegment xs, int from, int to, \
        MemorySegment wOut, ${t}[] p${uniforms}) {
          ${derived}
          for (int i = from; i < to; i++) {
            ${t} x = ${xLoad};
            ${body}
            if (wOut != null) {
              wOut.setAtIndex(${layout}, i, ${w});
            }
            p[i % V] = Math.fma(x, x != 0 ? ${w} : 0, p[i % V]);
          }
        }""",
        "sfx",
        sfx,
        "segs",
        segs,
        "t",
        t,
        "uniforms",
        uniformParams(perCoordinate),
        "derived",
        derivedUniforms(perCoordinate),
        "xLoad",
        xLoad,
        "body",
        body,
        "layout",
        Flavor.layout(t),
        "w",
        w);
  }

  /** A dense update's per-coordinate code: {@code x}, {@code g}, {@code gx}, uniforms bound. */
  private CoordinateCode updateEntry(JavaWriter body) {
    CoordinateCode c =
        new CoordinateCode(rule, flavor, body, fieldLoad("i"))
            .bind("x", "x")
            .bind("g", "g")
            .bind("gx", "gx");
    bindDerived(c, perCoordinate);
    return c;
  }

  private String update(String doc, String name, String before, JavaWriter body) {
    return Template.fill(
        """
        ${doc}
        static void ${name}${sfx}(${segs}, ${before}MemorySegment xs, int from, int to, ${t} g\
        ${uniforms}) {
          ${derived}
          for (int i = from; i < to; i++) {
            ${t} x = ${xLoad};
            ${t} gx = g * x;
            ${body}
          }
        }""",
        "doc",
        doc,
        "name",
        name,
        "sfx",
        sfx,
        "segs",
        segs,
        "before",
        before,
        "t",
        t,
        "uniforms",
        uniformParams(perCoordinate),
        "derived",
        derivedUniforms(perCoordinate),
        "xLoad",
        xLoad,
        "body",
        body);
  }

  private String weights() {
    JavaWriter body = new JavaWriter();
    CoordinateCode c = new CoordinateCode(rule, flavor, body, fieldLoad("i"));
    bindDerived(c, perCoordinate);
    body.line("out.setAtIndex(" + Flavor.layout(flavor.in) + ", i, " + readOut(c) + ");");
    return Template.fill(
        """
        /** Weight read-out over {@code [from, to)}; also the vector forms' tail. */
        static void weights${sfx}(${segs}, MemorySegment out, int from, int to${uniforms}) {
          ${derived}
          for (int i = from; i < to; i++) {
            ${body}
          }
        }""",
        "sfx",
        sfx,
        "segs",
        segs,
        "uniforms",
        uniformParams(perCoordinate),
        "derived",
        derivedUniforms(perCoordinate),
        "body",
        body);
  }
}
