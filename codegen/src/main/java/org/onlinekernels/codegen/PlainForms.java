package org.onlinekernels.codegen;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.onlinekernels.codegen.LaneRule.Phase;

/**
 * What every writer of a rule's plain-Java forms shares ({@link ScalarForms} and its sections
 * {@link BlockForms}, {@link FieldForms}, {@link DenseForms}): the rule, the flavor, the source
 * being written, the values a fused round keeps per entry, and the pieces of code every form
 * repeats (parameter lists, loads and stores, the contribution, the row sums).
 */
abstract class PlainForms {
  final LaneRule rule;
  final Flavor flavor;
  final String t;
  final String lanes;

  /**
   * Predict functions the fused round keeps per entry: field outputs and values the update reads.
   */
  final List<LaneRule.Function> kept;

  PlainForms(LaneRule rule, Flavor flavor) {
    this.rule = rule;
    this.flavor = flavor;
    this.t = flavor.t;
    this.lanes = flavor.lanesClass(rule);
    Set<String> keep = new LinkedHashSet<>(rule.predictFieldOutputs());
    for (LaneRule.Function f : rule.predictValuesForUpdate()) {
      keep.add(f.name());
    }
    this.kept = rule.phase(Phase.PREDICT).stream().filter(f -> keep.contains(f.name())).toList();
  }

  // ---------------------------------------------------------------- parameters

  String uniformParams(boolean perCoordinate) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, String> u : rule.uniforms().entrySet()) {
      if (perCoordinate && rule.perCoordinate.contains(u.getKey())) {
        continue;
      }
      sb.append(", ")
          .append(u.getValue().equals("float") ? t : u.getValue())
          .append(' ')
          .append(u.getKey());
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

  String fieldSegments(boolean perCoordinate) {
    List<String> s = new ArrayList<>();
    for (String f : rule.fields) {
      s.add("MemorySegment " + f);
    }
    if (perCoordinate) {
      for (String u : rule.perCoordinate) {
        s.add("MemorySegment " + u);
      }
    }
    return String.join(", ", s);
  }

  String scratchParams() {
    StringBuilder sb = new StringBuilder();
    for (LaneRule.Function f : kept) {
      sb.append(", ").append(t).append("[] ").append(scratch(f.name()));
    }
    return sb.toString();
  }

  String scratchArgs() {
    StringBuilder sb = new StringBuilder();
    for (LaneRule.Function f : kept) {
      sb.append(", ").append(scratch(f.name()));
    }
    return sb.toString();
  }

  static String scratch(String value) {
    return "out" + Character.toUpperCase(value.charAt(0)) + value.substring(1);
  }

  String suffix(boolean perCoordinate) {
    return perCoordinate ? "PerCoordinate" : "";
  }

  // ---------------------------------------------------------------- loads and stores

  String storageOf(String name) {
    // Per-coordinate uniforms are read-only buffers of the arithmetic type (double under mixed
    // precision: a rate computed from a box's width keeps its double value).
    return rule.fields.contains(name) ? flavor.storage(rule, name) : t;
  }

  /**
   * The weight's contribution {@code x w} of an entry: 0 where {@code x == 0} for a computed weight
   * (it may be infinite).
   */
  String contribution(CoordinateCode c) {
    if (rule.computesWeight()) {
      return "x != 0 ? x * " + c.value("w") + " : 0";
    }
    return "x * " + c.value(rule.weightField);
  }

  /** The array a gathered round holds field {@code field} in. */
  static String record(String field) {
    return "rec" + Character.toUpperCase(field.charAt(0)) + field.substring(1);
  }

  /** Fields a round changes, in record order: the predict's field outputs and the update's. */
  static List<String> changedFields(LaneRule rule) {
    Set<String> c = new LinkedHashSet<>(rule.predictFieldOutputs());
    c.addAll(rule.updateFieldOutputs());
    return rule.fields.stream().filter(c::contains).toList();
  }

  String keptNames() {
    return String.join(", ", kept.stream().map(LaneRule.Function::name).toList());
  }

  /** The predict functions a prediction evaluates: all of them (field outputs and the weight). */
  List<LaneRule.Function> predictForContribution() {
    return rule.phase(Phase.PREDICT);
  }

  /**
   * Recomputes, from the state, the predict values the update reads (field outputs are idempotent).
   */
  void recompute(CoordinateCode c) {
    for (LaneRule.Function f : rule.predictValuesForUpdate()) {
      c.call(f);
    }
  }

  /** The weight as read out: the predict's weight with {@code x = 0}, or the weight field. */
  String readOut(CoordinateCode c) {
    if (!rule.computesWeight()) {
      String w = c.value(rule.weightField);
      return flavor.in.equals(t) ? w : "(" + flavor.in + ") " + w;
    }
    c.bind("x", "0");
    c.calls(rule.readOut());
    String w = c.value("w");
    return flavor == Flavor.MIXED ? readOutMixed(w) : w;
  }

  /** A double weight read out as float: clamped into float's finite range first, then rounded. */
  static String readOutMixed(String w) {
    return "(float) Math.max(-Float.MAX_VALUE, Math.min(" + w + ", Float.MAX_VALUE))";
  }

  String derivedParams() {
    StringBuilder sb = new StringBuilder();
    for (LaneRule.Function f : rule.phase(Phase.UNIFORM)) {
      sb.append(", ").append(f.type().equals("float") ? t : f.type()).append(' ').append(f.name());
    }
    return sb.toString();
  }

  void bindDerived(CoordinateCode c) {
    bindDerived(c, false);
  }

  /** Binds the uniforms and the uniform functions computed once per call in this variant. */
  void bindDerived(CoordinateCode c, boolean perCoordinate) {
    for (LaneRule.Function f : rule.uniformFunctions(perCoordinate)) {
      c.bind(f.name(), f.name());
    }
    for (String u : rule.uniforms().keySet()) {
      if (!(perCoordinate && rule.perCoordinate.contains(u))) {
        c.bind(u, u);
      }
    }
  }

  /**
   * The four partial sums of a row, entry {@code j}'s contribution given by {@code
   * entry.apply("j")}, and the return of their sum.
   */
  String partialSums(Function<String, String> entry) {
    return Template.fill(
        """
        ${t} a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        int j = 0;
        for (; j + 3 < nnz; j += 4) {
          a0 += ${j};
          a1 += ${j1};
          a2 += ${j2};
          a3 += ${j3};
        }
        for (; j < nnz; j++) {
          ${t} c = ${j};
          switch (j & 3) {
            case 0 -> a0 += c;
            case 1 -> a1 += c;
            default -> a2 += c;
          }
        }
        return (a0 + a1) + (a2 + a3);""",
        "t",
        t,
        "j",
        entry.apply("j"),
        "j1",
        entry.apply("j + 1"),
        "j2",
        entry.apply("j + 2"),
        "j3",
        entry.apply("j + 3"));
  }

  String updateReturns() {
    return rule.sums().isEmpty() ? "void" : t;
  }

  /**
   * Row update forms of a rule with a {@code @Sum} function return that sum, one sum in entry
   * order: its declaration (empty without one).
   */
  String sumInit() {
    return rule.sums().isEmpty() ? "" : t + " sum = 0;";
  }

  /** The entry's summed values added to the row's sum. */
  String sumAdd(CoordinateCode c) {
    return String.join(
        "\n", rule.sums().stream().map(f -> "sum += " + c.value(f.name()) + ";").toList());
  }

  /** The return of the row's sum (empty without one). */
  String sumReturn() {
    return rule.sums().isEmpty() ? "" : "return sum;";
  }

  /** The stores of the fields written by {@code c}'s calls and of {@code fromPredict}. */
  String storeFields(CoordinateCode c, List<String> fromPredict, String index) {
    Set<String> store = new LinkedHashSet<>(fromPredict);
    store.addAll(c.written());
    List<String> lines = new ArrayList<>();
    for (String f : rule.fields) {
      if (store.contains(f)) {
        lines.add(fieldStore(f, index, c.value(f)));
      }
    }
    return String.join("\n", lines);
  }

  /** The derived uniforms ({@code @Uniform} functions), computed once per call. */
  String derivedUniforms(boolean perCoordinate) {
    JavaWriter w = new JavaWriter();
    CoordinateCode.uniforms(rule, flavor, w, perCoordinate);
    return w.toString();
  }

  Function<String, String> fieldLoad(String index) {
    return f -> f + ".getAtIndex(" + Flavor.layout(storageOf(f)) + ", " + index + ")";
  }

  String fieldStore(String field, String index, String value) {
    String s = flavor.storage(rule, field);
    String v = s.equals(t) ? value : "(" + s + ") " + value;
    return field + ".setAtIndex(" + Flavor.layout(s) + ", " + index + ", " + v + ");";
  }

  /**
   * Whether the rule has a stored-weights dense update: its weight is computed and the weight is
   * the only predict value its update reads.
   */
  boolean storedWeight() {
    return rule.computesWeight()
        && rule.predictValuesForUpdate().stream()
            .map(LaneRule.Function::name)
            .toList()
            .equals(rule.closure(Set.of("w")).stream().map(LaneRule.Function::name).toList())
        && rule.phase(Phase.UPDATE).stream().anyMatch(f -> f.params().contains("w"));
  }
}
