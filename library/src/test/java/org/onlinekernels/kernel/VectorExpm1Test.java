package org.onlinekernels.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.onlinekernels.rules.scinol1.ScInOL1;
import org.onlinekernels.rules.scinol1.ScInOL1Kernel;

/**
 * Accuracy of the ScInOL1 kernels' own {@code expm1} (the polynomial of {@code
 * kernel.scalar.Expm1Constants}, vector and scalar), read through the public {@link
 * ScInOL1Kernel#weights} entry: with {@code S2 = 1, M = 0, beta = 2} the weight is {@code (2
 * sgn(G)) expm1(|G|/2) / 2}, and every operation around {@code expm1} is exact (multiplying by 2
 * and dividing by 2 of a value far from the ends of the range; {@code |G| * 0.5} likewise), so the
 * weight is the kernel's {@code expm1(|G|/2)} itself.
 *
 * <p>Bound: at most 2 ulps from {@link Math#expm1} of the same argument. That is the allowance for
 * {@code expm1} in the ScInOL1 agreement tolerance ({@code ScInOL1Subject}); for float the
 * comparison is against the double {@code Math.expm1}, which is exact to float precision, so it
 * checks the polynomial alone (measured maximum here: 1.3 ulps, near {@code h = ln2/2} where {@code
 * k} first becomes 1).
 *
 * <p>Arguments: a geometric sweep from the smallest normal up to the saturation cap (every binade,
 * many points each), all multiples of 2^-12 in [0, 2] (the range-reduction boundaries {@code k ln2
 * / 2} fall there), random points, and exact boundaries (0, the cap, {@code ln2/2}, {@code ln2}).
 */
class VectorExpm1Test {

  @ParameterizedTest
  @CsvSource({"FLOAT, vector", "DOUBLE, vector", "FLOAT, scalar", "DOUBLE, scalar"})
  void expm1IsWithinTwoUlpsOfMathExpm1(ElementType t, String impl) {
    double cap = t == ElementType.FLOAT ? ScInOL1.FLOAT_EXP_CAP : ScInOL1.DOUBLE_EXP_CAP;
    double[] h = arguments(t, cap);
    int n = h.length;
    // The scalar kernel runs the same polynomial (bit for bit: BitEqualityProperties).
    ScInOL1Kernel kernel =
        ScInOL1Kernel.of(
            impl.equals("vector") ? KernelProvider.vector() : KernelProvider.scalar(), t);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment g = KernelTestSupport.slice(arena, t, n, 0);
      MemorySegment s2 = KernelTestSupport.slice(arena, t, n, 0);
      MemorySegment m = KernelTestSupport.slice(arena, t, n, 0);
      MemorySegment beta = KernelTestSupport.slice(arena, t, n, 0);
      MemorySegment out = KernelTestSupport.slice(arena, t, n, 0);
      for (int i = 0; i < n; i++) {
        // Alternate signs: the weight carries sgn(G), expm1 sees |G|/2.
        KernelTestSupport.set(g, t, i, (i & 1) == 0 ? 2 * h[i] : -2 * h[i]);
        KernelTestSupport.set(s2, t, i, 1);
        KernelTestSupport.set(beta, t, i, 2);
      }
      kernel.weights(g, s2, m, beta, out, n);
      double worst = 0;
      for (int i = 0; i < n; i++) {
        double expected = t == ElementType.FLOAT ? (float) Math.expm1(h[i]) : Math.expm1(h[i]);
        double got = KernelTestSupport.get(out, t, i) * ((i & 1) == 0 ? 1 : -1);
        double ulp = t == ElementType.FLOAT ? Math.ulp((float) expected) : Math.ulp(expected);
        if (expected == 0) {
          assertEquals(Double.valueOf(0.0), Double.valueOf(got), "expm1(0)");
          continue;
        }
        double err = Math.abs(got - expected) / ulp;
        worst = Math.max(worst, err);
        assertTrue(
            err <= 2,
            t
                + " expm1("
                + h[i]
                + ") = "
                + got
                + ", Math.expm1 "
                + expected
                + ": "
                + err
                + " ulps");
      }
      // The sweep must reach the cap, where expm1 is about e^(cap) and 2^k has its largest k.
      assertTrue(Double.isFinite(KernelTestSupport.get(out, t, n - 1)), "expm1(cap) finite");
      assertTrue(
          worst > 0, "the comparison saw rounding differences at all (worst " + worst + " ulps)");
    }
  }

  private static double[] arguments(ElementType t, double cap) {
    double tiny = t == ElementType.FLOAT ? Float.MIN_NORMAL : Double.MIN_NORMAL;
    java.util.List<Double> a = new java.util.ArrayList<>();
    a.add(0.0);
    for (double x = tiny; x < cap; x *= 1.0009765625) a.add(x); // ~700 points per binade
    for (int i = 0; i <= 2 << 12; i++) a.add(i * 0x1p-12);
    SplittableRandom r = new SplittableRandom(20261122);
    for (int i = 0; i < 20000; i++) a.add(r.nextDouble() * cap);
    double ln2 = Math.log(2);
    for (int k = 0; k <= 8; k++) {
      a.add(k * ln2 / 2);
      a.add(Math.nextUp(k * ln2 / 2));
      a.add(Math.nextDown(k * ln2 / 2 + 1e-300));
    }
    a.add(cap);
    double[] h = new double[a.size()];
    for (int i = 0; i < h.length; i++) {
      double x = a.get(i);
      // Arguments exactly representable in the element type, so the reference sees the same h.
      h[i] = t == ElementType.FLOAT ? (float) x : x;
    }
    return h;
  }
}
