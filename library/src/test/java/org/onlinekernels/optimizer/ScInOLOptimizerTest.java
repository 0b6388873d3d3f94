package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.scinol1.ScInOL1Kernel;
import org.onlinekernels.rules.scinol1.ScInOL1Optimizer;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/** The ScInOL optimizers: scale invariance, round counter, reset, stored vs recompute mode. */
class ScInOLOptimizerTest {
  static final int D = 23;
  static final int T = 300;

  private static LinearModelOptimizer make(
      int algo, ElementType t, boolean stored, KernelProvider p) {
    ScInOLParams params = new ScInOLParams(1.0);
    return algo == 1
        ? new ScInOL1Optimizer(D, t, params, null, p)
        : new ScInOL2Optimizer(D, t, params, stored, null, p);
  }

  /**
   * Multiplying feature i of every instance by c_i (log-uniform in [1e-3, 1e3]) leaves every
   * prediction unchanged in real arithmetic. In floating point the scaled run differs by rounding
   * only: the scaled input itself (1 rounding), then G and S2 are sums of t rounded terms, so theta
   * = G / s carries a relative error of order t u (u = 2^-24 or 2^-53) against the sum of |g x|,
   * which |theta| <= sqrt(t) keeps within t u sqrt(t) in absolute terms; ScInOL1's expm1(|theta|/2)
   * turns an absolute theta error into a relative w error of half its size, and the logistic
   * gradient (Lipschitz 1/4 in yhat) feeds errors back only damped. So {@code |dyhat| <= K t^1.5 u
   * sum_i |x_i w_i|} with a small constant; we allow K = 2 (observed at most 0.33 over these eight
   * runs, float and double, vector and scalar) plus an absolute floor of the same size for
   * predictions that cancel to about 0.
   */
  @ParameterizedTest
  @CsvSource({
    "1,FLOAT,vector",
    "1,DOUBLE,vector",
    "2,FLOAT,vector",
    "2,DOUBLE,vector",
    "1,FLOAT,scalar",
    "1,DOUBLE,scalar",
    "2,FLOAT,scalar",
    "2,DOUBLE,scalar"
  })
  void predictionsAreScaleInvariant(int algo, ElementType t, String impl) {
    KernelProvider p = impl.equals("vector") ? KernelProvider.vector() : KernelProvider.scalar();
    SplittableRandom r = new SplittableRandom(42 + algo);
    double[] c = new double[D];
    double[] base = new double[D];
    for (int i = 0; i < D; i++) {
      c[i] = Math.pow(10, r.nextDouble(-3, 3));
      base[i] = Math.scalb(1.0, r.nextInt(-6, 7));
    }
    double[] truth = new double[D];
    for (int i = 0; i < D; i++) truth[i] = r.nextGaussian() / base[i];
    double u = t == ElementType.FLOAT ? 0x1p-24 : 0x1p-53;
    double worst = 0;
    try (Arena arena = Arena.ofConfined();
        LinearModelOptimizer a = make(algo, t, false, p);
        LinearModelOptimizer b = make(algo, t, false, p)) {
      MemorySegment x = arena.allocate((long) D * t.bytes()),
          xs = arena.allocate((long) D * t.bytes());
      MemorySegment w = arena.allocate((long) D * t.bytes());
      for (int round = 1; round <= T; round++) {
        double margin = 0;
        for (int i = 0; i < D; i++) {
          double v = r.nextInt(5) == 0 ? 0 : r.nextGaussian() * base[i];
          set(x, t, i, v);
          set(xs, t, i, get(x, t, i) * c[i]);
          margin += get(x, t, i) * truth[i];
        }
        double y = margin + 0.3 * r.nextGaussian() >= 0 ? 1 : -1;
        double ya = a.predict(x), yb = b.predict(xs);
        a.readWeights(w);
        double abs = 0;
        for (int i = 0; i < D; i++) abs += Math.abs(get(x, t, i) * get(w, t, i));
        double tol = 2 * Math.pow(round, 1.5) * u * (abs + 1e-3);
        worst = Math.max(worst, Math.abs(ya - yb) / (Math.pow(round, 1.5) * u * (abs + 1e-3)));
        assertEquals(ya, yb, tol, "round " + round);
        a.update(-y / (1 + Math.exp(y * ya)));
        b.update(-y / (1 + Math.exp(y * yb)));
      }
    }
    assertTrue(worst <= 2, "worst K " + worst);
  }

  @ParameterizedTest
  @CsvSource({"FLOAT", "DOUBLE"})
  void storedModeEqualsRecomputeMode(ElementType t) {
    SplittableRandom r = new SplittableRandom(7);
    try (Arena arena = Arena.ofConfined();
        ScInOL2Optimizer a = new ScInOL2Optimizer(D, t, ScInOLParams.defaults());
        ScInOL2Optimizer b =
            new ScInOL2Optimizer(D, t, ScInOLParams.defaults(), true, null, null)) {
      assertTrue(b.storesWeights() && !a.storesWeights());
      assertTrue(b.state().containsKey("w") && !a.state().containsKey("w"));
      MemorySegment x = arena.allocate((long) D * t.bytes());
      MemorySegment idx = arena.allocate(4L * D), val = arena.allocate((long) D * t.bytes());
      for (int round = 1; round <= 200; round++) {
        int nnz = 0;
        for (int i = 0; i < D; i++) {
          double v = r.nextInt(3) == 0 ? 0 : r.nextGaussian() * Math.scalb(1.0, r.nextInt(-10, 11));
          set(x, t, i, v);
          if (v != 0) {
            idx.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, nnz, i);
            set(val, t, nnz++, v);
          }
        }
        boolean sparse = round % 2 == 0;
        double ya = sparse ? a.predictSparse(idx, val, nnz) : a.predict(x);
        double yb = sparse ? b.predictSparse(idx, val, nnz) : b.predict(x);
        assertEquals(ya, yb);
        double g = r.nextGaussian();
        a.update(g);
        b.update(g);
        for (String name : new String[] {"G", "S2", "M", "eta"}) {
          MemorySegment sa = a.state().get(name), sb = b.state().get(name);
          for (int i = 0; i < D; i++)
            assertEquals(
                Double.valueOf(get(sa, t, i)), Double.valueOf(get(sb, t, i)), name + "[" + i + "]");
        }
      }
      assertEquals(201.0, a.scalarState().get("t"));
    }
  }

  @ParameterizedTest
  @CsvSource({"1", "2"})
  void roundCounterResetAndReadOut(int algo) {
    ElementType t = ElementType.DOUBLE;
    try (Arena arena = Arena.ofConfined();
        LinearModelOptimizer o = make(algo, t, false, null)) {
      AbstractOptimizer ao = (AbstractOptimizer) o;
      assertEquals(Map.of("t", 1.0), ao.scalarState());
      assertThrows(IllegalStateException.class, () -> o.update(1.0));
      MemorySegment x = arena.allocate((long) D * t.bytes()),
          w = arena.allocate((long) D * t.bytes());
      for (int i = 0; i < D; i++) set(x, t, i, i % 3 - 1.0);
      for (int round = 0; round < 5; round++) {
        o.predict(x);
        o.update(round % 2 == 0 ? 0.5 : -0.25);
      }
      assertEquals(6.0, ao.scalarState().get("t"));
      // Read-out equals the weights the next predict uses: <w, x> of read-out vs predict's yhat
      // (M already covers x, so the predict changes no M; beta only through t, hence ScInOL2 only).
      o.readWeights(w);
      double dot = 0;
      for (int i = 0; i < D; i++) dot += get(w, t, i) * get(x, t, i);
      if (algo == 2) assertEquals(dot, o.predict(x), 1e-12 * (1 + Math.abs(dot)));
      o.reset();
      assertEquals(1.0, ao.scalarState().get("t"));
      String wealth = algo == 1 ? "beta" : "eta";
      for (int i = 0; i < D; i++) {
        assertEquals(1.0, get(ao.state().get(wealth), t, i));
        assertEquals(0.0, get(ao.state().get("G"), t, i));
        assertEquals(0.0, get(ao.state().get("M"), t, i));
      }
      assertThrows(IllegalStateException.class, () -> o.update(1.0));
    }
  }

  @Test
  void rejectsBadArguments() {
    assertThrows(IllegalArgumentException.class, () -> new ScInOLParams(0));
    assertThrows(
        IllegalArgumentException.class,
        () -> new ScInOL1Optimizer(0, ElementType.FLOAT, ScInOLParams.defaults()));
    assertThrows(
        IllegalArgumentException.class, () -> new ScInOL2Optimizer(3, ElementType.FLOAT, null));
    var k = ScInOL1Kernel.of(KernelProvider.get(), ElementType.FLOAT);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment s = arena.allocate(16);
      assertThrows(IllegalArgumentException.class, () -> k.predictDense(s, s, s, s, s, 4, 0.5, 1));
      assertThrows(IllegalArgumentException.class, () -> k.predictDense(s, s, s, s, s, 4, 1, 0));
      assertThrows(IllegalArgumentException.class, () -> k.predictDense(s, s, s, s, s, 5, 1, 1));
      assertThrows(IllegalArgumentException.class, () -> k.updateDense(s, s, s, 4, Double.NaN));
    }
  }

  static void set(MemorySegment m, ElementType t, int i, double v) {
    if (t == ElementType.FLOAT) m.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) v);
    else m.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, v);
  }

  static double get(MemorySegment m, ElementType t, int i) {
    return t == ElementType.FLOAT
        ? m.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i)
        : m.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
  }
}
