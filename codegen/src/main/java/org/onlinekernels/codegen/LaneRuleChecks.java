package org.onlinekernels.codegen;

import java.util.LinkedHashSet;
import java.util.Set;
import org.onlinekernels.codegen.LaneRule.Function;
import org.onlinekernels.codegen.LaneRule.Phase;

/**
 * The checks a rule's lane class must pass before any form is generated from it: every name binds
 * to something available where it is read, and no name collides with an identifier of the generated
 * forms.
 */
final class LaneRuleChecks {
  private LaneRuleChecks() {}

  /**
   * Identifiers of the generated forms themselves (parameters, locals, constants of the loops and
   * kernels). Fields are parameters of every form, so a field of one of these names would shadow
   * one of them and the generated source would not compile, or compute something else.
   */
  private static final Set<String> RESERVED =
      Set.of(
          "D",
          "F",
          "FS",
          "L",
          "P",
          "S",
          "V",
          "FIELDS",
          "FLOAT",
          "DOUBLE",
          "MIXED",
          "HAS_MIXED",
          "KEPT",
          "SHAPE",
          "UNIFORMS",
          "PER_COORDINATE",
          "MIXED_KERNEL",
          "a0",
          "a1",
          "a2",
          "a3",
          "acc",
          "b",
          "bound",
          "bound1",
          "byteOffset",
          "c",
          "f",
          "flavor",
          "from",
          "i",
          "idx",
          "ix",
          "j",
          "lane",
          "n",
          "nnz",
          "o",
          "out",
          "p",
          "perCoordinate",
          "provider",
          "s",
          "st",
          "step",
          "stride",
          "sum",
          "to",
          "type",
          "u",
          "val",
          "vd",
          "vector",
          "vf",
          "vx",
          "wIn",
          "wOut",
          "xd",
          "xs",
          "xv",
          "yhat");

  /**
   * Refuses field names the generated forms cannot carry: a reserved identifier, or any name of the
   * rule (field, uniform, lane function) spelt like a field's loaded or new value (the forms call
   * field {@code f}'s values {@code f0} and {@code f1}: fields {@code h} and {@code h1} would
   * collide).
   */
  static void checkNames(LaneRule rule) {
    Set<String> names = new LinkedHashSet<>(rule.fields);
    names.addAll(rule.uniforms().keySet());
    for (Function f : rule.functions.values()) {
      if (f.phase() != Phase.CHECK && f.phase() != Phase.HELPER) {
        names.add(f.name());
      }
    }
    for (String f : rule.fields) {
      if (RESERVED.contains(f)) {
        throw new GeneratorException(
            rule.where()
                + ": field "
                + f
                + " is named like an identifier of the generated forms; rename it");
      }
    }
    for (String n : names) {
      for (String f : rule.fields) {
        if (n.equals(f + "0") || n.equals(f + "1")) {
          throw new GeneratorException(
              rule.where()
                  + ": the name "
                  + n
                  + " collides with field "
                  + f
                  + "'s value "
                  + n
                  + " in the generated forms; rename one of them");
        }
      }
    }
  }

  /**
   * Checks that every parameter of a phase function binds to something available at that point:
   * update functions may read predict values (the round's {@code w}); predict functions may not
   * read {@code g} or {@code gx}.
   */
  static void checkBindings(LaneRule rule) {
    Set<String> seen = new LinkedHashSet<>();
    for (Function f : rule.functions.values()) {
      if (f.phase() == Phase.PREDICT) {
        for (String p : f.params()) {
          if (p.equals("g") || p.equals("gx")) {
            throw new GeneratorException(
                rule.where()
                    + ": predict function "
                    + f.name()
                    + " reads "
                    + p
                    + ", which exists only in the update");
          }
          if (rule.functions.containsKey(p)
              && rule.functions.get(p).phase() == Phase.UPDATE
              && !rule.fields.contains(p)) {
            throw new GeneratorException(
                rule.where() + ": predict function " + f.name() + " reads update value " + p);
          }
          if (rule.functions.containsKey(p)
              && rule.functions.get(p).phase() == Phase.PREDICT
              && !seen.contains(p)
              && !rule.fields.contains(p)) {
            throw new GeneratorException(
                rule.where()
                    + ": predict function "
                    + f.name()
                    + " reads "
                    + p
                    + ", which is computed after it; reorder them");
          }
        }
        seen.add(f.name());
      }
    }
    for (Function f : rule.functions.values()) {
      if (f.phase() == Phase.UPDATE) {
        for (String p : f.params()) {
          if (rule.functions.containsKey(p)
              && rule.functions.get(p).phase() == Phase.UPDATE
              && !seen.contains(p)
              && !rule.fields.contains(p)) {
            throw new GeneratorException(
                rule.where()
                    + ": update function "
                    + f.name()
                    + " reads "
                    + p
                    + ", which is computed after it; reorder them");
          }
        }
        seen.add(f.name());
      }
    }
    for (String u : rule.perCoordinate) {
      if (!rule.uniforms().containsKey(u)) {
        throw new GeneratorException(
            rule.where() + ": perCoordinate names " + u + ", which is no uniform of the rule");
      }
    }
  }
}
