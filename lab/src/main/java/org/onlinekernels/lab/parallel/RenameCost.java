package org.onlinekernels.lab.parallel;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;
import org.onlinekernels.data.HashedZipfStream;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.SparseRows;

/**
 * What a shared-state worker's rename of its blocks costs ({@link SparseRows#refillRenamed}, the
 * private hot records of docs/parallel/README.md): one thread renames every block of 256 rows of 10
 * epochs of 200,000 rows of the 40-nonzero Zipf stream ({@code d = 2^20}), the {@code K} most named
 * coordinates hot, the first epoch looking every entry up and the later ones using each row's mask,
 * as the workers do; or ({@code copy}) only copies the blocks' entries, the floor. Prints the
 * thread's CPU seconds and nanoseconds per entry, three repetitions. Measurement only: {@code
 * RenameCost K [copy]}.
 */
final class RenameCost {
  private RenameCost() {}

  private static final int D = 1 << 20;
  private static final int BLOCK = 256;
  private static final int EPOCHS = 10;

  /**
   * Runs the measurement.
   *
   * @param args {@code K} (the hot coordinates), then {@code copy} for the plain copy
   */
  public static void main(String[] args) {
    int k = Integer.parseInt(args[0]);
    boolean copy = args.length > 1 && args[1].equals("copy");
    SparseDataset ds = new HashedZipfStream(D, 40, 1.1, 1).rows(200_000, 2);
    int[] start = new int[ds.size() + 1];
    for (int r = 0; r < ds.size(); r++) {
      start[r] = ds.rowStart(r);
    }
    start[ds.size()] = ds.rowEnd(ds.size() - 1);
    SparseRows rows = SparseRows.of(start, ds.indices(), ds.values(), ElementType.FLOAT);
    int[] rank = new int[D];
    long[] bits = new long[D / Long.SIZE];
    chooseHot(ds.indices(), k, rank, bits);
    int[] order = new int[rows.size()];
    for (int q = 0; q < order.length; q++) {
      order[q] = q;
    }
    SparseRows buffer = SparseRows.buffer(ElementType.FLOAT);
    long[] masks = new long[rows.size()];
    int[] idx = new int[BLOCK * rows.maxNnz()];
    float[] val = new float[idx.length];
    int[] indices = ds.indices();
    float[] values = new float[indices.length];
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    for (int rep = 0; rep < 3; rep++) {
      long t0 = mx.getCurrentThreadCpuTime();
      long sink = 0;
      for (int e = 0; e < EPOCHS; e++) {
        for (int q0 = 0; q0 < order.length; q0 += BLOCK) {
          int q1 = Math.min(order.length, q0 + BLOCK);
          if (copy) {
            int s0 = start[q0];
            System.arraycopy(indices, s0, idx, 0, start[q1] - s0);
            System.arraycopy(values, s0, val, 0, start[q1] - s0);
            sink += idx[0];
          } else {
            buffer.refillRenamed(rows, order, q0, q1, bits, rank, D, masks, e > 0 || rep > 0);
            sink += buffer.index(0, 0);
          }
        }
      }
      long nanos = mx.getCurrentThreadCpuTime() - t0;
      System.out.printf(
          Locale.ROOT,
          "%s K=%d rep %d: %.3f s CPU, %.2f ns per entry (%d)%n",
          copy ? "copy" : "rename",
          k,
          rep,
          nanos / 1e9,
          nanos / ((double) EPOCHS * indices.length),
          sink);
    }
  }

  /** Ranks the {@code k} most named coordinates (ascending by coordinate) and marks them. */
  private static void chooseHot(int[] indices, int k, int[] rank, long[] bits) {
    int[] count = new int[rank.length];
    for (int i : indices) {
      count[i]++;
    }
    long[] keyed = new long[rank.length];
    for (int i = 0; i < rank.length; i++) {
      keyed[i] = ((long) (Integer.MAX_VALUE - count[i]) << 32) | i;
    }
    Arrays.sort(keyed);
    int[] hot = new int[k];
    for (int r = 0; r < k; r++) {
      hot[r] = (int) keyed[r];
    }
    Arrays.sort(hot);
    Arrays.fill(rank, -1);
    for (int r = 0; r < k; r++) {
      rank[hot[r]] = r;
      bits[hot[r] >>> 6] |= 1L << hot[r];
    }
  }
}
