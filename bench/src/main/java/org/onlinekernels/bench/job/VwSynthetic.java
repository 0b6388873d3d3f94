package org.onlinekernels.bench.job;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Random;

/**
 * The synthetic Vowpal Wabbit file of issue #35: each row holds 40 distinct names {@code t<k>}
 * drawn by a Zipf(1.1) law over 1,000,000 names (value 1) in namespace {@code t}, plus {@code |b
 * bias}; its label is +1 with probability {@code 1 / (1 + exp(-z))}, {@code z} the sum of the
 * hidden weights of its names and of the bias, each weight drawn from N(0, 0.5^2), else -1. The
 * same seed gives the same bytes.
 *
 * <pre>
 * java -cp ... org.onlinekernels.bench.job.VwSynthetic OUT.vw [ROWS [SEED]]
 * </pre>
 */
public final class VwSynthetic {
  /** Names in the vocabulary. */
  public static final int NAMES = 1_000_000;

  /** Distinct names per row. */
  public static final int PER_ROW = 40;

  /** The Zipf exponent. */
  public static final double EXPONENT = 1.1;

  /** The standard deviation of the hidden weights. */
  public static final double WEIGHT_SD = 0.5;

  private VwSynthetic() {}

  /** Writes {@code rows} rows drawn with {@code seed} to {@code file} (complete or absent). */
  public static Path write(Path file, long rows, long seed) throws IOException {
    double[] cdf = new double[NAMES];
    double sum = 0;
    for (int k = 0; k < NAMES; k++) {
      sum += Math.pow(k + 1, -EXPONENT);
      cdf[k] = sum;
    }
    for (int k = 0; k < NAMES; k++) {
      cdf[k] /= sum;
    }
    Random model = new Random(seed);
    double[] w = new double[NAMES];
    for (int k = 0; k < NAMES; k++) {
      w[k] = WEIGHT_SD * model.nextGaussian();
    }
    double bias = WEIGHT_SD * model.nextGaussian();
    Random r = new Random(seed + 1);
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    int[] names = new int[PER_ROW];
    byte[] line = new byte[64 + PER_ROW * 10];
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 20)) {
      for (long row = 0; row < rows; row++) {
        int count = 0;
        double z = bias;
        while (count < PER_ROW) {
          int k = Arrays.binarySearch(cdf, r.nextDouble());
          k = k < 0 ? Math.min(-k - 1, NAMES - 1) : k;
          boolean seen = false;
          for (int j = 0; j < count; j++) {
            seen |= names[j] == k;
          }
          if (!seen) {
            names[count++] = k;
            z += w[k];
          }
        }
        boolean positive = r.nextDouble() < 1 / (1 + Math.exp(-z));
        int at = put(line, 0, positive ? "1 |t" : "-1 |t");
        for (int j = 0; j < PER_ROW; j++) {
          line[at++] = ' ';
          line[at++] = 't';
          at = put(line, at, Integer.toString(names[j]));
        }
        at = put(line, at, " |b bias\n");
        out.write(line, 0, at);
      }
    }
    return Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
  }

  private static int put(byte[] b, int at, String s) {
    byte[] t = s.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(t, 0, b, at, t.length);
    return at + t.length;
  }

  /** {@code OUT.vw [ROWS [SEED]]}: 1,000,000 rows and seed 35 by default. */
  public static void main(String[] args) throws IOException {
    long rows = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000;
    long seed = args.length > 2 ? Long.parseLong(args[2]) : 35;
    Path out = write(Path.of(args[0]), rows, seed);
    System.out.println(out + ": " + rows + " rows, " + Files.size(out) + " bytes");
  }
}
