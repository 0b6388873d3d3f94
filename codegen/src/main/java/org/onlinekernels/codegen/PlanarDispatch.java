package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.List;

/**
 * The adapter methods over planar state, one segment a field ({@code <Rule>RuleForms}' row and
 * dense forms): each switches on the element type, the variant and (dense) the provider.
 */
final class PlanarDispatch {
  private static final String ROWS = DispatchWriter.ROWS;
  private static final String FS = "MemorySegment[] f";

  private final LaneRule rule;
  private final DispatchWriter w;
  private final boolean stored;

  /**
   * @param stored whether the rule stores its weight (it then has a dense update that writes it)
   */
  PlanarDispatch(LaneRule rule, DispatchWriter w, boolean stored) {
    this.rule = rule;
    this.w = w;
    this.stored = stored;
  }

  /** The methods over planar state, in class order. */
  List<String> write() {
    List<String> out = new ArrayList<>(rows());
    out.addAll(dense());
    return out;
  }

  /** A row form's call: {@code form(segments, idx, rest)}. */
  private String rowCall(Flavor f, boolean pc, String form, String rest) {
    return w.forms(f)
        + "."
        + form
        + DispatchWriter.sfx(pc)
        + "("
        + w.segs(pc)
        + ", idx, "
        + rest
        + ")";
  }

  private List<String> rows() {
    List<String> out = new ArrayList<>();
    out.add(
        w.method(
            "double predictRows(" + FS + ", " + ROWS + ", RoundScratch s, double[] u)",
            false,
            true,
            (f, pc) ->
                "return "
                    + rowCall(
                        f,
                        pc,
                        "predictRows",
                        DispatchWriter.vals(f) + ", from, nnz" + w.scratch(f) + w.uniforms(f, pc))
                    + ";"));
    out.add(
        w.method(
            "void commitRows(" + FS + ", int[] idx, int from, int nnz, RoundScratch s)",
            false,
            true,
            (f, pc) ->
                rule.predictFieldOutputs().isEmpty()
                    ? "return;"
                    : rowCall(f, pc, "commitRows", "from, nnz" + w.scratch(f)) + ";"));
    out.add(
        w.method(
            "double updateRows(" + FS + ", " + ROWS + ", RoundScratch s, double g, double[] u)",
            false,
            true,
            (f, pc) -> w.sum(rowCall(f, pc, "updateRows", w.updateArgs(f, pc, true)))));
    out.add(
        w.method(
            "double updateRowsRecompute(" + FS + ", " + ROWS + ", double g, double[] u)",
            false,
            true,
            (f, pc) -> w.sum(rowCall(f, pc, "updateRowsRecompute", w.updateArgs(f, pc, false)))));
    return out;
  }

  private List<String> dense() {
    List<String> out = new ArrayList<>();
    String predict =
        "double predictDense(" + FS + ", MemorySegment x, int n, MemorySegment wOut, double[] u)";
    out.add(
        rule.computesWeight()
            ? w.denseMethod(
                predict,
                (f, pc, vec) ->
                    vec
                        ? "return "
                            + VectorForms.className(rule, f)
                            + ".predictDense"
                            + DispatchWriter.sfx(pc)
                            + "("
                            + w.segs(pc)
                            + ", x, n, wOut"
                            + w.uniforms(f, pc)
                            + ");"
                        : scalarPredict(f, pc))
            : w.unsupported(predict));
    out.add(
        w.denseMethod(
            "void updateDense(" + FS + ", MemorySegment x, int n, double g, double[] u)",
            (f, pc, vec) ->
                denseCall(f, pc, vec, "updateDense", "x, ", ", " + DispatchWriter.cast(f) + "g")));
    String storedSignature =
        "void updateDenseStored("
            + FS
            + ", MemorySegment w, MemorySegment x, int n, double g,"
            + " double[] u)";
    out.add(
        stored
            ? w.denseMethod(
                storedSignature,
                (f, pc, vec) ->
                    denseCall(
                        f,
                        pc,
                        vec,
                        "updateDenseStored",
                        "w, x, ",
                        ", " + DispatchWriter.cast(f) + "g"))
            : w.unsupported(storedSignature));
    out.add(
        w.denseMethod(
            "void weightsDense(" + FS + ", MemorySegment out, int n, double[] u)",
            (f, pc, vec) -> denseCall(f, pc, vec, "weights", "out, ", "")));
    return out;
  }

  /**
   * The call of a dense form over all {@code n} coordinates: the vector form's {@code (lead, n)},
   * the scalar form's {@code (lead, 0, n)}, then {@code tail} and the uniforms.
   */
  private String denseCall(
      Flavor f, boolean pc, boolean vec, String method, String lead, String tail) {
    return (vec ? VectorForms.className(rule, f) : w.forms(f))
        + "."
        + method
        + DispatchWriter.sfx(pc)
        + "("
        + w.segs(pc)
        + ", "
        + lead
        + (vec ? "" : "0, ")
        + "n"
        + tail
        + w.uniforms(f, pc)
        + ");";
  }

  private String scalarPredict(Flavor f, boolean pc) {
    return Template.fill(
        """
        ${t}[] p = ${vl}.scratch();
        ${vl}.clear(p, 1);
        ${forms}.predictDense${sfx}(${segs}, x, 0, n, wOut, p${uniforms});
        return ${vl}.sum(p);""",
        "t",
        f.t,
        "vl",
        "org.onlinekernels.kernel.lanes." + f.lanes + "VirtualLanes",
        "forms",
        w.forms(f),
        "sfx",
        DispatchWriter.sfx(pc),
        "segs",
        w.segs(pc),
        "uniforms",
        w.uniforms(f, pc));
  }
}
