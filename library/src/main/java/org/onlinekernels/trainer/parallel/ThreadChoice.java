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
 * SharedStateTrainer#DEFAULT_HOT}, for the rules that keep them by default); a rule without them,
 * or one a second thread was not measured to speed up (not in {@link #COST}), trains on one thread.
 *
 * <p>A streamed input (more rows than the shuffle buffer; its length unknown until it ends) trains
 * on one thread: its parser threads use the other cores in the first pass, and the parallel
 * trainers take a stream in chunks read between two fits, which measured slower than one thread.
 *
 * @param threads the threads to train on, at least 1
 * @param reason why, in a sentence for the user
 */
public record ThreadChoice(int threads, String reason) {
  /**
   * The work each thread needs, in ScInOL2 nonzero visits: 50,000,000, so two threads need
   * 100,000,000 (2,500,000 rows of 40 nonzeros). A second thread adds a fixed cost (the JIT's
   * warm-up on two threads, the first block trained alone) and saves a share of each visit's cost;
   * the break-even measured on 2 cores lies a little below 100,000,000 visits, so every job up to
   * 2,000,000 such rows trains on one thread (the figures: docs/parallel/README.md, "How many
   * threads").
   */
  public static final long WORK_PER_THREAD = 50_000_000L;

  /**
   * The rules a second thread was measured to speed up, with what a nonzero visit of each weighs
   * against ScInOL2's in auto's count. Only ScInOL2: AdaGrad's two threads stayed below 0.95x of
   * one thread in some pairs at every size tried up to 18,000,000 examples, so AdaGrad, like every
   * rule not listed, trains on one thread under auto (docs/parallel/README.md, "How many threads").
   */
  public static final Map<String, Double> COST = Map.of("scinol2", 1.0);

  /**
   * The choice for an input held in memory: {@code rows} rows with {@code nonzeros} stored entries
   * in all, {@code epochs} passes, {@code outputs} outputs (classes one-vs-rest, else 1), rule
   * {@code algorithm}, on {@code cores} cores; {@code privateRecords}: whether the workers would
   * keep private hot records ({@link SharedStateTrainer#keepsHotRecords}). Without them one thread:
   * two threads on one shared state measured slower than one at every size, and more rows only add
   * to the loss.
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
    Double cost = COST.get(algorithm);
    double work = (double) nonzeros * epochs * outputs * (cost == null ? 1.0 : cost);
    int t =
        privateRecords && cost != null
            ? (int) Math.max(1, Math.min(cores, Math.floor(work / WORK_PER_THREAD)))
            : 1;
    String job =
        String.format(
            Locale.ROOT,
            "%d rows x %d epoch(s)%s, %.1f million nonzero visits",
            rows,
            epochs,
            outputs > 1 ? " x " + outputs + " outputs" : "",
            work / 1e6);
    String reason =
        cost == null && cores > 1
            ? String.format(
                Locale.ROOT,
                "auto: 1 of %d cores: %s; a second thread was not measured faster than one for %s"
                    + " (docs/parallel/README.md, \"How many threads\")",
                cores,
                job,
                algorithm)
            : !privateRecords && cores > 1
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
