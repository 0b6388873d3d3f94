package org.onlinekernels.codegen;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.Expression;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A rule's per-coordinate math as read from its source: the class annotated {@code @Lanes} nested
 * in the rule's class (see docs/ADDING_A_RULE.md for the conventions it follows). Names bind by
 * convention: a lane function's parameter named like a state field is that field's latest value,
 * {@code x} the input, {@code g} the loss derivative (or gradient scale), {@code gx} the product
 * {@code g * x}, an earlier function's name that function's value, anything else a uniform (one
 * value for every coordinate of a call).
 */
final class LaneRule {
  /** Where a lane function runs. */
  enum Phase {
    /** Computes a value per coordinate once per call from uniforms ({@code @Uniform}). */
    UNIFORM,
    /** Predict half: may give a field a new value, or compute the weight {@code w}. */
    PREDICT,
    /** Update half: gives fields new values. */
    UPDATE,
    /** Not annotated: a helper that lane functions call. */
    HELPER,
    /** A validation of uniforms for the public kernel ({@code @Check}); never translated. */
    CHECK
  }

  /** One lane function. */
  record Function(String name, Phase phase, MethodDeclaration method, List<String> params) {
    String type() {
      return method.getType().asString();
    }
  }

  final String packageName;

  /** The rule's outer class, e.g. {@code ScInOL2}. */
  final String ruleClass;

  /** The nested lanes class, e.g. {@code Rule}. */
  final String lanesClass;

  /**
   * The name the generated classes carry: the rule's class, followed by the lanes class's name
   * unless that is {@code Rule} (a file with two rules names the second, e.g. {@code
   * AdaptiveOgdBall}).
   */
  final String name;

  final ClassOrInterfaceDeclaration lanes;
  final CompilationUnit unit;
  final List<String> fields;

  /** The field that is the weight, or null when a predict function {@code w} computes it. */
  final String weightField;

  final int accumulators;

  /** Fields kept in float under mixed precision (empty: the rule has no mixed form). */
  final List<String> mixedFloatFields;

  /** Uniform parameters that the per-coordinate variant keeps in read-only buffers. */
  final List<String> perCoordinate;

  /**
   * Whether the update changes every coordinate, a zero input too (Adaptive OGD's ball): a sparse
   * update is then the dense one over the row scattered into zeros.
   */
  final boolean everyCoordinate;

  final List<FieldDeclaration> constants = new ArrayList<>();
  final Map<String, Function> functions = new LinkedHashMap<>();

  LaneRule(
      CompilationUnit unit, ClassOrInterfaceDeclaration outer, ClassOrInterfaceDeclaration lanes) {
    this.unit = unit;
    this.packageName =
        unit.getPackageDeclaration()
            .orElseThrow(
                () ->
                    new GeneratorException(
                        outer.getNameAsString() + ": a rule source needs a package"))
            .getNameAsString();
    this.ruleClass = outer.getNameAsString();
    this.lanesClass = lanes.getNameAsString();
    this.name = lanesClass.equals("Rule") ? ruleClass : ruleClass + lanesClass;
    this.lanes = lanes;
    AnnotationExpr a = lanes.getAnnotationByName("Lanes").orElseThrow();
    this.fields = LanesAnnotation.strings(a, "fields");
    String wf = LanesAnnotation.string(a, "weight");
    this.weightField = wf == null || wf.isEmpty() ? null : wf;
    Integer acc = LanesAnnotation.integer(a, "accumulators");
    this.accumulators = acc == null ? 1 : acc;
    this.mixedFloatFields = LanesAnnotation.strings(a, "mixed");
    this.perCoordinate = LanesAnnotation.strings(a, "perCoordinate");
    Expression every = LanesAnnotation.member(a, "everyCoordinate");
    this.everyCoordinate = every != null && every.toString().equals("true");
    if (fields.isEmpty()) {
      throw new GeneratorException(where() + ": @Lanes needs at least one field");
    }
    if (accumulators != 1 && accumulators != 2 && accumulators != 4) {
      throw new GeneratorException(
          where() + ": accumulators must be 1, 2 or 4, got " + accumulators);
    }
    for (FieldDeclaration f : lanes.getFields()) {
      if (!f.isStatic() || !f.isFinal()) {
        throw new GeneratorException(
            where() + ": lane classes hold only static final constants: " + f);
      }
      constants.add(f);
    }
    for (MethodDeclaration m : lanes.getMethods()) {
      Phase phase =
          m.isAnnotationPresent("Predict")
              ? Phase.PREDICT
              : m.isAnnotationPresent("Update")
                  ? Phase.UPDATE
                  : m.isAnnotationPresent("Uniform")
                      ? Phase.UNIFORM
                      : m.isAnnotationPresent("Check") ? Phase.CHECK : Phase.HELPER;
      if (!m.isStatic()) {
        throw new GeneratorException(
            where() + ": lane function " + m.getNameAsString() + " must be static");
      }
      List<String> params = new ArrayList<>();
      for (Parameter p : m.getParameters()) {
        params.add(p.getNameAsString());
      }
      Function f = new Function(m.getNameAsString(), phase, m, params);
      if (functions.put(f.name(), f) != null) {
        throw new GeneratorException(
            where() + ": lane function " + f.name() + " is defined twice (no overloads)");
      }
    }
    if (weightField == null && !functions.containsKey("w")) {
      throw new GeneratorException(
          where() + ": name a weight field (@Lanes(weight = ...)) or write a @Predict function w");
    }
    if (weightField != null && !fields.contains(weightField)) {
      throw new GeneratorException(
          where() + ": weight field " + weightField + " is not one of " + fields);
    }
    for (String f : mixedFloatFields) {
      if (!fields.contains(f)) {
        throw new GeneratorException(
            where() + ": mixed float field " + f + " is not one of " + fields);
      }
    }
    LaneRuleChecks.checkBindings(this);
    LaneRuleChecks.checkNames(this);
  }

  String where() {
    return packageName + "." + ruleClass + "." + lanesClass;
  }

  List<Function> phase(Phase p) {
    return functions.values().stream().filter(f -> f.phase() == p).toList();
  }

  boolean computesWeight() {
    return weightField == null;
  }

  boolean hasMixed() {
    return !mixedFloatFields.isEmpty();
  }

  /** Names a value can be bound to before any lane function runs, in the given phase. */
  private static final Set<String> INPUTS = Set.of("x", "g", "gx");

  /** Update functions whose values are summed over a row ({@code @Sum}). */
  List<Function> sums() {
    return phase(Phase.UPDATE).stream().filter(f -> f.method().isAnnotationPresent("Sum")).toList();
  }

  /** Update functions without the summed ones: what a dense update runs. */
  List<Function> updatesWithoutSums() {
    return phase(Phase.UPDATE).stream()
        .filter(f -> !f.method().isAnnotationPresent("Sum"))
        .toList();
  }

  /**
   * The uniforms of the rule: every parameter of a predict, update or uniform function that is
   * neither a field, an input, nor an earlier function's value, with its Java type; in first-use
   * order. Derived uniforms ({@code @Uniform} functions) are not included.
   */
  Map<String, String> uniforms() {
    Map<String, String> u = new LinkedHashMap<>();
    List<Function> order = new ArrayList<>(phase(Phase.PREDICT));
    order.addAll(phase(Phase.UPDATE));
    order.addAll(phase(Phase.UNIFORM));
    for (Function f : order) {
      if (f.phase() == Phase.CHECK) {
        continue;
      }
      for (Parameter p : f.method().getParameters()) {
        String n = p.getNameAsString();
        if (!fields.contains(n) && !INPUTS.contains(n) && !functions.containsKey(n)) {
          String prev = u.put(n, p.getType().asString());
          if (prev != null && !prev.equals(p.getType().asString())) {
            throw new GeneratorException(
                where()
                    + ": uniform "
                    + n
                    + " is "
                    + prev
                    + " in one function and "
                    + p.getType()
                    + " in another");
          }
        }
      }
    }
    return u;
  }

  /**
   * Whether uniform function {@code f} reads a per-coordinate uniform (directly or through another
   * uniform function): in the per-coordinate variant it is then computed per coordinate.
   */
  boolean perCoordinateDependent(Function f) {
    for (String p : f.params()) {
      if (perCoordinate.contains(p)) {
        return true;
      }
      Function g = functions.get(p);
      if (g != null && g.phase() == Phase.UNIFORM && perCoordinateDependent(g)) {
        return true;
      }
    }
    return false;
  }

  /** The uniform functions computed once per call in the given variant. */
  List<Function> uniformFunctions(boolean perCoordinateVariant) {
    return phase(Phase.UNIFORM).stream()
        .filter(f -> !(perCoordinateVariant && perCoordinateDependent(f)))
        .toList();
  }

  /** Uniforms that a per-coordinate variant reads from buffers instead. */
  List<String> uniformsNotPerCoordinate() {
    List<String> u = new ArrayList<>(uniforms().keySet());
    u.removeAll(perCoordinate);
    return u;
  }

  /**
   * The predict values the update needs (directly or through other predict values), in predict
   * order: these the fused round keeps per entry between its halves, and a separate update
   * recomputes from the state the predict left.
   */
  List<Function> predictValuesForUpdate() {
    Set<String> need = new LinkedHashSet<>();
    for (Function f : phase(Phase.UPDATE)) {
      for (String p : f.params()) {
        if (functions.containsKey(p) && functions.get(p).phase() == Phase.PREDICT) {
          need.add(p);
        }
      }
    }
    return closure(need);
  }

  /** The predict functions needed to compute {@code names}, in predict order. */
  List<Function> closure(Set<String> names) {
    Set<String> need = new LinkedHashSet<>(names);
    boolean grew = true;
    while (grew) {
      grew = false;
      for (Function f : phase(Phase.PREDICT)) {
        if (need.contains(f.name())) {
          for (String p : f.params()) {
            if (functions.containsKey(p)
                && functions.get(p).phase() == Phase.PREDICT
                && need.add(p)) {
              grew = true;
            }
          }
        }
      }
    }
    // A predict function named like a field changes what later predict functions read: keep it
    // if a needed function reads that field after it.
    List<Function> out = new ArrayList<>();
    List<Function> predict = phase(Phase.PREDICT);
    for (int k = predict.size() - 1; k >= 0; k--) {
      Function f = predict.get(k);
      boolean needed = need.contains(f.name());
      if (!needed && fields.contains(f.name())) {
        for (Function later : out) {
          if (later.params().contains(f.name())) {
            needed = true;
            break;
          }
        }
      }
      if (needed) {
        out.add(0, f);
        need.add(f.name());
      }
    }
    return out;
  }

  /**
   * The predict functions of a weight read-out ({@code x = 0}): those {@code w} needs, without the
   * ones that give a field a new value, which leave a coordinate with a zero input untouched (the
   * sparse convention every rule keeps).
   */
  List<Function> readOut() {
    return closure(Set.of("w")).stream().filter(f -> !fields.contains(f.name())).toList();
  }

  /** Fields that predict functions give new values. */
  List<String> predictFieldOutputs() {
    return phase(Phase.PREDICT).stream().map(Function::name).filter(fields::contains).toList();
  }

  /** Fields that update functions give new values. */
  List<String> updateFieldOutputs() {
    return phase(Phase.UPDATE).stream()
        .map(Function::name)
        .filter(fields::contains)
        .distinct()
        .toList();
  }

  /**
   * Fields read by the functions in {@code fs} (before any of them wrote it) or written by them.
   */
  Set<String> fieldsUsed(List<Function> fs) {
    Set<String> used = new LinkedHashSet<>();
    for (Function f : fs) {
      for (String p : f.params()) {
        if (fields.contains(p)) {
          used.add(p);
        }
      }
      if (fields.contains(f.name())) {
        used.add(f.name());
      }
    }
    return used;
  }
}
