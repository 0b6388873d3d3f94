package org.onlinekernels.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.optimizer.ParameterRangeException;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.FreeGradParams;
import org.onlinekernels.params.FtrlParams;
import org.onlinekernels.params.KtParams;
import org.onlinekernels.reference.ReferenceCoordinateLearner;
import org.onlinekernels.rules.freegrad.FreeGrad;
import org.onlinekernels.rules.freegrad.FreeGradOptimizer;
import org.onlinekernels.rules.freegrad.ReferenceFreeGrad;
import org.onlinekernels.rules.ftrl.FtrlOptimizer;
import org.onlinekernels.rules.kt.Kt;
import org.onlinekernels.rules.kt.KtOptimizer;
import org.onlinekernels.rules.kt.ReferenceKt;

/**
 * Inputs at the edge of the CHECKED limits (finding B4 of issue #41): KT and FreeGrad returned
 * infinite predictions, and went on updating, from inputs within the limits (KT float, d = 1, x =
 * 2^39, g = -1: infinity at round 95; FreeGrad float d = 17 from round 252; double with x = 2^400),
 * and FTRL with an accepted {@code alpha = 1e-30} made {@code z} NaN from round 2. Now the three
 * rules clamp their weights at {@link InputPolicy#weightBound} and FTRL refuses an {@code alpha}
 * below {@link FtrlOptimizer#smallestAlpha}: every prediction is finite, every form (scalar and
 * vector kernels, planar and interleaved state) gives the same weights (and, per layout, the same
 * predictions), and the saturated weight is the bound, as in the reference.
 */
class ExtremeInputsTest {
  /** An input just within the CHECKED limit with {@code g = -1}. */
  private static double edge(ElementType t) {
    return InputPolicy.magnitudeLimit(t) / 2;
  }

  /**
   * Runs {@code rounds} dense rounds of {@code x = edge} (every coordinate), {@code g} each, on
   * every form; asserts finite predictions and identical bits; returns the read-out weights.
   */
  private static double[] everyForm(
      ElementType t, int d, int rounds, double g, Function<Object[], AbstractOptimizer> make) {
    double[] x = new double[d];
    Arrays.fill(x, edge(t));
    List<long[]> trajectories = new ArrayList<>();
    List<String> forms = new ArrayList<>();
    double[] weights = null;
    for (KernelProvider k : new KernelProvider[] {KernelProvider.scalar(), KernelProvider.get()}) {
      for (StateLayout layout : StateLayout.values()) {
        try (Arena a = Arena.ofConfined();
            AbstractOptimizer o = make.apply(new Object[] {layout, a, k})) {
          RuleDriver r = new RuleDriver(o, a);
          long[] bits = new long[rounds];
          for (int s = 0; s < rounds; s++) {
            double y = r.round(g, x);
            assertTrue(
                Double.isFinite(y),
                o.algorithm()
                    + " "
                    + t
                    + " "
                    + k
                    + " "
                    + layout
                    + ": yhat "
                    + y
                    + " at round "
                    + (s + 1));
            bits[s] = Double.doubleToRawLongBits(y);
          }
          trajectories.add(bits);
          forms.add(k + " " + layout);
          double[] w = r.weights();
          if (weights != null) {
            assertEquals(Arrays.toString(weights), Arrays.toString(w), k + " " + layout);
          }
          weights = w;
        }
      }
    }
    // Scalar and vector kernels give the same predictions on one layout; the layouts give the same
    // state (the weights above), their dense predictions sum in another order (ALGORITHMS.md 12).
    int layouts = StateLayout.values().length;
    for (int form = layouts; form < trajectories.size(); form++) {
      final int f = form;
      long[] b = trajectories.get(f);
      long[] a = trajectories.get(f - layouts);
      int first = Arrays.mismatch(a, b);
      assertTrue(
          first < 0,
          () ->
              forms.get(f)
                  + " differs from "
                  + forms.get(f - layouts)
                  + " at round "
                  + (first + 1)
                  + ": "
                  + Double.longBitsToDouble(b[first])
                  + " against "
                  + Double.longBitsToDouble(a[first]));
    }
    return weights;
  }

  /** The reference's read-out weights after the same rounds. */
  private static double[] reference(ReferenceCoordinateLearner ref, ElementType t, int rounds) {
    double[] x = new double[ref.dimension()];
    Arrays.fill(x, edge(t));
    for (int s = 0; s < rounds; s++) {
      ref.predict(x);
      ref.update(-1);
    }
    return ref.weights();
  }

  @ParameterizedTest
  @EnumSource(ElementType.class)
  void ktPredictionsStayFiniteAtTheInputLimit(ElementType t) {
    int rounds = t == ElementType.FLOAT ? 400 : 2000;
    KtParams p = KtParams.defaults();
    double[] w =
        everyForm(
            t,
            1,
            rounds,
            -1,
            a -> new KtOptimizer(1, t, p, (StateLayout) a[0], (Arena) a[1], (KernelProvider) a[2]));
    double bound = InputPolicy.weightBound(t);
    assertEquals(bound, w[0], "saturated at the bound");
    double cap = t == ElementType.FLOAT ? Kt.FLOAT_WEALTH_CAP : Kt.DOUBLE_WEALTH_CAP;
    assertEquals(bound, reference(new ReferenceKt(1, p, cap, bound), t, rounds)[0]);
  }

  @ParameterizedTest
  @EnumSource(ElementType.class)
  void freeGradPredictionsStayFiniteAtTheInputLimit(ElementType t) {
    int rounds = t == ElementType.FLOAT ? 600 : 3000;
    FreeGradParams p = FreeGradParams.defaults();
    double[] w =
        everyForm(
            t,
            17,
            rounds,
            -1,
            a ->
                new FreeGradOptimizer(
                    17, t, p, (StateLayout) a[0], (Arena) a[1], (KernelProvider) a[2]));
    double bound = InputPolicy.weightBound(t);
    double cap = t == ElementType.FLOAT ? FreeGrad.FLOAT_EXP_CAP : FreeGrad.DOUBLE_EXP_CAP;
    double[] ref = reference(new ReferenceFreeGrad(17, p, cap, bound), t, rounds);
    for (int i = 0; i < 17; i++) {
      assertEquals(bound, w[i], "saturated at the bound");
      assertEquals(bound, ref[i]);
    }
  }

  /**
   * FTRL refuses an {@code alpha} whose steps would overflow (1e-30 in float, 1e-200 in double),
   * and at the smallest accepted one a gradient at the limit, held at one sign, keeps every
   * prediction and the state finite.
   */
  @ParameterizedTest
  @EnumSource(ElementType.class)
  void ftrlRefusesAnAlphaTooSmallAndStaysFiniteAtTheSmallestItTakes(ElementType t) {
    double tooSmall = t == ElementType.FLOAT ? 1e-30 : 1e-200;
    ParameterRangeException e =
        assertThrows(
            ParameterRangeException.class,
            () -> new FtrlOptimizer(1, t, new FtrlParams(tooSmall, 1, 0, 0)).close());
    assertEquals("alpha", e.parameter());
    assertTrue(
        e.getMessage().contains("is too small for " + t.name().toLowerCase()), e.getMessage());
    FtrlParams p = new FtrlParams(FtrlOptimizer.smallestAlpha(t), 1, 0, 0);
    double[] w =
        everyForm(
            t,
            1,
            1000,
            -2, // g * x = -2 * limit / 2: the largest gradient entry CHECKED takes
            a ->
                new FtrlOptimizer(
                    1, t, p, (StateLayout) a[0], (Arena) a[1], (KernelProvider) a[2]));
    assertTrue(Double.isFinite(w[0]) && Math.abs(w[0]) <= InputPolicy.weightBound(t));
  }
}
