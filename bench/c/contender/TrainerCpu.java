import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.LibSvmReader;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.OnlineTrainer;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * The library's side of the C contender's timing on a busy machine: what {@code train --data F
 * --no-shuffle --epochs 1 --algorithm A --type T} runs ({@link OnlineTrainer#train}, the CLI's
 * call), {@code R} times in one JVM, each pass timed in wall and in this thread's CPU time (which
 * other processes' load does not inflate), reported for the passes after the first (warm: the
 * JIT has compiled the loop). Labels all 0/1 or all 1/2 become -1/+1 as the CLI's auto rule does.
 *
 * <p>{@code java --add-modules jdk.incubator.vector -cp <the CLI's class path>
 * bench/c/contender/TrainerCpu.java FILE ALGORITHM TYPE [R]} (run.sh measure does it); prints one
 * JSON line with the median warm ns per row (wall and CPU) and the bits of every pass's mean
 * progressive loss ({@code fit(...)[0].meanLoss()} after Metrics.combine, as the CLI prints it).
 */
public final class TrainerCpu {
  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    String algorithm = args[1];
    ElementType type = ElementType.parse(args[2]);
    int repeat = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    SparseDataset data = LibSvmReader.read(file);
    if (!data.isBinary()) {
      boolean only01 = true, only12 = true;
      for (int r = 0; r < data.size(); r++) {
        double y = data.label(r);
        only01 &= y == 0 || y == 1;
        only12 &= y == 1 || y == 2;
      }
      if (only01 || only12) {
        double neg = only01 ? 0 : 1;
        double[] y = new double[data.size()];
        for (int r = 0; r < y.length; r++) y[r] = data.label(r) == neg ? -1 : 1;
        data = data.withLabels(y);
      }
    }
    TrainerConfig cfg = new TrainerConfig(AlgorithmSpec.of(algorithm), type, Loss.LOGISTIC, 1, 1, false, false);
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    double[] wall = new double[repeat];
    double[] cpu = new double[repeat];
    long[] bits = new long[repeat];
    for (int t = 0; t < repeat; t++) {
      long c0 = mx.getCurrentThreadCpuTime();
      long w0 = System.nanoTime();
      TrainResult r = OnlineTrainer.train(cfg, data, null, null);
      long w1 = System.nanoTime();
      long c1 = mx.getCurrentThreadCpuTime();
      wall[t] = (double) (w1 - w0) / data.size();
      cpu[t] = (double) (c1 - c0) / data.size();
      bits[t] = Double.doubleToRawLongBits(r.progressive().meanLoss());
    }
    StringBuilder b = new StringBuilder();
    for (int t = 0; t < repeat; t++) {
      b.append(t == 0 ? "" : ", ").append(String.format(Locale.ROOT, "\"0x%016x\"", bits[t]));
    }
    System.out.printf(Locale.ROOT, "{\"contender\": \"trainer\", \"algorithm\": \"%s\", \"type\": \"%s\", \"n\": %d, "
        + "\"first_ns_per_row\": %.1f, \"warm_ns_per_row\": %.1f, \"warm_cpu_ns_per_row\": %.1f, \"loss_bits\": [%s]}%n",
        algorithm, args[2], data.size(), wall[0], warmMedian(wall), warmMedian(cpu), b);
  }

  /** Median of the passes after the first (the first if there is only one). */
  private static double warmMedian(double[] v) {
    double[] w = v.length > 1 ? Arrays.copyOfRange(v, 1, v.length) : v.clone();
    Arrays.sort(w);
    return w[(w.length - 1) / 2];
  }
}
