package org.onlinekernels.bench.workload;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.onlinekernels.bench.workload.hand.FloatHandAdaGrad;
import org.onlinekernels.bench.workload.hand.FloatHandScInOL2;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.InputPolicy;

/**
 * The workload's speed ratios in thread CPU time, for a machine too loaded for JMH's wall clock
 * (other jobs take the core away mid-pass; CPU time counts only this thread's own time, though
 * caches and the memory bus are still shared). One JVM; contenders take turns pass by pass from
 * fresh models (reset untimed), after a warm-up of the same passes; the figure is the median pass.
 * Not a replacement for the JMH report ({@code WorkloadReport}): a cross-check of its ratios.
 *
 * <pre>
 * mvn -q test-compile exec:exec@workload-cpu -Dworkload.only=file:heart_scale.svm,uniform:20:40
 * </pre>
 *
 * Prints one Markdown table row per workload: hand loop examples/s (float), and each library
 * contender's speed as a multiple of it (hand time / contender time).
 */
public final class CpuTimeRun {
  private CpuTimeRun() {}

  private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

  /** Runs every workload named in {@code args[0]} (comma-separated specs) for {@code args[1]} seconds of passes each. */
  public static void main(String[] args) {
    String[] specs = args[0].split(",");
    double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 20;
    System.out.println("| workload | nnz/row | hand ScInOL2 ex/s | trainer checked | trainer trusted | hand AdaGrad ex/s | trainer checked | trainer trusted |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (String spec : specs) {
      Workload wl = Workload.load(spec.trim(), 2_000_000, Workload.sharedFolder());
      StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "| %s | %.1f |", spec.trim(), wl.idx.length / (double) wl.n));
      for (String alg : new String[] {"scinol2", "adagrad"}) {
        List<Contender> cs = List.of(
            alg.equals("scinol2") ? new FloatHandScInOL2(wl, false) : new FloatHandAdaGrad(wl, false),
            new TrainerContender(wl, alg, ElementType.FLOAT, InputPolicy.CHECKED),
            new TrainerContender(wl, alg, ElementType.FLOAT, InputPolicy.TRUSTED));
        double[] median = medians(cs, seconds / 2);
        row.append(String.format(Locale.ROOT, " %.3g |", wl.n / median[0] * 1e9));
        for (int k = 1; k < cs.size(); k++) {
          row.append(String.format(Locale.ROOT, " %.2fx |", median[0] / median[k]));
        }
        cs.forEach(Contender::close);
      }
      System.out.println(row);
    }
  }

  /** Median CPU nanoseconds per pass of each contender, in turns, after a third of the time as warm-up. */
  private static double[] medians(List<Contender> cs, double seconds) {
    List<List<Long>> times = new ArrayList<>();
    for (int k = 0; k < cs.size(); k++) times.add(new ArrayList<>());
    long warmEnd = System.nanoTime() + (long) (seconds / 3 * 1e9);
    long end = System.nanoTime() + (long) (seconds * 1e9);
    boolean measuring = false;
    while (!measuring || System.nanoTime() < end || times.get(0).size() < 5) {
      measuring = System.nanoTime() > warmEnd;
      for (int k = 0; k < cs.size(); k++) {
        Contender c = cs.get(k);
        c.reset();
        long t0 = MX.getCurrentThreadCpuTime();
        double loss = c.pass();
        long t = MX.getCurrentThreadCpuTime() - t0;
        if (!Double.isFinite(loss)) throw new IllegalStateException("contender " + k + " lost: " + loss);
        if (measuring) times.get(k).add(t);
      }
    }
    double[] m = new double[cs.size()];
    for (int k = 0; k < cs.size(); k++) {
      long[] a = times.get(k).stream().mapToLong(Long::longValue).toArray();
      Arrays.sort(a);
      m[k] = a[a.length / 2];
    }
    return m;
  }
}
