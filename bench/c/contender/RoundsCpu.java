import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.RuleOptimizer;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.optimizer.StateLayout;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.TrainingData;

/**
 * The library's fused rounds without the trainer around them, for {@code run.sh incache}: one
 * optimizer (interleaved state, the run-time provider's kernels, no kernel handover) per pass, from
 * fresh state, the progressive loss summed over the rows in file order. Paths ({@code MODES},
 * comma-separated, default {@code rounds}; several alternate pass by pass in one JVM):
 *
 * <ul>
 *   <li>{@code rounds}: {@code LinearModelOptimizer.rounds} on the library's {@link SparseRows} in
 *       blocks of 256 rows, as {@code OnlineTrainer}'s loop calls it, the losses taken with the
 *       derivatives;
 *   <li>{@code buffers}: {@code round(indices, values, nnz, y, loss, losses, at)} per row on the
 *       caller's own segments (one native segment for all rows, a slice per row), the loss from its
 *       loss slot: the workload benchmark's {@code rounds-buffers};
 *   <li>{@code buffers-score}: the same calls without the loss (the sum is of the scores; its bits
 *       are not a loss).
 *   <li>{@code rounds-score} and {@code row-calls-score}: the block rounds without losses, and one
 *       {@code round(rows, r, y, loss)} call per row on the same {@link SparseRows} (the scores
 *       summed): with {@code buffers-score}, they split what the caller's round adds to the block
 *       rounds into the per-call cost (row-calls over rounds) and the row's validation and copy
 *       (buffers over row-calls).
 *   <li>{@code per-call}: the public per-call path on the same segments, per row {@code
 *       predictSparse}, {@code Loss.derivativeAndValue}, {@code update}: the workload benchmark's
 *       {@code per-call}.
 * </ul>
 *
 * A path may end in {@code @race}, {@code @on}, {@code @off} or {@code @rule}: the optimizer of its
 * passes is made under {@code -Donlinekernels.rounds.touch=} that value (e.g. {@code
 * rounds@on,rounds@off,rounds@race}), and its line gives each pass's {@code RuleOptimizer.recordTouch()}
 * at the pass's end ({@code touch}: what a race picked).
 *
 * <p>{@code R} passes per path (default 10); the figure is the median of the second half (warm: C2
 * may still replace the loop's code during the first few), in wall and in this thread's CPU time.
 *
 * <p>{@code java --add-modules jdk.incubator.vector -cp <the CLI's class path>
 * bench/c/contender/RoundsCpu.java FILE ALGORITHM TYPE [R [MODES]]}: one JSON line per path with the
 * figures and the bits of every pass's mean (rows summed in file order from 0, then {@code / n}: the
 * C contender's {@code pass_loss_bits}). Binary files with labels +1/-1 only: one output.
 */
public final class RoundsCpu {
  private static final int BLOCK = 256;

  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    String algorithm = args[1];
    ElementType type = ElementType.parse(args[2]);
    int repeat = args.length > 3 ? Integer.parseInt(args[3]) : 10;
    SparseDataset data = LibSvmReader.read(file);
    int n = data.size();
    double[] labels = new double[n];
    for (int r = 0; r < n; r++) {
      labels[r] = data.label(r);
      if (labels[r] != 1 && labels[r] != -1) {
        throw new IllegalArgumentException(file + ": row " + (r + 1) + " has label " + labels[r] + "; RoundsCpu takes +1/-1 only");
      }
    }
    SparseRows rows = TrainingData.of(data).rows(type);
    int[] order = new int[n];
    for (int r = 0; r < n; r++) {
      order[r] = r;
    }
    double[] y = new double[BLOCK];
    double[] yhat = new double[BLOCK];
    double[] loss = new double[BLOCK];
    String[] modes = (args.length > 4 ? args[4] : "rounds").split(",");
    RowSlices slices = new RowSlices(data, type);
    AlgorithmSpec spec = AlgorithmSpec.of(algorithm);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    double[][] wall = new double[modes.length][repeat];
    double[][] cpu = new double[modes.length][repeat];
    long[][] bits = new long[modes.length][repeat];
    String[][] touch = new String[modes.length][repeat];
    for (int t = 0; t < repeat; t++) {
      for (int m = 0; m < modes.length; m++) {
        String[] pathAndTouch = modes[m].split("@", 2);
        if (pathAndTouch.length == 2) {
          System.setProperty("onlinekernels.rounds.touch", pathAndTouch[1]);
        } else {
          System.clearProperty("onlinekernels.rounds.touch");
        }
        try (LinearModelOptimizer opt = spec.create(data.dimension(), type, StateLayout.INTERLEAVED, null, null)) {
          double sum = 0;
          long c0 = mx.getCurrentThreadCpuTime();
          long w0 = System.nanoTime();
          switch (pathAndTouch[0]) {
            case "rounds", "rounds-score" -> {
              // With losses, their sum; without (rounds-score), the scores'.
              double[] losses = pathAndTouch[0].equals("rounds") ? loss : null;
              for (int q0 = 0; q0 < n; q0 += BLOCK) {
                int q1 = Math.min(n, q0 + BLOCK);
                System.arraycopy(labels, q0, y, 0, q1 - q0);
                opt.rounds(rows, order, q0, q1, y, Loss.LOGISTIC, yhat, losses);
                for (int q = 0; q < q1 - q0; q++) {
                  sum += losses == null ? yhat[q] : losses[q];
                }
              }
            }
            case "buffers" -> {
              for (int r = 0; r < n; r++) {
                opt.round(slices.indices[r], slices.values[r], slices.nnz[r], labels[r], Loss.LOGISTIC, loss, 0);
                sum += loss[0];
              }
            }
            case "per-call" -> {
              for (int r = 0; r < n; r++) {
                double score = opt.predictSparse(slices.indices[r], slices.values[r], slices.nnz[r]);
                opt.update(Loss.LOGISTIC.derivativeAndValue(labels[r], score, loss, 0));
                sum += loss[0];
              }
            }
            case "row-calls-score" -> {
              for (int r = 0; r < n; r++) {
                sum += opt.round(rows, r, labels[r], Loss.LOGISTIC);
              }
            }
            case "buffers-score" -> {
              for (int r = 0; r < n; r++) {
                sum += opt.round(slices.indices[r], slices.values[r], slices.nnz[r], labels[r], Loss.LOGISTIC);
              }
            }
            default -> throw new IllegalArgumentException("unknown path " + modes[m] + "; rounds, rounds-score, row-calls-score, buffers, buffers-score or per-call");
          }
          long w1 = System.nanoTime();
          long c1 = mx.getCurrentThreadCpuTime();
          wall[m][t] = (double) (w1 - w0) / n;
          cpu[m][t] = (double) (c1 - c0) / n;
          bits[m][t] = Double.doubleToRawLongBits(sum / n);
          touch[m][t] = opt instanceof RuleOptimizer ro ? ro.recordTouch() : "none";
        }
      }
    }
    for (int m = 0; m < modes.length; m++) {
      StringBuilder b = new StringBuilder();
      StringBuilder tb = new StringBuilder();
      for (int t = 0; t < repeat; t++) {
        b.append(t == 0 ? "" : ", ").append(String.format(Locale.ROOT, "\"0x%016x\"", bits[m][t]));
        tb.append(t == 0 ? "" : ", ").append('"').append(touch[m][t]).append('"');
      }
      System.out.printf(Locale.ROOT, "{\"contender\": \"%s\", \"algorithm\": \"%s\", \"type\": \"%s\", \"n\": %d, "
          + "\"first_ns_per_row\": %.1f, \"warm_ns_per_row\": %.1f, \"warm_cpu_ns_per_row\": %.1f, \"loss_bits\": [%s], \"touch\": [%s]}%n",
          modes[m], algorithm, args[2], n, wall[m][0], warmMedian(wall[m]), warmMedian(cpu[m]), b, tb);
    }
  }

  /** The rows as the caller's own segments: one native segment each for indices and values, a slice per row. */
  private static final class RowSlices {
    final MemorySegment[] indices;
    final MemorySegment[] values;
    final int[] nnz;

    RowSlices(SparseDataset data, ElementType type) {
      int n = data.size();
      int[] idx = data.indices();
      double[] val = data.values();
      long total = data.totalNonZeros();
      Arena arena = Arena.ofAuto();
      MemorySegment is = arena.allocate(Math.max(1, total) * Integer.BYTES, 64);
      MemorySegment vs = arena.allocate(Math.max(1, total) * type.bytes(), 64);
      for (int j = 0; j < total; j++) {
        is.setAtIndex(ValueLayout.JAVA_INT, j, idx[j]);
        if (type == ElementType.FLOAT) {
          vs.setAtIndex(ValueLayout.JAVA_FLOAT, j, (float) val[j]);
        } else {
          vs.setAtIndex(ValueLayout.JAVA_DOUBLE, j, val[j]);
        }
      }
      indices = new MemorySegment[n];
      values = new MemorySegment[n];
      nnz = new int[n];
      for (int r = 0; r < n; r++) {
        long s = data.rowStart(r);
        nnz[r] = data.nnz(r);
        indices[r] = is.asSlice(s * Integer.BYTES, (long) nnz[r] * Integer.BYTES);
        values[r] = vs.asSlice(s * type.bytes(), (long) nnz[r] * type.bytes());
      }
    }
  }

  /** Median of the second half of the passes. */
  private static double warmMedian(double[] v) {
    double[] w = Arrays.copyOfRange(v, v.length / 2, v.length);
    Arrays.sort(w);
    return w[(w.length - 1) / 2];
  }
}
