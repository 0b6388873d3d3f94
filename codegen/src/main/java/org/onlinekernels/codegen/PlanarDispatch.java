package org.onlinekernels.codegen;

/**
 * The adapter methods over planar state, one segment a field ({@code <Rule>RuleForms}' row and
 * dense forms): each switches on the element type, the variant and (dense) the provider.
 */
final class PlanarDispatch {
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

  void write() {
    String rows = DispatchWriter.ROWS;
    String fs = "MemorySegment[] f";
    w.method(
        "double predictRows(" + fs + ", " + rows + ", RoundScratch s, double[] u)",
        false,
        true,
        (f, pc) ->
            "return "
                + w.forms(f)
                + ".predictRows"
                + DispatchWriter.sfx(pc)
                + "("
                + w.segs(pc)
                + ", idx, "
                + DispatchWriter.vals(f)
                + ", from, nnz"
                + w.scratch(f)
                + w.uniforms(f, pc)
                + ");");
    w.method(
        "void commitRows(" + fs + ", int[] idx, int from, int nnz, RoundScratch s)",
        false,
        true,
        (f, pc) ->
            rule.predictFieldOutputs().isEmpty()
                ? "return;"
                : w.forms(f)
                    + ".commitRows"
                    + DispatchWriter.sfx(pc)
                    + "("
                    + w.segs(pc)
                    + ", idx, from, nnz"
                    + w.scratch(f)
                    + ");");
    w.method(
        "double updateRows(" + fs + ", " + rows + ", RoundScratch s, double g, double[] u)",
        false,
        true,
        (f, pc) ->
            w.sum(
                w.forms(f)
                    + ".updateRows"
                    + DispatchWriter.sfx(pc)
                    + "("
                    + w.segs(pc)
                    + ", idx, "
                    + w.updateArgs(f, pc, true)
                    + ")"));
    w.method(
        "double updateRowsRecompute(" + fs + ", " + rows + ", double g, double[] u)",
        false,
        true,
        (f, pc) ->
            w.sum(
                w.forms(f)
                    + ".updateRowsRecompute"
                    + DispatchWriter.sfx(pc)
                    + "("
                    + w.segs(pc)
                    + ", idx, "
                    + w.updateArgs(f, pc, false)
                    + ")"));
    if (rule.computesWeight()) {
      w.denseMethod(
          "double predictDense(" + fs + ", MemorySegment x, int n, MemorySegment wOut, double[] u)",
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
                  : scalarPredict(f, pc));
    } else {
      w.unsupported(
          "double predictDense("
              + fs
              + ", MemorySegment x, int n, MemorySegment wOut, double[] u)");
    }
    w.denseMethod(
        "void updateDense(" + fs + ", MemorySegment x, int n, double g, double[] u)",
        (f, pc, vec) ->
            denseCall(f, pc, vec, "updateDense", "x, ", ", " + DispatchWriter.cast(f) + "g"));
    if (stored) {
      w.denseMethod(
          "void updateDenseStored("
              + fs
              + ", MemorySegment w, MemorySegment x, int n, double g, double[] u)",
          (f, pc, vec) ->
              denseCall(
                  f, pc, vec, "updateDenseStored", "w, x, ", ", " + DispatchWriter.cast(f) + "g"));
    } else {
      w.unsupported(
          "void updateDenseStored("
              + fs
              + ", MemorySegment w, MemorySegment x, int n, double g, double[] u)");
    }
    w.denseMethod(
        "void weightsDense(" + fs + ", MemorySegment out, int n, double[] u)",
        (f, pc, vec) -> denseCall(f, pc, vec, "weights", "out, ", ""));
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
    String vl = "org.onlinekernels.kernel.lanes." + f.lanes + "VirtualLanes";
    return f.t
        + "[] p = "
        + vl
        + ".scratch();\n"
        + vl
        + ".clear(p, 1);\n"
        + w.forms(f)
        + ".predictDense"
        + DispatchWriter.sfx(pc)
        + "("
        + w.segs(pc)
        + ", x, 0, n, wOut, p"
        + w.uniforms(f, pc)
        + ");\nreturn "
        + vl
        + ".sum(p);";
  }
}
