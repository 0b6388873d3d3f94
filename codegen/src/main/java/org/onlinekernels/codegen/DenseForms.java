package org.onlinekernels.codegen;

import java.util.List;
import org.onlinekernels.codegen.LaneRule.Phase;

/**
 * The plain-Java dense forms: one segment per field, coordinates {@code [from, to)}; the predict
 * sums in the virtual lanes' order, so the vector forms give the same bits.
 */
final class DenseForms extends PlainForms {
  DenseForms(LaneRule rule, Flavor flavor, JavaWriter out) {
    super(rule, flavor, out);
  }

  /** Writes the dense forms of the variant. */
  void write(boolean perCoordinate) {
    dense(perCoordinate);
  }

  void dense(boolean perCoordinate) {
    String sfx = suffix(perCoordinate);
    String segs = fieldSegments(perCoordinate);
    String x = "MemorySegment xs";
    String xLoad = "xs.getAtIndex(" + Flavor.layout(flavor.in) + ", i)";

    if (rule.computesWeight()) {
      out.blank();
      out.line("/**");
      out.line(
          " * Dense predict over {@code [from, to)} ({@code from} a multiple of {@code V}): commits the");
      out.line(
          " * predict's field values, writes {@code w_i} to {@code wOut} unless null, and fuses each");
      out.line(
          " * {@code x_i w_i} (0 where {@code x_i == 0}) into lane {@code p[i mod V]}: the virtual lanes' order");
      out.line(" * with one accumulator, the vector forms' bits; also their tail.");
      out.line(" */");
      out.line(
          "static void predictDense"
              + sfx
              + "("
              + segs
              + ", "
              + x
              + ", int from, int to, MemorySegment wOut, "
              + t
              + "[] p"
              + uniformParams(perCoordinate)
              + ") {");
      CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
      out.line("for (int i = from; i < to; i++) {");
      out.line(t + " x = " + xLoad + ";");
      CoordinateCode c = new CoordinateCode(rule, flavor, out, fieldLoad("i")).bind("x", "x");
      bindDerived(c, perCoordinate);
      c.calls(rule.phase(Phase.PREDICT));
      for (String f : c.written()) {
        out.line(fieldStore(f, "i", c.value(f)));
      }
      out.line("if (wOut != null) {");
      out.line("wOut.setAtIndex(" + Flavor.layout(t) + ", i, " + c.value("w") + ");");
      out.line("}");
      out.line("p[i % V] = Math.fma(x, x != 0 ? " + c.value("w") + " : 0, p[i % V]);");
      out.line("}");
      out.line("}");
    }

    out.blank();
    out.doc(
        "Dense update over {@code [from, to)}, recomputing the predict values it reads from the state; also the vector forms' tail.");
    out.line(
        "static void updateDense"
            + sfx
            + "("
            + segs
            + ", "
            + x
            + ", int from, int to, "
            + t
            + " g"
            + uniformParams(perCoordinate)
            + ") {");
    CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
    out.line("for (int i = from; i < to; i++) {");
    out.line(t + " x = " + xLoad + ";");
    out.line(t + " gx = g * x;");
    CoordinateCode c =
        new CoordinateCode(rule, flavor, out, fieldLoad("i"))
            .bind("x", "x")
            .bind("g", "g")
            .bind("gx", "gx");
    bindDerived(c, perCoordinate);
    recompute(c);
    c.calls(rule.updatesWithoutSums());
    storeFields(c, List.of(), "i");
    out.line("}");
    out.line("}");

    if (storedWeight()) {
      out.blank();
      out.doc(
          "Dense update over {@code [from, to)} with the weights a storing predict wrote to {@code w}; also the vector forms' tail.");
      out.line(
          "static void updateDenseStored"
              + sfx
              + "("
              + segs
              + ", MemorySegment wIn, "
              + x
              + ", int from, int to, "
              + t
              + " g"
              + uniformParams(perCoordinate)
              + ") {");
      CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
      out.line("for (int i = from; i < to; i++) {");
      out.line(t + " x = " + xLoad + ";");
      out.line(t + " gx = g * x;");
      c =
          new CoordinateCode(rule, flavor, out, fieldLoad("i"))
              .bind("x", "x")
              .bind("g", "g")
              .bind("gx", "gx")
              .bind("w", "wIn.getAtIndex(" + Flavor.layout(t) + ", i)");
      bindDerived(c, perCoordinate);
      c.calls(rule.updatesWithoutSums());
      storeFields(c, List.of(), "i");
      out.line("}");
      out.line("}");
    }

    out.blank();
    out.doc("Weight read-out over {@code [from, to)}; also the vector forms' tail.");
    out.line(
        "static void weights"
            + sfx
            + "("
            + segs
            + ", MemorySegment out, int from, int to"
            + uniformParams(perCoordinate)
            + ") {");
    CoordinateCode.uniforms(rule, flavor, out, perCoordinate);
    out.line("for (int i = from; i < to; i++) {");
    c = new CoordinateCode(rule, flavor, out, fieldLoad("i"));
    bindDerived(c, perCoordinate);
    out.line("out.setAtIndex(" + Flavor.layout(flavor.in) + ", i, " + readOut(c) + ");");
    out.line("}");
    out.line("}");
  }
}
