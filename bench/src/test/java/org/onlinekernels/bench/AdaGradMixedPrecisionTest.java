package org.onlinekernels.bench;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Smoke test of {@link AdaGradBench.Dense}'s precisions (float, mixed: {@code qType = double}
 * beside a float {@code w}, and double): every precision and implementation at d = 1003 (not a
 * multiple of any lane count), a few calls, the state's own check, and the checksums of float,
 * mixed and double close to each other (same inputs, different rounding).
 */
class AdaGradMixedPrecisionTest {
  static double run(String precision, String impl) {
    AdaGradBench.Dense s = new AdaGradBench.Dense();
    s.d = BenchSuiteTest.D;
    s.type = precision.equals("double") ? "double" : "float";
    s.qType = precision.equals("mixed") ? "double" : "same";
    s.impl = impl;
    s.warmCalls = 3;
    s.setUp();
    s.reset();
    for (int i = 0; i < BenchSuiteTest.CALLS; i++) s.step();
    s.check();
    double c = s.checksum();
    s.tearDown();
    return c;
  }

  @Test
  void allPrecisionsAgree() {
    double ref = run("double", "scalar");
    for (String impl : new String[] {"vector", "scalar"}) {
      for (String p : new String[] {"float", "mixed", "double"}) {
        BenchSuiteTest.close(p + "/" + impl, ref, run(p, impl), p.equals("double") ? 1e-9 : 2e-3);
      }
    }
    assertTrue(run("mixed", "vector") == run("mixed", "scalar"), "mixed vector == scalar");
  }

  @Test
  void mixedNeedsAFloatW() {
    AdaGradBench.Dense s = new AdaGradBench.Dense();
    s.d = BenchSuiteTest.D;
    s.type = "double";
    s.qType = "double";
    s.impl = "scalar";
    assertThrows(IllegalArgumentException.class, s::setUp);
    s.tearDown();
  }
}
