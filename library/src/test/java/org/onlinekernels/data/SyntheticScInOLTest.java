package org.onlinekernels.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SyntheticScInOLTest {
  private static final int N = 20_000;

  private static double logisticLoss(SparseDataset ds, double[] w) {
    double[] x = new double[ds.dimension()];
    double sum = 0;
    for (int r = 0; r < ds.size(); r++) {
      ds.denseRow(r, x);
      double m = 0;
      for (int j = 0; j < x.length; j++) {
        m += w[j] * x[j];
      }
      double z = ds.label(r) * m;
      sum += z > 0 ? Math.log1p(Math.exp(-z)) : -z + Math.log1p(Math.exp(z));
    }
    return sum / ds.size();
  }

  @Test
  void sameSeedSameData() {
    SparseDataset a = SyntheticScInOL.generate(500, 42);
    SparseDataset b = SyntheticScInOL.generate(500, 42);
    assertArrayEquals(a.values(), b.values());
    for (int r = 0; r < a.size(); r++) {
      assertEquals(a.label(r), b.label(r));
    }
    assertArrayEquals(SyntheticScInOL.trueWeights(42), SyntheticScInOL.trueWeights(42));
  }

  @Test
  void fixedValuesForSeedOne() {
    // Pinned so that a change of algorithm (or a JVM that draws differently) is noticed: the data
    // set of a seed is part of the experiments' record.
    SparseDataset ds = SyntheticScInOL.generate(3, 1);
    double[] v = ds.values();
    assertEquals(GOLDEN_FIRST, v[0]);
    assertEquals(GOLDEN_LAST, v[v.length - 1]);
    assertEquals(GOLDEN_LABELS, "" + (int) ds.label(0) + (int) ds.label(1) + (int) ds.label(2));
    double[] u = SyntheticScInOL.trueWeights(1);
    StringBuilder signs = new StringBuilder();
    for (double w : u) {
      signs.append(w > 0 ? '+' : '-');
    }
    assertEquals(GOLDEN_SIGNS, signs.toString());
  }

  private static final double GOLDEN_FIRST = -6.332609452823665E-4;
  private static final double GOLDEN_LAST = -751.2745013960582;
  private static final String GOLDEN_LABELS = "1-1-1";
  private static final String GOLDEN_SIGNS = "+------+++--+-+++++--";

  @Test
  void differentSeedsDiffer() {
    assertFalse(
        java.util.Arrays.equals(
            SyntheticScInOL.generate(10, 1).values(), SyntheticScInOL.generate(10, 2).values()));
    assertFalse(
        java.util.Arrays.equals(SyntheticScInOL.trueWeights(1), SyntheticScInOL.trueWeights(2)));
  }

  @Test
  void sampleSeedChangesXButNotU() {
    SparseDataset train = SyntheticScInOL.generate(10, 7);
    SparseDataset test = SyntheticScInOL.generate(10, 7, 1);
    assertFalse(java.util.Arrays.equals(train.values(), test.values()));
    assertArrayEquals(SyntheticScInOL.generate(10, 7, 0).values(), train.values());
  }

  @Test
  void shapes() {
    SparseDataset ds = SyntheticScInOL.generate(100, 3);
    assertEquals(100, ds.size());
    assertEquals(21, ds.dimension());
    assertEquals(2100, ds.totalNonZeros());
    assertTrue(ds.isBinary());
    assertEquals(0, SyntheticScInOL.generate(0, 3).size());
    assertEquals(21, SyntheticScInOL.generate(0, 3).dimension());
  }

  @Test
  void weightsAreSignedInverseScales() {
    double[] u = SyntheticScInOL.trueWeights(5);
    assertEquals(21, u.length);
    int positive = 0;
    for (int j = 0; j < 21; j++) {
      assertEquals(
          Double.valueOf(1.0), Double.valueOf(Math.abs(u[j]) * SyntheticScInOL.sigma(j)), "u_" + j);
      positive += u[j] > 0 ? 1 : 0;
    }
    assertEquals(Math.scalb(1.0, -10), SyntheticScInOL.sigma(0));
    assertEquals(Math.scalb(1.0, 10), SyntheticScInOL.sigma(20));
    assertNotEquals(0, positive);
    assertNotEquals(21, positive);
  }

  @Test
  void empiricalStandardDeviationsMatchSigma() {
    SparseDataset ds = SyntheticScInOL.generate(N, 11);
    double[] x = new double[21];
    double[] sum = new double[21];
    double[] sq = new double[21];
    for (int r = 0; r < N; r++) {
      ds.denseRow(r, x);
      for (int j = 0; j < 21; j++) {
        sum[j] += x[j];
        sq[j] += x[j] * x[j];
      }
    }
    for (int j = 0; j < 21; j++) {
      double mean = sum[j] / N;
      double sd = Math.sqrt(sq[j] / N - mean * mean);
      double sigma = SyntheticScInOL.sigma(j);
      // The standard error of a sample sd is sigma/sqrt(2N) ~ 0.5% here; 3% is over 5 of them.
      assertEquals(1.0, sd / sigma, 0.03, "feature " + j);
      assertEquals(0.0, mean / sigma, 0.05, "feature " + j);
    }
  }

  @Test
  void labelsRoughlyBalanced() {
    SparseDataset ds = SyntheticScInOL.generate(N, 13);
    int pos = 0;
    for (int r = 0; r < N; r++) {
      pos += ds.label(r) > 0 ? 1 : 0;
    }
    assertEquals(0.5, pos / (double) N, 0.03);
  }

  @Test
  void trueModelBeatsTheZeroModelClearly() {
    long seed = 17;
    SparseDataset ds = SyntheticScInOL.generate(N, seed);
    double trueLoss = logisticLoss(ds, SyntheticScInOL.trueWeights(seed));
    double zeroLoss = logisticLoss(ds, new double[21]);
    assertEquals(Math.log(2), zeroLoss, 1e-12);
    assertTrue(trueLoss < 0.5 * Math.log(2), "true model loss " + trueLoss);
    // A wrong model (signs flipped) must be much worse: the labels really follow u.
    double[] flipped = SyntheticScInOL.trueWeights(seed);
    for (int j = 0; j < 21; j++) {
      flipped[j] = -flipped[j];
    }
    assertTrue(logisticLoss(ds, flipped) > 2, "flipped model");
  }
}
