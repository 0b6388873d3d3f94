package org.onlinekernels.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.onlinekernels.rules.Rules;
import org.openjdk.jmh.annotations.Param;

/**
 * Runs every benchmark of the suite as a unit test: each state at a small size (a {@code d} that is
 * not a multiple of any lane count, so the tails run too), a few calls of the benchmark method, the
 * state's own iteration check, and a checksum compared across implementations (vector, scalar,
 * hand-written loop, double reference, Tribuo), so the suite can neither rot nor time a broken
 * kernel. Takes a few seconds.
 */
@Tag("long")
class BenchSuiteTest {
  static final int D = 1003;
  static final int CALLS = 6;

  static double tol(String type) {
    // A hand-written loop and the double reference sum yhat in their own orders, so g, and then the
    // state, differ from the kernels' by rounding. The vector and scalar kernels give the same bits
    // (docs/USING.md, "Both providers return the same bits"): those are compared with same().
    return type.equals("float") ? 2e-3 : 1e-9;
  }

  static void close(String what, double expected, double actual, double rel) {
    assertTrue(
        Math.abs(expected - actual) <= rel * Math.max(1, Math.abs(expected)),
        what + ": expected " + expected + " but was " + actual);
  }

  /** The same bits: vector and scalar kernels agree exactly (not even -0.0 against +0.0). */
  static void same(String what, double expected, double actual) {
    assertEquals(
        Double.doubleToRawLongBits(expected),
        Double.doubleToRawLongBits(actual),
        what + ": expected the bits of " + expected + " but was " + actual);
  }

  static <S extends DenseParams> S dense(Supplier<S> make, String type, String impl) {
    S s = make.get();
    s.d = D;
    s.type = type;
    s.impl = impl;
    s.warmCalls = 3;
    return s;
  }

  static <S extends SparseParams> S sparse(Supplier<S> make, String type, String impl) {
    S s = make.get();
    s.d = 1 << 14;
    s.nnz = 16;
    s.poolNonzeros = 256;
    s.warmCalls = 3;
    s.type = type;
    s.impl = impl;
    return s;
  }

  static double run(RoundState s) {
    s.setUp();
    s.reset();
    for (int i = 0; i < CALLS; i++) s.round();
    s.check();
    double c = s.checksum();
    s.tearDown();
    return c;
  }

  static double run(SparseRoundState s) {
    s.setUp();
    s.reset();
    for (int i = 0; i < CALLS; i++) s.round();
    s.check();
    double c = s.checksum();
    s.tearDown();
    return c;
  }

  @ParameterizedTest
  @ValueSource(strings = {"float", "double"})
  void adaGrad(String type) {
    AdaGradBench b = new AdaGradBench();
    double[] sums = new double[2];
    String[] impls = {"vector", "scalar"};
    for (int k = 0; k < 2; k++) {
      AdaGradBench.Dense s = dense(AdaGradBench.Dense::new, type, impls[k]);
      s.setUp();
      s.reset();
      for (int i = 0; i < CALLS; i++) b.dense(s);
      s.check();
      sums[k] = s.checksum();
      s.tearDown();
    }
    same("AdaGrad vector vs scalar", sums[1], sums[0]);

    AdaGradBench.HandWritten h = new AdaGradBench.HandWritten();
    h.d = D;
    h.type = type;
    h.setUp();
    h.reset();
    for (int i = 0; i < CALLS; i++) b.handwritten(h);
    h.check();
    close(
        "AdaGrad hand-written vs scalar",
        sums[1],
        h.checksum(),
        tol(type) + (type.equals("float") ? 1e-3 : 1e-12));

    AdaGradBench.Reference r = new AdaGradBench.Reference();
    r.d = D;
    r.setUp();
    r.reset();
    for (int i = 0; i < CALLS; i++) b.reference(r);
    r.check();
    close(
        "AdaGrad reference vs scalar", r.checksum(), sums[1], type.equals("float") ? 1e-3 : 1e-12);

    AdaGradBench.Sparse sv = sparse(AdaGradBench.Sparse::new, type, "vector");
    AdaGradBench.Sparse ss = sparse(AdaGradBench.Sparse::new, type, "scalar");
    double[] sp = new double[2];
    int k = 0;
    for (AdaGradBench.Sparse s : new AdaGradBench.Sparse[] {sv, ss}) {
      s.setUp();
      s.reset();
      for (int i = 0; i < CALLS; i++) b.sparse(s);
      s.check();
      sp[k++] = s.checksum();
      s.tearDown();
    }
    same("sparse AdaGrad vector vs scalar", sp[1], sp[0]);
  }

  @ParameterizedTest
  @ValueSource(strings = {"float", "double"})
  void scInOL2(String type) {
    double v = run(dense(ScInOL2Bench.Round::new, type, "vector"));
    double s = run(dense(ScInOL2Bench.Round::new, type, "scalar"));
    same("ScInOL2 vector vs scalar", s, v);
    run(dense(ScInOL2Bench.RoundStored::new, type, "vector"));
    run(dense(ScInOL2Bench.RoundStored::new, type, "scalar"));
    same(
        "ScInOL2 sparse vector vs scalar",
        run(sparse(ScInOL2Bench.Sparse::new, type, "scalar")),
        run(sparse(ScInOL2Bench.Sparse::new, type, "vector")));

    ScInOL2Bench b = new ScInOL2Bench();
    ScInOL2Bench.HandWritten h = new ScInOL2Bench.HandWritten();
    h.d = D;
    h.type = type;
    h.setUp();
    h.reset();
    for (int i = 0; i < CALLS; i++) b.handwritten(h);
    h.check();
    close("ScInOL2 hand-written vs scalar kernel", s, h.checksum(), 2 * tol(type));

    ScInOL2Bench.Reference r = new ScInOL2Bench.Reference();
    r.d = D;
    r.setUp();
    r.reset();
    for (int i = 0; i < CALLS; i++) b.reference(r);
    r.check();
    close(
        "ScInOL2 reference vs scalar kernel", r.checksum(), s, type.equals("float") ? 2e-3 : 1e-9);
  }

  /** The values of {@code RuleBench}'s JMH parameter {@code field} of state {@code c}. */
  static List<String> ruleValues(Class<?> c, String field) throws ReflectiveOperationException {
    return List.of(c.getField(field).getAnnotation(Param.class).value());
  }

  /**
   * Every rule of RuleBench's parameter lists: vector and scalar kernels give the same state, dense
   * and sparse; the double reference is close to the scalar kernel where the rule has one.
   */
  @ParameterizedTest
  @ValueSource(strings = {"float", "double"})
  void rules(String type) throws ReflectiveOperationException {
    for (String rule : ruleValues(RuleBench.Round.class, "rule")) {
      double s = run(dense(() -> with(new RuleBench.Round(), rule), type, "scalar"));
      same(rule, s, run(dense(() -> with(new RuleBench.Round(), rule), type, "vector")));
      if (ruleValues(RuleBench.Reference.class, "rule").contains(rule)) {
        RuleBench.Reference r = new RuleBench.Reference();
        r.rule = rule;
        r.d = D;
        r.setUp();
        r.reset();
        for (int i = 0; i < CALLS; i++) new RuleBench().reference(r);
        r.check();
        close(rule + " reference vs scalar kernel", r.checksum(), s, tol(type));
      }
    }
    for (String rule : ruleValues(RuleBench.Sparse.class, "rule")) {
      RuleBench.Sparse v = sparse(RuleBench.Sparse::new, type, "vector");
      RuleBench.Sparse c = sparse(RuleBench.Sparse::new, type, "scalar");
      v.rule = c.rule = rule;
      same(rule + " sparse", run(c), run(v));
    }
    for (String rule : ruleValues(RuleBench.Step.class, "stepRule")) {
      RuleBench.Step v = dense(RuleBench.Step::new, type, "vector");
      RuleBench.Step c = dense(RuleBench.Step::new, type, "scalar");
      v.stepRule = c.stepRule = rule;
      same(rule + " step", run(c), run(v));
    }
    for (String rule : ruleValues(RuleBench.SparseStep.class, "stepRule")) {
      RuleBench.SparseStep v = sparse(RuleBench.SparseStep::new, type, "vector");
      RuleBench.SparseStep c = sparse(RuleBench.SparseStep::new, type, "scalar");
      v.stepRule = c.stepRule = rule;
      same(rule + " sparse step", run(c), run(v));
    }
  }

  static RuleBench.Round with(RuleBench.Round s, String rule) {
    s.rule = rule;
    return s;
  }

  /** Every rule of the registry is benchmarked: in a suite of its own or in RuleBench's lists. */
  @Test
  void everyRuleIsBenchmarked() throws ReflectiveOperationException {
    Set<String> benched = new TreeSet<>(List.of("adagrad", "scinol2"));
    benched.addAll(ruleValues(RuleBench.Round.class, "rule"));
    benched.addAll(ruleValues(RuleBench.Step.class, "stepRule"));
    assertEquals(new TreeSet<>(Rules.names()), benched, "rules without a benchmark");
  }

  @Test
  void roof() {
    RoofBench b = new RoofBench();
    RoofBench.Arrays s = new RoofBench.Arrays();
    s.n = D;
    s.setUp();
    for (int i = 0; i < CALLS; i++) {
      b.copy(s);
      b.triad(s);
      b.inPlace(s);
    }
    s.check();
    // The read pass sums both arrays: compare with a plain double sum (values are O(1), D small).
    double expected = 0;
    for (int i = 0; i < s.n; i++) {
      expected +=
          s.a.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i)
              + s.b.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i);
    }
    assertEquals(expected, b.read(s), 1e-4 * Math.abs(expected) + 1e-3);
    // After copy b == a's old value; triad wrote a = b + c/2: spot-check one element exactly.
    float a0 = s.a.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 5);
    assertTrue(Float.isFinite(a0) && a0 != 0);
    s.tearDown();
  }

  @Test
  void tribuoMatchesOurAdaGrad() {
    TribuoBench b = new TribuoBench();
    TribuoBench.Dense t = new TribuoBench.Dense();
    t.d = D;
    t.setUp();
    t.reset();
    for (int i = 0; i < CALLS; i++) b.dense(t);
    t.check();
    // Tribuo adds the scaled gradient (ascent convention): its w is the negation of ours.
    AdaGradBench.Dense ours = dense(AdaGradBench.Dense::new, "double", "scalar");
    ours.setUp();
    ours.reset();
    AdaGradBench ab = new AdaGradBench();
    for (int i = 0; i < CALLS; i++) ab.dense(ours);
    double w = BenchData.checkedSum("w", ours.w, ours.t, D);
    ours.tearDown();
    assertEquals(-w, t.checksum(), 1e-9 * Math.max(1, Math.abs(w)));

    TribuoBench.Sparse sp = new TribuoBench.Sparse();
    sp.d = 1 << 14;
    sp.nnz = 16;
    sp.poolNonzeros = 256;
    sp.setUp();
    sp.reset();
    for (int i = 0; i < CALLS; i++) b.sparse(sp);
    sp.check();
    sp.tearDown();
  }
}
