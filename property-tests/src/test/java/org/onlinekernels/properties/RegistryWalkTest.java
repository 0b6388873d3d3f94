package org.onlinekernels.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.optimizer.RuleOptimizer;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.rules.Rules;
import org.onlinekernels.testkit.KernelCheck;
import org.onlinekernels.testkit.Subject;
import org.onlinekernels.testkit.Subjects;

/**
 * The steps of docs/ADDING_A_RULE.md, walked for every rule of the registry: the registry line
 * makes an optimizer that runs the generated forms ({@link RuleOptimizer}), in float and double;
 * the test kit finds the rule's subject ({@link Subjects#of}, by its naming rule: {@code
 * <Rule>Subject} for {@code <Rule>Optimizer}), whose optimizer is the registry's, whose parameters
 * are the optimizer's record ({@link KernelCheck#forRule} hands them to a user's factory) and whose
 * reference names the optimizer's state buffers and scalars; so every suite that runs "every rule"
 * (agreement, rounds, bit identity, merges: {@code MergeProperties} walks the merge side) reaches
 * the rule from the registry. A step left out fails here with the rule's name.
 */
class RegistryWalkTest {
  private static final int D = 5;

  @Test
  void everyRuleOfTheRegistryHasItsFormsSubjectAndReference() throws ReflectiveOperationException {
    assertTrue(Rules.ALL.size() >= 10, "the registry lost rules: " + Rules.names());
    for (RuleInfo rule : Rules.ALL) {
      walk(rule);
    }
  }

  /**
   * The steps checked for one rule, in the registry or not ({@code AddedRuleTest}'s example rule):
   * the subject is found from the rule itself ({@link Subjects#of(RuleInfo, long, int,
   * ElementType)}).
   */
  static void walk(RuleInfo rule) throws ReflectiveOperationException {
    for (ElementType t : ElementType.values()) {
      String where = rule.name() + " " + t;
      try (AbstractOptimizer o =
              rule.factory()
                  .create(
                      D,
                      Precision.of(t),
                      StateLayout.PLANAR,
                      null,
                      null,
                      new RuleInfo.Params(Map.of()));
          AbstractOptimizer fromSubject =
              Subjects.of(rule, 1, D, t).optimizer(D, t, KernelProvider.get())) {
        assertInstanceOf(RuleOptimizer.class, o, where + ": not a generated rule");
        assertEquals(o.getClass(), fromSubject.getClass(), where + ": the subject's optimizer");
        Subject s = Subjects.of(rule, 1, D, t);
        ReferenceLinearModel r = s.reference(D);
        assertEquals(
            o.state().keySet(),
            s.referenceState(r).keySet(),
            where + ": the reference's buffers (ReferenceModel.buffers)");
        assertTrue(
            o.scalarState().keySet().containsAll(s.referenceScalars(r).keySet()),
            where
                + ": the reference's scalars "
                + s.referenceScalars(r).keySet()
                + " are not the optimizer's "
                + o.scalarState().keySet());
        Object params = o.getClass().getMethod("params").invoke(o);
        assertInstanceOf(
            params.getClass(),
            s.params(),
            where + ": the subject's parameters are not the optimizer's record");
        assertEquals(
            s.scaleInvariant(),
            KernelCheck.forRule(rule, Object.class, (d, type, p) -> null)
                .properties()
                .contains(KernelCheck.Property.SCALE_INVARIANCE),
            where + ": KernelCheck.forRule");
      }
    }
  }
}
