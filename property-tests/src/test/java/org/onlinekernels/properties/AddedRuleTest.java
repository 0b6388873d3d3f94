package org.onlinekernels.properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.RuleInfo;
import org.onlinekernels.rules.Rules;
import org.onlinekernels.rules.fixedgd.FixedRateGdOptimizer;
import org.onlinekernels.rules.fixedgd.FixedRateGdParams;
import org.onlinekernels.testkit.Agreement;
import org.onlinekernels.testkit.Case;
import org.onlinekernels.testkit.Cases;
import org.onlinekernels.testkit.CheckFailure;
import org.onlinekernels.testkit.KernelCheck;
import org.onlinekernels.testkit.OptimizerLearner;
import org.onlinekernels.testkit.Row;
import org.onlinekernels.testkit.Subject;
import org.onlinekernels.testkit.Subjects;

/**
 * docs/ADDING_A_RULE.md walked end to end for a small rule of the tests' own, {@code FixedRateGd}
 * (per-coordinate gradient descent with a fixed rate): step 1 its source {@code
 * rules/fixedgd/FixedRateGd.java}, step 2 {@code FixedRateGdOptimizer} over the forms the build
 * generated from it (this module's pom runs the library's generator over its tests' {@code rules/}
 * as the library's build does over its own), step 3 {@code ReferenceFixedRateGd}, step 4 {@code
 * testkit/FixedRateGdSubject} (found by name, nothing in the kit lists it), step 5 its one line in
 * {@link #REGISTRY} (a test cannot add to {@link Rules#ALL}, so it holds that list and the line);
 * the rule's parameters are a record of its own, {@code FixedRateGdParams}. With those and nothing
 * else the rule passes what the registry's rules pass: the steps ({@link RegistryWalkTest#walk}),
 * agreement with its reference, bit identity of vector and scalar forms, and the test kit's check
 * of the optimizer as a user's implementation (its merges: {@code AddedRuleMergeTest}); and a
 * one-ulp error planted in its update fails that check.
 */
class AddedRuleTest {
  /** Step 5: the registry with the rule's one line. */
  static final List<RuleInfo> REGISTRY =
      Stream.concat(Rules.ALL.stream(), Stream.of(FixedRateGdOptimizer.INFO)).toList();

  private static final RuleInfo RULE = REGISTRY.get(REGISTRY.size() - 1);

  @Test
  void theAddedRuleWalksTheSteps() throws ReflectiveOperationException {
    assertEquals("fixed-gd", RULE.name());
    RegistryWalkTest.walk(RULE);
  }

  @Test
  void theBuildGeneratedEveryFormOfTheAddedRule() throws ClassNotFoundException {
    for (String form :
        List.of(
            "FloatFixedRateGdLanes",
            "DoubleFixedRateGdLanes",
            "FloatFixedRateGdForms",
            "DoubleFixedRateGdForms",
            "FloatFixedRateGdVectors",
            "DoubleFixedRateGdVectors",
            "FixedRateGdKernel",
            "FixedRateGdRuleForms")) {
      Class.forName("org.onlinekernels.rules.fixedgd." + form);
    }
  }

  @Provide
  Arbitrary<Case> cases() {
    return Cases.all();
  }

  /**
   * Agreement with the reference, as {@code AgreementProperties} holds every rule of the registry
   * on both providers (long stage; the kit's check below holds the optimizer to the reference in
   * the default suite).
   */
  @Property(tries = 25)
  @net.jqwik.api.Tag("long")
  void theAddedRuleFollowsTheReference(@ForAll("cases") Case c, @ForAll boolean vector) {
    Agreement.kernelVsReference(
        subject(c), c, vector ? KernelProvider.vector() : KernelProvider.scalar());
  }

  /**
   * Vector against scalar forms, bit for bit, as {@code BitEqualityProperties} holds them (long
   * stage: about 10 s).
   */
  @Property(tries = 60)
  @net.jqwik.api.Tag("long")
  void theAddedRulesVectorFormsAreItsScalarFormsBits(@ForAll("cases") Case c) {
    Agreement.kernelVsKernel(
        subject(c), c, KernelProvider.vector(), c, KernelProvider.scalar(), true);
  }

  @Test
  void theAddedRulesOptimizerPassesTheKitsCheck() {
    KernelCheck.forRule(RULE, FixedRateGdParams.class, AddedRuleTest::optimizer)
        .seed(36)
        .tries(10)
        .run();
  }

  /**
   * The plant: the optimizer with one coordinate of each update's row moved by one ulp of the
   * element type, which the check must catch (double state must be the reference's bits).
   */
  @Test
  void aOneUlpErrorInTheAddedRulesUpdateFailsTheKitsCheck() {
    CheckFailure f =
        assertThrows(
            CheckFailure.class,
            () ->
                KernelCheck.forRule(RULE, FixedRateGdParams.class, AddedRuleTest::oneUlpOff)
                    .seed(36)
                    .tries(10)
                    .run());
    assertTrue(f.getMessage().contains("FixedRateGd"), f.getMessage());
  }

  private static Subject subject(Case c) {
    return Subjects.of(RULE, c.seed(), c.d(), c.type());
  }

  private static OptimizerLearner optimizer(int d, ElementType type, FixedRateGdParams p) {
    return new OptimizerLearner(new FixedRateGdOptimizer(d, type, p));
  }

  private static OptimizerLearner oneUlpOff(int d, ElementType type, FixedRateGdParams p) {
    return new OptimizerLearner(new FixedRateGdOptimizer(d, type, p)) {
      private Row row;

      @Override
      public double predict(Row x) {
        row = x;
        return super.predict(x);
      }

      @Override
      public void update(double g) {
        super.update(g);
        for (int k = 0; k < row.nnz(); k++) {
          if (g * row.values()[k] != 0) {
            double[] w = state("w");
            int i = row.indices()[k];
            w[i] = type == ElementType.FLOAT ? Math.nextUp((float) w[i]) : Math.nextUp(w[i]);
            writeState("w", w);
            return;
          }
        }
      }
    };
  }
}
