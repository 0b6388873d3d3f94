package org.onlinekernels.bench.workload;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.onlinekernels.bench.SparsePool;
import org.onlinekernels.bench.workload.hand.FloatHandAdaGrad;
import org.onlinekernels.bench.workload.hand.FloatHandScInOL2;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.InputPolicy;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/**
 * The workload's speed ratios in thread CPU time, for a machine too loaded for JMH's wall clock
 * (other jobs take the core away mid-pass; CPU time counts only this thread's own time, though
 * caches and the memory bus are still shared). One JVM; contenders take turns pass by pass from
 * fresh models (reset untimed), after a warm-up of the same passes; the figure is the median pass.
 * Not a replacement for the JMH report ({@code WorkloadReport}): a cross-check of its ratios.
 *
 * <pre>
 * mvn -q -pl bench -am compile exec:exec@workload-cpu -Dworkload.only=file:heart_scale.svm,uniform:20:40
 * </pre>
 *
 * Prints one Markdown table row per workload: hand loop examples/s (float), and each library
 * contender's speed as a multiple of it (hand time / contender time).
 */
public final class CpuTimeRun {
  private CpuTimeRun() {}

  private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

  /**
   * Runs every workload named in {@code args[0]} (comma-separated specs) for {@code args[1]}
   * seconds of passes each; {@code args[0] = rounds22} instead times ScInOL2's sparse rounds at d =
   * 2^22 ({@link #sparseRounds}).
   */
  public static void main(String[] args) {
    if (args[0].equals("rounds22")) {
      sparseRounds();
      return;
    }
    String[] specs = args[0].split(",");
    double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 20;
    System.out.println(
        "| workload | nnz/row | hand ScInOL2 ex/s | trainer checked | trainer trusted | hand AdaGrad ex/s | trainer checked | trainer trusted |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
    for (String spec : specs) {
      Workload wl = Workload.load(spec.trim(), 2_000_000, Workload.dataFolder());
      StringBuilder row =
          new StringBuilder(
              String.format(
                  Locale.ROOT, "| %s | %.1f |", spec.trim(), wl.idx.length / (double) wl.n));
      for (String alg : new String[] {"scinol2", "adagrad"}) {
        List<Contender> cs =
            List.of(
                alg.equals("scinol2")
                    ? new FloatHandScInOL2(wl, false)
                    : new FloatHandAdaGrad(wl, false),
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

  /**
   * ScInOL2 float at d = 2^22, uniform indices (the pool of {@code ScInOL2Bench}'s sparse
   * benchmarks: 2^20 nonzeros of rows with nnz in {16, 128, 1024}), thread CPU time per nonzero,
   * median of passes over the pool: the planar {@code predictSparse + update} path (the issue's
   * starting point), and the fused rounds ({@code rounds}) on planar and on interleaved state.
   */
  static void sparseRounds() {
    int d = 1 << 22;
    System.out.println(
        "| nnz | predictSparse + update, planar (ns/nnz) | rounds, planar | rounds, interleaved | interleaved / first |");
    System.out.println("|---:|---:|---:|---:|---:|");
    for (int nnz : new int[] {16, 128, 1024}) {
      try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
        SparsePool pool = new SparsePool(arena, ElementType.FLOAT, d, nnz, 1 << 20, 42);
        SparseRows rows = pool.rows(ElementType.FLOAT);
        int n = rows.size();
        int[] order = new int[n];
        double[] y = new double[n];
        for (int k = 0; k < n; k++) {
          order[k] = k;
          y[k] = (k & 1) == 0 ? 1 : -1;
        }
        double[] yhat = new double[n];
        ScInOLParams p = ScInOLParams.defaults();
        StateLayout planar = StateLayout.PLANAR;
        StateLayout inter = StateLayout.INTERLEAVED;
        AbstractOptimizer[] opts = {
          new ScInOL2Optimizer(d, ElementType.FLOAT, p, planar, null, null),
          new ScInOL2Optimizer(d, ElementType.FLOAT, p, planar, null, null),
          new ScInOL2Optimizer(d, ElementType.FLOAT, p, inter, null, null)
        };
        // Each contender's passes run back to back (its 64 MiB state stays in this Xeon's L3, as in
        // a JMH fork of its own); turns of 8 passes, twice round, so drift hits every contender.
        java.util.List<java.util.List<Long>> times = new ArrayList<>();
        for (int k = 0; k < opts.length; k++) {
          times.add(new ArrayList<>());
          opts[k].setInputPolicy(InputPolicy.TRUSTED);
        }
        for (int turn = 0; turn < 2; turn++) {
          for (int k = 0; k < opts.length; k++) {
            AbstractOptimizer o = opts[k];
            for (int pass = 0; pass < 8; pass++) {
              long t0 = MX.getCurrentThreadCpuTime();
              if (k == 0) {
                for (int r = 0; r < n; r++) {
                  double yh = o.predictSparse(pool.idx[r], pool.val[r], nnz);
                  o.update(Loss.LOGISTIC.derivative(y[r], yh));
                }
              } else {
                o.rounds(rows, order, 0, n, y, Loss.LOGISTIC, yhat, null);
              }
              long t = MX.getCurrentThreadCpuTime() - t0;
              if (pass >= 3) times.get(k).add(t);
            }
          }
        }
        double[] ns = new double[opts.length];
        for (int k = 0; k < opts.length; k++) {
          long[] a = times.get(k).stream().mapToLong(Long::longValue).toArray();
          Arrays.sort(a);
          ns[k] = a[a.length / 2] / (double) n / nnz;
          opts[k].close();
        }
        System.out.printf(
            Locale.ROOT,
            "| %d | %.1f | %.1f | %.1f | %.2fx |%n",
            nnz,
            ns[0],
            ns[1],
            ns[2],
            ns[2] / ns[0]);
      }
    }
  }

  /**
   * Median CPU nanoseconds per pass of each contender, in turns, after a third of the time as
   * warm-up.
   */
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
        if (!Double.isFinite(loss))
          throw new IllegalStateException("contender " + k + " lost: " + loss);
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
