package org.onlinekernels.bench.workload;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.onlinekernels.data.SparseDataset;

/**
 * A hashed sparse stream, generated deterministically: {@code n} rows of exactly {@code nnz}
 * distinct, sorted indices in {@code [0, d)}, values in {@code {0.25, 0.5, ..., 2}} (exact in
 * float, so float and double models see the same inputs), labels {@code +1/-1} from a sparse true
 * model plus 5 % label noise.
 *
 * <ul>
 *   <li><b>Zipf indices</b> ({@code s = 1.1}): a rank drawn from the power law {@code x^-1.1} on
 *       {@code [1, d + 1)} by inversion and floored (the usual continuous approximation of Zipf's
 *       law), then scattered over the table by the bijection {@code (rank - 1) * 0x9E3779B1 mod d}
 *       ({@code d} a power of two, odd multiplier), as feature hashing scatters frequent tokens. A
 *       few coordinates are hot, most are cold.
 *   <li><b>Uniform indices</b>: every coordinate equally likely; nearly every access is a cache
 *       miss once the state outgrows the caches.
 * </ul>
 *
 * A row's repeated draws are redrawn, so rows hold {@code nnz} distinct indices.
 *
 * <p>True model: coordinate {@code i} has a nonzero weight with probability 1/4, drawn from a
 * standard Gaussian seeded by {@code i} (no {@code d}-sized array is stored); the label is the sign
 * of {@code <w*, x>} (a fair coin when 0), flipped with probability 0.05.
 */
public final class SyntheticStream {
  /** Seed of every stream of the benchmark. */
  public static final long SEED = 0x5EED_0010L;

  static final double ZIPF_S = 1.1;
  static final double NOISE = 0.05;

  final int d;
  final int nnz;
  final boolean zipf;
  final int n;
  final long seed;

  /**
   * @param d dimension, a power of two
   * @param nnz nonzeros per row, {@code 1 <= nnz <= d / 4}
   * @param zipf Zipf ({@code s = 1.1}) or uniform indices
   * @param n rows
   * @param seed seed of the indices, values and noise
   */
  public SyntheticStream(int d, int nnz, boolean zipf, int n, long seed) {
    if (Integer.bitCount(d) != 1 || nnz < 1 || nnz > d / 4 || n < 1) {
      throw new IllegalArgumentException(
          "need d a power of two, 1 <= nnz <= d/4, n >= 1; got d=" + d + " nnz=" + nnz + " n=" + n);
    }
    this.d = d;
    this.nnz = nnz;
    this.zipf = zipf;
    this.n = n;
    this.seed = seed;
  }

  /** Generates the stream. */
  public SparseDataset generate() {
    SplittableRandom rnd = new SplittableRandom(seed);
    SparseDataset.Builder b = new SparseDataset.Builder().minDimension(d);
    int[] row = new int[nnz];
    double[] val = new double[nnz];
    // 1 - s and d^(1-s) - 1 of the inversion, computed once.
    double e = 1 - ZIPF_S;
    double span = Math.pow(d + 1.0, e) - 1;
    for (int r = 0; r < n; r++) {
      int filled = 0;
      while (filled < nnz) {
        for (int j = filled; j < nnz; j++) row[j] = draw(rnd, e, span);
        Arrays.sort(row, 0, nnz);
        filled = dedupe(row, nnz);
      }
      double dot = 0;
      for (int j = 0; j < nnz; j++) {
        val[j] = (1 + rnd.nextInt(8)) * 0.25;
        dot += trueWeight(row[j]) * val[j];
      }
      double y = dot > 0 ? 1 : dot < 0 ? -1 : (rnd.nextBoolean() ? 1 : -1);
      if (rnd.nextDouble() < NOISE) y = -y;
      b.addRow(y, row, val, nnz);
    }
    return b.build();
  }

  private int draw(SplittableRandom rnd, double e, double span) {
    if (!zipf) return rnd.nextInt(d);
    // Inversion of the continuous power law x^-s on [1, d+1): x = (1 + u span)^(1/(1-s)).
    double x = Math.pow(1 + rnd.nextDouble() * span, 1 / e);
    long rank = Math.min((long) x, d);
    return (int) (((rank - 1) * 0x9E3779B1L) & (d - 1));
  }

  /** Removes repeats from the sorted prefix {@code a[0..m)}, returns the distinct count. */
  private static int dedupe(int[] a, int m) {
    int k = 0;
    for (int j = 0; j < m; j++) {
      if (k == 0 || a[j] != a[k - 1]) a[k++] = a[j];
    }
    return k;
  }

  /**
   * {@code w*_i}: 0 for three coordinates in four, else a standard Gaussian seeded by {@code i}.
   */
  static double trueWeight(int i) {
    SplittableRandom r = new SplittableRandom(0x7EE7_0000L + i);
    return (r.nextInt(4) == 0) ? gaussian(r) : 0;
  }

  private static double gaussian(SplittableRandom r) {
    // Box-Muller: SplittableRandom has no nextGaussian of its own in every JDK we target.
    double u = r.nextDouble();
    double v = r.nextDouble();
    return Math.sqrt(-2 * Math.log1p(-u)) * Math.cos(2 * Math.PI * v);
  }
}
