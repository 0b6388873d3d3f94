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
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.optimizer.StateLayout;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.TrainingData;

/**
 * The library's fused rounds without the trainer around them, for {@code run.sh incache}: one
 * optimizer (interleaved state, the run-time provider's kernels, no kernel handover) trained by
 * {@code LinearModelOptimizer.rounds} on the library's {@link SparseRows} in blocks of 256 rows, as
 * {@code OnlineTrainer}'s loop calls it, the progressive losses taken with the derivatives. {@code
 * R} passes (default 10) from fresh state in one JVM; the figure is the median of the second half
 * of the passes (warm: C2 may still replace the loop's code during the first few), in wall and in
 * this thread's CPU time.
 *
 * <p>{@code java --add-modules jdk.incubator.vector -cp <the CLI's class path>
 * bench/c/contender/RoundsCpu.java FILE ALGORITHM TYPE [R]}: one JSON line with the figures and the
 * bits of every pass's mean progressive loss (rows summed in file order from 0, then {@code / n}: the
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
    AlgorithmSpec spec = AlgorithmSpec.of(algorithm);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    double[] wall = new double[repeat];
    double[] cpu = new double[repeat];
    long[] bits = new long[repeat];
    for (int t = 0; t < repeat; t++) {
      try (LinearModelOptimizer opt = spec.create(data.dimension(), type, StateLayout.INTERLEAVED, null, null)) {
        double sum = 0;
        long c0 = mx.getCurrentThreadCpuTime();
        long w0 = System.nanoTime();
        for (int q0 = 0; q0 < n; q0 += BLOCK) {
          int q1 = Math.min(n, q0 + BLOCK);
          System.arraycopy(labels, q0, y, 0, q1 - q0);
          opt.rounds(rows, order, q0, q1, y, Loss.LOGISTIC, yhat, loss);
          for (int q = 0; q < q1 - q0; q++) {
            sum += loss[q];
          }
        }
        long w1 = System.nanoTime();
        long c1 = mx.getCurrentThreadCpuTime();
        wall[t] = (double) (w1 - w0) / n;
        cpu[t] = (double) (c1 - c0) / n;
        bits[t] = Double.doubleToRawLongBits(sum / n);
      }
    }
    StringBuilder b = new StringBuilder();
    for (int t = 0; t < repeat; t++) {
      b.append(t == 0 ? "" : ", ").append(String.format(Locale.ROOT, "\"0x%016x\"", bits[t]));
    }
    System.out.printf(Locale.ROOT, "{\"contender\": \"rounds\", \"algorithm\": \"%s\", \"type\": \"%s\", \"n\": %d, "
        + "\"first_ns_per_row\": %.1f, \"warm_ns_per_row\": %.1f, \"warm_cpu_ns_per_row\": %.1f, \"loss_bits\": [%s]}%n",
        algorithm, args[2], n, wall[0], warmMedian(wall), warmMedian(cpu), b);
  }

  /** Median of the second half of the passes. */
  private static double warmMedian(double[] v) {
    double[] w = Arrays.copyOfRange(v, v.length / 2, v.length);
    Arrays.sort(w);
    return w[(w.length - 1) / 2];
  }
}
