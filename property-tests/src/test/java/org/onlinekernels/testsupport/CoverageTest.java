package org.onlinekernels.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Coverage#leastCount} is the least {@code k} with {@code P(Bin(n, p) < k) <= 1e-6}, checked
 * against the binomial law summed exactly in {@link BigDecimal}: {@code P(count < k)} is within the
 * chance and {@code P(count < k + 1)} is not.
 */
class CoverageTest {
  private static final MathContext MC = new MathContext(60);
  private static final BigDecimal CHANCE = new BigDecimal("1e-6");

  @ParameterizedTest(name = "n = {0}, p = {1}")
  @CsvSource({
    "1, 0.5",
    "20, 0.5",
    "50, 0.1",
    "50, 0.333333333333",
    "200, 0.1",
    "200, 0.333333333333",
    "200, 0.05",
    "200, 0.9",
    "1000, 0.03",
    "10000, 0.1",
    "12, 0.99"
  })
  void theLeastCountIsTheBinomialQuantileAtTheChance(int n, double p) {
    int k = Coverage.leastCount(n, p);
    assertTrue(below(n, p, k).compareTo(CHANCE) <= 0, "P(count < " + k + ") over the chance");
    if (k < n) {
      assertTrue(
          below(n, p, k + 1).compareTo(CHANCE) > 0, "P(count < " + (k + 1) + ") within the chance");
    }
  }

  @Test
  void fewTriesDemandNothingAndCertaintyDemandsEveryTry() {
    // 0.9^50 = 5.2e-3: no count above 0 is that sure.
    assertEquals(0, Coverage.leastCount(50, 0.1));
    assertEquals(0, Coverage.leastCount(0, 0.5));
    assertEquals(7, Coverage.leastCount(7, 1.0));
  }

  @Test
  void theCheckAcceptsTheLeastCountAndRefusesOneLess() {
    int k = Coverage.leastCount(200, 1.0 / 3);
    assertTrue(k > 30 && k < 67, "k " + k);
    assertTrue(Coverage.share(1.0 / 3).test(k, 200));
    assertFalse(Coverage.share(1.0 / 3).test(k - 1, 200));
  }

  @Test
  void aShareOutsideZeroToOneOrNegativeTriesAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> Coverage.share(0));
    assertThrows(IllegalArgumentException.class, () -> Coverage.share(1.5));
    assertThrows(IllegalArgumentException.class, () -> Coverage.share(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> Coverage.leastCount(-1, 0.5));
  }

  /** {@code P(Bin(n, p) < k)}, exactly. */
  private static BigDecimal below(int n, double p, int k) {
    BigDecimal q = new BigDecimal(p);
    BigDecimal r = BigDecimal.ONE.subtract(q);
    BigDecimal sum = BigDecimal.ZERO;
    BigDecimal choose = BigDecimal.ONE;
    for (int i = 0; i < k; i++) {
      if (i > 0) {
        choose = choose.multiply(BigDecimal.valueOf(n - i + 1)).divide(BigDecimal.valueOf(i), MC);
      }
      sum = sum.add(choose.multiply(q.pow(i, MC), MC).multiply(r.pow(n - i, MC), MC), MC);
    }
    return sum;
  }
}
