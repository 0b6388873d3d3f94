package org.onlinekernels.data;

import java.util.Random;

/**
 * The synthetic binary problem of Kempka, Kotlowski and Warmuth (2019), "Adaptive Scale-Invariant
 * Online Algorithms for Learning Linear Models", section 4.1 ("Illustrative Example").
 *
 * <p>Paper: 21 features, feature {@code i} (1-based, {@code i = 1..21}) drawn from {@code N(0,
 * sigma_i)} with {@code sigma_i = 2^(i-11)}, so the scales run from {@code 2^-10} to {@code 2^10};
 * {@code P(y = 1 | x) = sigmoid(<x, u>)} with {@code u_i = +-1/sigma_i}, signs uniformly at random.
 * Because {@code u_i x_i ~ N(0, 1)}, {@code <x, u> ~ N(0, 21)} whatever the scales: the problem is
 * easy for a scale-invariant learner and hard for a single learning rate. The paper draws {@value
 * #PAPER_TRAIN_SIZE} training and {@value #PAPER_TEST_SIZE} test examples and repeats over 10
 * random training sets. Here the feature with 0-based index {@code j} has {@code sigma = 2^(j-10)},
 * labels are {@code +1} / {@code -1}, and every row stores all 21 values.
 *
 * <p>Reproducibility: the same arguments give the same doubles on every JVM, because
 *
 * <ul>
 *   <li>the generators are {@link java.util.Random}, whose algorithms (the 48-bit LCG, {@code
 *       nextBoolean}, {@code nextDouble}, and the polar method of {@code nextGaussian} with {@code
 *       StrictMath}) are fixed by its specification, unlike those of {@code
 *       SplittableRandom.nextGaussian} or {@code RandomGenerator} defaults;
 *   <li>the sigmoid uses {@link StrictMath#exp}, since {@code Math.exp} may differ by an ulp
 *       between JVMs and platforms, which could flip a label.
 * </ul>
 *
 * Algorithm: {@code u} comes from {@code new Random(seed)}: for {@code j = 0..20}, {@code u_j =
 * (nextBoolean() ? +1 : -1) / sigma_j}. Samples come from {@code new Random(mix(mix(seed) +
 * sampleSeed))} with {@code mix} the SplitMix64 finaliser (so that the sample stream is unrelated
 * to the weight stream); per row, for {@code j = 0..20}, {@code x_j = sigma_j * nextGaussian()},
 * then {@code y = nextDouble() < 1/(1+exp(-<u,x>)) ? +1 : -1} with the dot product summed in index
 * order.
 */
public final class SyntheticScInOL {
  /** Number of features. */
  public static final int DIMENSION = 21;

  /** Training set size used in the paper. */
  public static final int PAPER_TRAIN_SIZE = 5_000;

  /** Test set size used in the paper. */
  public static final int PAPER_TEST_SIZE = 100_000;

  private SyntheticScInOL() {}

  /** Standard deviation {@code 2^(j-10)} of the feature with 0-based index {@code j}. */
  public static double sigma(int j) {
    if (j < 0 || j >= DIMENSION) {
      throw new IllegalArgumentException(
          "feature index " + j + " out of range [0, " + DIMENSION + ")");
    }
    return Math.scalb(1.0, j - 10);
  }

  /** The true weight vector {@code u} for {@code seed}: {@code u_j = +-1/sigma_j}. */
  public static double[] trueWeights(long seed) {
    Random r = new Random(seed);
    double[] u = new double[DIMENSION];
    for (int j = 0; j < DIMENSION; j++) {
      u[j] = (r.nextBoolean() ? 1.0 : -1.0) / sigma(j);
    }
    return u;
  }

  /**
   * {@code n} examples of the problem with weights {@link #trueWeights(long) trueWeights(seed)};
   * same as {@code generate(n, seed, 0)}.
   */
  public static SparseDataset generate(int n, long seed) {
    return generate(n, seed, 0);
  }

  /**
   * {@code n} examples with weights {@code trueWeights(seed)} and samples from stream {@code
   * sampleSeed}: a test set for the same model is {@code generate(m, seed, 1)} next to the training
   * set {@code generate(n, seed)}.
   */
  public static SparseDataset generate(int n, long seed, long sampleSeed) {
    if (n < 0) {
      throw new IllegalArgumentException("n must be >= 0, got " + n);
    }
    double[] u = trueWeights(seed);
    Random r = new Random(mix(mix(seed) + sampleSeed));
    SparseDataset.Builder b = new SparseDataset.Builder().minDimension(DIMENSION);
    int[] idx = new int[DIMENSION];
    double[] x = new double[DIMENSION];
    for (int j = 0; j < DIMENSION; j++) {
      idx[j] = j;
    }
    for (int t = 0; t < n; t++) {
      double margin = 0;
      for (int j = 0; j < DIMENSION; j++) {
        x[j] = sigma(j) * r.nextGaussian();
        margin += u[j] * x[j];
      }
      double p = 1.0 / (1.0 + StrictMath.exp(-margin));
      b.addRow(r.nextDouble() < p ? 1.0 : -1.0, idx, x, DIMENSION);
    }
    return b.build();
  }

  /** SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijection that scatters nearby seeds. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
