package org.onlinekernels.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.params.DfegParams;
import org.onlinekernels.rules.dfeg.ReferenceDfeg;

/** Hand-worked rounds and the synthetic regret experiment of DFEG (ALGORITHMS.md section 5). */
class ReferenceDfegTest {

  @Test
  void firstRounds() {
    DfegParams p = DfegParams.defaults(); // a = 0.882, L = 1, delta = 1
    ReferenceDfeg a = new ReferenceDfeg(2, p);
    assertEquals(Double.valueOf(1), Double.valueOf(a.h()));
    // Round 1, x = (3, 4): ||x|| = 5, max(5, 25) = 25, H = 1 + 25 = 26; theta = 0 -> yhat = 0.
    assertEquals(Double.valueOf(0), Double.valueOf(a.predict(new double[] {3, 4})));
    assertEquals(Double.valueOf(26), Double.valueOf(a.h()));
    // g = -1: theta = (3, 4), ||theta||^2 = 25 (exact: 9 - 0 + 16 - 0).
    a.update(-1);
    assertArrayEquals(new double[] {3, 4}, a.theta());
    assertEquals(Double.valueOf(25), Double.valueOf(a.thetaNormSquared()));
    // Round 2, x = (0.5, 0): ||x|| = 0.5 > ||x||^2 = 0.25, H = 26.5;
    // yhat = exp(5/alpha) / (beta * 5) * <theta, x> = exp(5/alpha) / (5 beta) * 1.5,
    // alpha = 0.882 sqrt(26.5), beta = 26.5^1.5.
    double h = 26.5;
    double alpha = 0.882 * Math.sqrt(h);
    double beta = Math.pow(h, 1.5);
    double yhat = Math.exp(5 / alpha) / (beta * 5) * 1.5;
    assertEquals(yhat, a.predictSparse(new int[] {0}, new double[] {0.5}, 1), 1e-15 * yhat);
    assertEquals(Double.valueOf(h), Double.valueOf(a.h()));
    // Read-out uses the current H = 26.5 and does not increment it.
    double[] w = a.weights();
    double scale = Math.exp(5 / alpha) / (beta * 5);
    assertEquals(3 * scale, w[0], 1e-15 * 3 * scale);
    assertEquals(4 * scale, w[1], 1e-15 * 4 * scale);
    assertEquals(Double.valueOf(h), Double.valueOf(a.h()));
    // g = 2: theta_0 = 3 - 2*0.5 = 2; ||theta||^2 = 25 + (4 - 9) = 20.
    a.update(2);
    assertArrayEquals(new double[] {2, 4}, a.theta());
    assertEquals(Double.valueOf(20), Double.valueOf(a.thetaNormSquared()));
  }

  @Test
  void zeroThetaGivesZeroWeightsAndAllZeroInstance() {
    ReferenceDfeg a = new ReferenceDfeg(3, DfegParams.defaults());
    assertArrayEquals(new double[3], a.weights());
    // All-zero instance: ||x|| = 0 adds nothing to H; the update changes nothing.
    assertEquals(Double.valueOf(0), Double.valueOf(a.predict(new double[3])));
    a.update(5);
    assertEquals(Double.valueOf(1), Double.valueOf(a.h()));
    assertArrayEquals(new double[3], a.theta());
    // theta returning exactly to 0 gives ||theta||^2 = 0 and w = 0 again.
    a.predict(new double[] {0, 2, 0});
    a.update(1);
    a.predict(new double[] {0, 2, 0});
    a.update(-1);
    assertEquals(Double.valueOf(0), Double.valueOf(a.thetaNormSquared()));
    assertEquals(Double.valueOf(0), Double.valueOf(a.predict(new double[] {1, 1, 1})));
  }

  @Test
  void incrementalNormStaysCloseToRecomputed() {
    ReferenceDfeg a = new ReferenceDfeg(20, DfegParams.defaults());
    SplittableRandom r = new SplittableRandom(21);
    for (int t = 0; t < 2000; t++) {
      double[] x = TestData.dense(r, 20, 0.7, t, 50);
      double yhat = a.predict(x);
      a.update(Loss.LOGISTIC.derivative(TestData.label(r), yhat));
    }
    double kept = a.thetaNormSquared();
    double exact = a.recomputeNorm();
    assertEquals(exact, kept, 1e-12 * exact);
    assertEquals(Double.valueOf(exact), Double.valueOf(a.thetaNormSquared()));
  }

  @Test
  void expOverflowThrowsAndLeavesStateUnchanged() {
    ReferenceDfeg a = new ReferenceDfeg(2, DfegParams.defaults());
    a.theta()[0] = 1e6;
    a.recomputeNorm();
    // exp(1e6 / (0.882 sqrt(H))) overflows for H ~ 2.
    ArithmeticException e =
        assertThrows(ArithmeticException.class, () -> a.predict(new double[] {1, 0}));
    assertTrue(e.getMessage().contains("theta"), e.getMessage());
    assertEquals(Double.valueOf(1), Double.valueOf(a.h()));
    assertEquals(Double.valueOf(1e12), Double.valueOf(a.thetaNormSquared()));
    // No instance pending after a failed prediction.
    assertThrows(IllegalStateException.class, () -> a.update(1));
    assertThrows(ArithmeticException.class, a::weights);
  }

  /**
   * Orabona 2013's synthetic sequence: identical unit inputs, labels alternating +1/-1, absolute
   * loss. The competitor u = 0 loses 1 per round. DFEG's regret against it stays bounded (its bound
   * at ||u|| = 0 is a constant); OGD with eta/sqrt(t) pays Theta(sqrt T). Observed: DFEG regret
   * 1.025 at 1e4 and 1.032 at 1e5; OGD (eta = 1) 99.6 and 315.8, ratio sqrt(10) = 3.16.
   */
  @Test
  void syntheticSequenceRegretStaysBounded() {
    ReferenceDfeg dfeg = new ReferenceDfeg(1, new DfegParams(0.882, 1, 1));
    double[] x = {1};
    double regret = 0;
    double ogdW = 0;
    double ogdRegret = 0;
    double regret1e4 = 0;
    double ogd1e4 = 0;
    for (int t = 1; t <= 100_000; t++) {
      double y = t % 2 == 1 ? 1 : -1;
      double yhat = dfeg.predict(x);
      regret += Loss.ABSOLUTE.value(y, yhat) - 1;
      dfeg.update(Loss.ABSOLUTE.derivative(y, yhat));
      // OGD: w_{t+1} = w_t - (eta / sqrt t) * g_t, eta = 1.
      ogdRegret += Loss.ABSOLUTE.value(y, ogdW) - 1;
      ogdW -= 1 / Math.sqrt(t) * Loss.ABSOLUTE.derivative(y, ogdW);
      if (t == 10_000) {
        regret1e4 = regret;
        ogd1e4 = ogdRegret;
      }
    }
    assertTrue(regret < 1.1, "DFEG regret at 1e5: " + regret);
    assertTrue(regret - regret1e4 < 0.05, "DFEG regret grew from " + regret1e4 + " to " + regret);
    double ratio = ogdRegret / ogd1e4;
    assertEquals(Math.sqrt(10), ratio, 0.05, "OGD regret ratio 1e5/1e4");
    assertTrue(ogdRegret > 100 * regret);
  }
}
