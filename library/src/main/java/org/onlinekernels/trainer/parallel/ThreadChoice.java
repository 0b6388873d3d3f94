package org.onlinekernels.trainer.parallel;

import java.util.Locale;
import java.util.Map;

/**
 * How many threads {@code --threads auto} trains on, and why (docs/parallel/README.md, "How many
 * threads"). A thread beyond the first pays before it gains: the workers start, the fit's first
 * block is trained alone, the extra worker competes with the JIT's compilers for the cores while
 * they compile the rounds, and the workers pass the popular coordinates' records between their
 * caches on every row. So each thread must have enough work: the job's nonzero visits (rows x
 * epochs x mean nonzeros per row x outputs), weighted by what a visit of the rule costs against
 * ScInOL2 ({@link #COST}), divided by {@link #WORK_PER_THREAD}; at most one thread per core, at
 * least one. All of it with the workers' private hot records ({@link
 * SharedStateTrainer#DEFAULT_HOT}, for the rules that keep them by default); a rule without them
 * trains on one thread.
 *
 * <p>A streamed input (more rows than the shuffle buffer; its length unknown until it ends) trains
 * on one thread: its parser threads use the other cores in the first pass, and the parallel
 * trainers take a stream in chunks read between two fits, which measured slower than one thread
 * (0.78-0.83x, ScInOL2, 10 epochs of 200,000 rows).
 *
 * @param threads the threads to train on, at least 1
 * @param reason why, in a sentence for the user
 */
public record ThreadChoice(int threads, String reason) {
  /**
   * The work each thread needs, in ScInOL2 nonzero visits: 50,000,000, so two threads need
   * 100,000,000 (2,500,000 rows of 40 nonzeros). Measured on 2 cores (2026-11-29, whole training
   * time, ScInOL2 on the 40-nonzero Zipf stream held in memory): two threads were at 0.45-0.87x of
   * one up to 24,000,000 visits and at 0.96-0.98x (single runs 0.83-1.05x) at 40,000,000 and
   * 80,000,000, the last two with the old 20,000,000 per thread. A second thread adds a fixed 0.26
   * s (the whole time less the steady rate's, medians of 10 runs: the JIT's warm-up on two threads,
   * the first block alone) and, in the machine's slow phase for memory both cores write, saves 13 %
   * of a visit's cost (steady 1.15x): it breaks even at about 89,000,000 visits. Below that one
   * thread is the faster run, and auto takes it: 50,000,000 per thread keeps every job up to
   * 2,000,000 such rows on one thread.
   */
  public static final long WORK_PER_THREAD = 50_000_000L;

  /**
   * What a nonzero visit of a rule weighs against ScInOL2's in auto's count: the rule's cost per
   * visit (one thread's steady seconds per row on the same stream: ScInOL2 1.21 s, AdaGrad 0.46 s
   * per million rows, medians of 10; AdaGrad 0.38) times the share of it a second thread saves,
   * against ScInOL2's share (steady two-thread speedups with private hot records in the machine's
   * slow phase, 12 rounds, 2026-11-29: ScInOL2 1.38x, a saving of 0.28; AdaGrad 1.11x, 0.10). So
   * AdaGrad weighs 0.38 x 0.10 / 0.28 = 0.14: its second thread needs 7 times ScInOL2's rows to
   * earn back the same fixed cost. With the weight of its cost alone (0.38) auto took two threads
   * at 6,600,000 examples, where they measured 0.98x in the median and below 0.95x in 2 of 5 pairs.
   * A rule not listed counts as the lightest listed: auto then errs towards one thread.
   */
  public static final Map<String, Double> COST = Map.of("scinol2", 1.0, "adagrad", 0.14);

  /** The cost of a rule not in {@link #COST}: the cheapest listed. */
  static final double UNMEASURED_COST = java.util.Collections.min(COST.values());

  /**
   * The choice for an input held in memory: {@code rows} rows with {@code nonzeros} stored entries
   * in all, {@code epochs} passes, {@code outputs} outputs (classes one-vs-rest, else 1), rule
   * {@code algorithm}, on {@code cores} cores; {@code privateRecords}: whether the workers would
   * keep private hot records ({@link SharedStateTrainer#keepsHotRecords}). Without them one thread:
   * two threads on one shared state measured slower than one at every size (0.59-0.63x of one
   * thread over 2,000,000 rows and 0.50-0.66x in the steady state, in the machine's slow phase for
   * memory both cores write; more rows only add to the loss).
   */
  public static ThreadChoice auto(
      int cores,
      long rows,
      long nonzeros,
      int epochs,
      int outputs,
      String algorithm,
      boolean privateRecords) {
    if (cores < 1 || rows < 0 || nonzeros < 0 || epochs < 1 || outputs < 1) {
      throw new IllegalArgumentException(
          "cores, epochs, outputs >= 1 and rows, nonzeros >= 0 needed, got cores "
              + cores
              + ", epochs "
              + epochs
              + ", outputs "
              + outputs
              + ", rows "
              + rows
              + ", nonzeros "
              + nonzeros);
    }
    double cost = COST.getOrDefault(algorithm, UNMEASURED_COST);
    double work = (double) nonzeros * epochs * outputs * cost;
    int t =
        privateRecords ? (int) Math.max(1, Math.min(cores, Math.floor(work / WORK_PER_THREAD))) : 1;
    String job =
        String.format(
            Locale.ROOT,
            "%d rows x %d epoch(s)%s, %.1f million %s nonzero visits",
            rows,
            epochs,
            outputs > 1 ? " x " + outputs + " outputs" : "",
            work / 1e6,
            cost == 1.0 ? "" : "ScInOL2-equivalent");
    String reason =
        !privateRecords && cores > 1
            ? String.format(
                Locale.ROOT,
                "auto: 1 of %d cores: %s; without private hot records (%s) two threads on one"
                    + " shared state measured slower than one at every size"
                    + " (docs/parallel/README.md, \"How many threads\")",
                cores,
                job,
                SharedStateTrainer.HOT_PROPERTY + "=0")
            : t == cores
                ? String.format(
                    Locale.ROOT,
                    "auto: %d thread(s), one per core: %s, at least %d million per thread",
                    t,
                    job,
                    WORK_PER_THREAD / 1_000_000)
                : String.format(
                    Locale.ROOT,
                    "auto: %d of %d cores: %s; each thread needs %d million to gain"
                        + " (docs/parallel/README.md, \"How many threads\")",
                    t,
                    cores,
                    job,
                    WORK_PER_THREAD / 1_000_000);
    return new ThreadChoice(t, reason.replace("  ", " "));
  }

  /** The choice for a streamed input (its length unknown): one thread, and why. */
  public static ThreadChoice stream(int cores) {
    return new ThreadChoice(
        1,
        "auto: 1 thread: the input streams (more rows than --shuffle-buffer)"
            + (cores > 1 ? ", its parser threads use the other cores," : "")
            + " and a stream measured slower on several threads (docs/parallel/README.md,"
            + " \"How many threads\")");
  }
}
