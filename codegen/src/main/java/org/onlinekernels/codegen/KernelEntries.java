package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.onlinekernels.codegen.LaneRule.Phase;

/**
 * The entries of a rule's public kernel as a model ({@link KernelApi} writes them): per entry its
 * parameters (only the fields and uniforms its lane functions use), the checks of each argument,
 * and what it returns.
 */
final class KernelEntries {
  private final LaneRule rule;
  private final boolean stored;

  KernelEntries(LaneRule rule) {
    this.rule = rule;
    this.stored = new ScalarForms(rule, Flavor.FLOAT).storedWeight();
  }

  /** An entry: its name, parameters (declaration and argument lists) and what it returns. */
  record Entry(
      String name,
      String returns,
      List<String[]> params,
      String doc,
      List<String> checks,
      boolean perCoordinate,
      Set<String> usedFields,
      Set<String> usedUniforms) {
    String signature() {
      return String.join(", ", params.stream().map(p -> p[0] + " " + p[1]).toList());
    }

    String args() {
      return String.join(", ", params.stream().map(p -> p[1]).toList());
    }

    String methodType() {
      List<String> ts = new ArrayList<>();
      ts.add(returns + ".class");
      for (String[] p : params) {
        ts.add(p[0] + ".class");
      }
      return "MethodType.methodType(" + String.join(", ", ts) + ")";
    }
  }

  /** What an entry is: its name (without the variant's suffix), and how it reads and writes. */
  private record Kind(
      String name,
      String returns,
      boolean dense,
      boolean sparse,
      boolean update,
      boolean storedW) {}

  /** Every entry of the kernel, in the order the class declares them. */
  List<Entry> all() {
    List<Entry> es = new ArrayList<>();
    for (boolean pc :
        rule.perCoordinate.isEmpty() ? new boolean[] {false} : new boolean[] {false, true}) {
      if (rule.computesWeight()) {
        predicts(es, pc);
      }
      updates(es, pc);
    }
    return es;
  }

  private static String pcDoc(LaneRule rule, boolean pc) {
    return pc ? " with per-coordinate " + String.join(", ", rule.perCoordinate) : "";
  }

  /** The predict entries of a rule that computes its weight. */
  private void predicts(List<Entry> es, boolean pc) {
    String sfx = pc ? "PerCoordinate" : "";
    add(
        es,
        new Kind("predictDense", "double", true, false, false, false),
        pc,
        "Dense predict"
            + pcDoc(rule, pc)
            + ": commits the predict's new field values and returns {@code yhat = <w, x>}.");
    if (stored) {
      add(
          es,
          new Kind("predictDenseStoring", "double", true, false, false, true),
          pc,
          "{@link #predictDense"
              + sfx
              + "} that also writes the round's weights into {@code"
              + " wOut} ({@code n} elements).");
    }
    add(
        es,
        new Kind("predictSparse", "double", false, true, false, false),
        pc,
        "Sparse predict"
            + pcDoc(rule, pc)
            + " of {@code nnz} entries of a model of dimension {@code n}; O(nnz).");
    if (stored) {
      add(
          es,
          new Kind("predictSparseStoring", "double", false, true, false, true),
          pc,
          "{@link #predictSparse"
              + sfx
              + "} that also writes the round's weights into {@code"
              + " wOut}, compact: entry {@code j}'s weight at {@code j} ({@code nnz} elements).");
    }
  }

  /** The update and read-out entries. */
  private void updates(List<Entry> es, boolean pc) {
    String sfx = pc ? "PerCoordinate" : "";
    String sparseReturns = rule.sums().isEmpty() ? "void" : "double";
    add(
        es,
        new Kind("updateDense", "void", true, false, true, false),
        pc,
        "Dense update"
            + pcDoc(rule, pc)
            + " with the loss derivative (or gradient scale) {@code"
            + " g}; the predict values it reads are recomputed from the state the predict left.");
    if (stored) {
      add(
          es,
          new Kind("updateDenseStored", "void", true, false, true, true),
          pc,
          "Dense update with the weights {@link #predictDenseStoring"
              + sfx
              + "} wrote to {@code"
              + " w}.");
      add(
          es,
          new Kind("updateSparseStored", sparseReturns, false, true, true, true),
          pc,
          "Sparse update with the compact weights {@link #predictSparseStoring"
              + sfx
              + "} wrote"
              + " to {@code w}.");
    }
    add(
        es,
        new Kind("updateSparse", sparseReturns, false, true, true, false),
        pc,
        "Sparse update"
            + pcDoc(rule, pc)
            + " of {@code nnz} entries; O(nnz)."
            + (rule.sums().isEmpty()
                ? ""
                : " Returns the sum over the entries of " + rule.sums().get(0).name() + "."));
    add(
        es,
        new Kind("weights", "void", false, false, false, false),
        pc,
        "Weight read-out"
            + pcDoc(rule, pc)
            + " into {@code out} ({@code n} elements): the predict's weight with {@code x = 0}.");
  }

  private void add(List<Entry> es, Kind k, boolean pc, String doc) {
    es.add(
        entry(
            k.name() + (pc ? "PerCoordinate" : ""),
            k.returns(),
            pc,
            k.dense(),
            k.sparse(),
            k.update(),
            k.storedW(),
            doc));
  }

  /** The lane functions an entry evaluates. */
  private List<LaneRule.Function> functionsOf(String method, boolean storedW) {
    List<LaneRule.Function> fs = new ArrayList<>();
    if (method.startsWith("predict")) {
      fs.addAll(rule.phase(Phase.PREDICT));
    } else if (method.startsWith("weights")) {
      if (rule.computesWeight()) {
        fs.addAll(rule.readOut());
      }
    } else {
      if (!storedW) {
        fs.addAll(rule.predictValuesForUpdate());
      }
      fs.addAll(
          method.startsWith("updateDense") ? rule.updatesWithoutSums() : rule.phase(Phase.UPDATE));
    }
    return fs;
  }

  /** The uniforms the functions read, with those of the uniform functions they read. */
  private Set<String> uniformsOf(List<LaneRule.Function> fs) {
    Set<String> used = new LinkedHashSet<>();
    List<LaneRule.Function> todo = new ArrayList<>(fs);
    for (int k = 0; k < todo.size(); k++) {
      for (String p : todo.get(k).params()) {
        LaneRule.Function g = rule.functions.get(p);
        if (g != null && g.phase() == Phase.UNIFORM && !todo.contains(g)) {
          todo.add(g);
        } else if (rule.uniforms().containsKey(p)) {
          used.add(p);
        }
      }
    }
    return used;
  }

  private Entry entry(
      String method,
      String returns,
      boolean pc,
      boolean dense,
      boolean sparse,
      boolean update,
      boolean storedW,
      String doc) {
    List<String[]> ps = new ArrayList<>();
    List<String> checks = new ArrayList<>();
    checks.add("KernelChecks.count(\"n\", n);");
    boolean predict = method.startsWith("predict");
    boolean weights = method.startsWith("weights");
    List<LaneRule.Function> fs = functionsOf(method, storedW);
    Set<String> usedFields = new LinkedHashSet<>(rule.fieldsUsed(fs));
    if (!rule.computesWeight() && (weights || predict)) {
      usedFields.add(rule.weightField);
    }
    Set<String> usedUniforms = uniformsOf(fs);
    fieldParams(ps, checks, usedFields, update, predict, weights);
    if (pc) {
      perCoordinateParams(ps, checks, usedUniforms);
    }
    rowParams(ps, checks, dense, sparse, update, storedW, weights);
    for (Map.Entry<String, String> u : rule.uniforms().entrySet()) {
      if (usedUniforms.contains(u.getKey()) && !(pc && rule.perCoordinate.contains(u.getKey()))) {
        ps.add(new String[] {u.getValue().equals("float") ? "double" : u.getValue(), u.getKey()});
      }
    }
    uniformChecks(checks, usedUniforms, pc);
    return new Entry(method, returns, ps, doc, checks, pc, usedFields, usedUniforms);
  }

  /** The state fields an entry takes, each checked as state it writes or input it reads. */
  private void fieldParams(
      List<String[]> ps,
      List<String> checks,
      Set<String> usedFields,
      boolean update,
      boolean predict,
      boolean weights) {
    for (String f : rule.fields) {
      if (!usedFields.contains(f)) {
        continue;
      }
      ps.add(new String[] {"MemorySegment", f});
      boolean written =
          update
              ? rule.updateFieldOutputs().contains(f)
              : predict && rule.predictFieldOutputs().contains(f);
      checks.add(
          "KernelChecks."
              + (written && !weights ? "state" : "input")
              + "(\""
              + f
              + "\", "
              + f
              + ", n, "
              + typeOf(rule, f)
              + ");");
    }
  }

  /** The per-coordinate uniforms' buffers an entry takes. */
  private void perCoordinateParams(
      List<String[]> ps, List<String> checks, Set<String> usedUniforms) {
    for (String u : rule.perCoordinate) {
      if (!usedUniforms.contains(u)) {
        continue;
      }
      ps.add(new String[] {"MemorySegment", u});
      checks.add(
          "KernelChecks.input(\""
              + u
              + "\", "
              + u
              + ", n, "
              + (rule.hasMixed() ? "mixed ? ElementType.DOUBLE : type" : "type")
              + ");");
    }
  }

  /** The stored weights, the dense or sparse row, the read-out and the derivative. */
  private static void rowParams(
      List<String[]> ps,
      List<String> checks,
      boolean dense,
      boolean sparse,
      boolean update,
      boolean storedW,
      boolean weights) {
    if (storedW && update) {
      ps.add(new String[] {"MemorySegment", "w"});
      checks.add("KernelChecks.input(\"w\", w, " + (sparse ? "nnz" : "n") + ", type);");
    }
    if (dense) {
      ps.add(new String[] {"MemorySegment", "x"});
      checks.add("KernelChecks.input(\"x\", x, n, type);");
    }
    if (weights) {
      ps.add(new String[] {"MemorySegment", "out"});
      checks.add("KernelChecks.state(\"out\", out, n, type);");
    }
    ps.add(new String[] {"int", "n"});
    if (sparse) {
      ps.add(new String[] {"MemorySegment", "idx"});
      ps.add(new String[] {"MemorySegment", "val"});
      ps.add(new String[] {"int", "nnz"});
      checks.add("KernelChecks.sparse(idx, val, nnz, n, type);");
    }
    if (storedW && !update) {
      ps.add(new String[] {"MemorySegment", "wOut"});
      checks.add("KernelChecks.state(\"wOut\", wOut, " + (sparse ? "nnz" : "n") + ", type);");
    }
    if (update) {
      ps.add(new String[] {"double", "g"});
      checks.add("KernelChecks.finite(\"g (the loss derivative, or the gradient scale)\", g);");
    }
  }

  /** The rule's {@code @Check}s an entry runs: those whose every uniform it takes. */
  private void uniformChecks(List<String> checks, Set<String> usedUniforms, boolean pc) {
    for (LaneRule.Function c : rule.phase(Phase.CHECK)) {
      // A check runs where the entry takes every uniform it reads (not one kept per coordinate).
      boolean all =
          c.params().stream()
              .allMatch(p -> usedUniforms.contains(p) && !(pc && rule.perCoordinate.contains(p)));
      if (all) {
        checks.add(
            rule.ruleClass
                + "."
                + rule.lanesClass
                + "."
                + c.name()
                + "("
                + String.join(", ", c.params())
                + ");");
      }
    }
  }

  /** The Java name of the element type of field {@code f}'s buffer in the generated class. */
  static String typeOf(LaneRule rule, String f) {
    return rule.hasMixed() ? "type" + f : "type";
  }
}
