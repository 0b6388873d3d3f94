package org.onlinekernels.optimizer.parallel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.internal.StateAccess;
import org.onlinekernels.optimizer.merge.MergeArithmetic;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.StateStore;

/**
 * Private copies of a shared state's hottest records, one set per worker: the records both cores of
 * a shared-state run would otherwise write on almost every row. The state is made with {@code
 * threads * capacity} coordinates more than the data's {@code d}; worker {@code j}'s copy of the
 * {@code r}-th hot coordinate is coordinate {@link #slot slot(j, r)} {@code = d + j capacity + r}
 * (its rows name that instead of the hot coordinate). At the end of each of its blocks a worker
 * {@link #fold folds} its copies into the shared records, adding its increments since it last took
 * them to the shared values (which hold the other workers' folds since), and takes the result as
 * its new copy: what the shared state would hold had every round written it without a race. So the
 * lines two cores write on every row are the cold coordinates', each seldom named, and the hot ones
 * are written once per block.
 *
 * <p>Between epochs ({@link #use}, {@link #park}, with no worker running) the copies are taken
 * afresh from the shared records and put back to a fresh state's values, so that a quantity the
 * rule recomputes over the whole state at an epoch's end (DFEG's norm) counts each coordinate once.
 */
public final class HotRecords {
  private final int d;
  private final int threads;
  private final int capacity;

  /** Every per-coordinate variable of the state (plan buffers, parameters, scratch). */
  private final StateStore.Field[] all;

  /** The variables of the merge plan, their rules and element types. */
  private final StateStore.Field[] plan;

  private final MergePlan.Rule[] rules;
  private final String[] names;
  private final boolean[] floats;

  /** Per plan variable: {@link MergePlan#compounding} (a wealth), its sides' factors composed. */
  private final boolean[] compounding;

  /** Told of every two-sided fold of a variable; null: nobody watches. */
  private FoldWatch watch;

  /** The state's invariants. */
  private final StateAccess access;

  /** The index in {@link #plan} of MEAN's weighting buffer, or -1. */
  private final int weight;

  private final MergePlan.Clamp clamp;

  /** Per variable of {@link #all}, each slot's value in a fresh state. */
  private final double[][] fresh;

  /** Per worker, each plan variable's value at each hot record as the worker last took it. */
  private final double[][] start;

  /** Scratch of one record's merged plan values. */
  private final double[] merged;

  /** The hot coordinates, ascending; the first {@link #n} are in use. */
  private int[] hot = new int[0];

  private int n;

  /**
   * The hot records of {@code owner}'s state, whose coordinates {@code [d, d + threads * capacity)}
   * are the workers' copies (still fresh: nothing trained them).
   *
   * @throws IllegalArgumentException if the owner's dimension is not {@code d + threads * capacity}
   *     or its rule has no merge rule
   */
  public HotRecords(AbstractOptimizer owner, int d, int threads, int capacity) {
    StateAccess o = owner.stateAccess();
    if (threads < 1 || capacity < 1 || (long) d + (long) threads * capacity != o.dimension()) {
      throw new IllegalArgumentException(
          "a state of "
              + o.dimension()
              + " coordinates does not hold "
              + threads
              + " x "
              + capacity
              + " hot records after d = "
              + d);
    }
    MergePlan p = o.mergePlan();
    if (p == null) {
      throw new IllegalArgumentException(o.algorithm() + " has no merge rule to fold with");
    }
    this.d = d;
    this.threads = threads;
    this.capacity = capacity;
    StateStore store = o.store();
    List<StateStore.Field> every = new ArrayList<>();
    for (String name : store.names()) {
      every.add(store.field(name));
    }
    this.all = every.toArray(StateStore.Field[]::new);
    List<MergePlan.Buffer> bufs = p.buffers();
    this.plan = new StateStore.Field[bufs.size()];
    this.rules = new MergePlan.Rule[bufs.size()];
    this.names = new String[bufs.size()];
    this.floats = new boolean[bufs.size()];
    this.compounding = new boolean[bufs.size()];
    for (int b = 0; b < plan.length; b++) {
      names[b] = bufs.get(b).name();
      plan[b] = store.field(names[b]);
      rules[b] = bufs.get(b).rule();
      floats[b] = plan[b].type() == ElementType.FLOAT;
      compounding[b] = p.compounding().contains(names[b]);
    }
    this.access = o;
    this.weight = Arrays.asList(names).indexOf(p.meanWeightBuffer());
    this.clamp = p.clamp();
    this.fresh = new double[all.length][threads * capacity];
    for (int v = 0; v < all.length; v++) {
      for (int s = 0; s < threads * capacity; s++) {
        fresh[v][s] = all[v].get(d + s);
      }
    }
    this.start = new double[threads][plan.length * capacity];
    this.merged = new double[plan.length];
  }

  /**
   * What a {@link #fold} did to one variable of one hot record that both sides had changed: for
   * probes and stress tests that check every fold against what a race-free run could reach.
   */
  @FunctionalInterface
  public interface FoldWatch {
    /**
     * Worker {@code worker} folded {@code variable} of hot coordinate {@code coordinate}: from
     * {@code start} (the value it last took) the shared record had reached {@code shared} and its
     * copy {@code mine}; the fold computed {@code merged}, and {@code kept} says the record kept
     * the shared values instead (an invariant broken). Called on the worker's thread, under the
     * fold's lock.
     */
    void folded(
        int worker,
        int coordinate,
        String variable,
        double start,
        double shared,
        double mine,
        double merged,
        boolean kept);
  }

  /** Tells {@code w} (null: nobody) of every two-sided fold from now on. */
  public synchronized void watch(FoldWatch w) {
    watch = w;
  }

  /** The coordinate of worker {@code j}'s copy of hot coordinate number {@code r}. */
  public static int slot(int d, int capacity, int j, int r) {
    return d + j * capacity + r;
  }

  /** The most hot records per worker. */
  public int capacity() {
    return capacity;
  }

  /**
   * Makes {@code coords[0..count)} (ascending, below {@code d}) the hot coordinates and gives every
   * worker a copy of their records as they are now. Call it with no worker running.
   *
   * @throws IllegalArgumentException for more than {@link #capacity} coordinates, or coordinates
   *     out of order or outside {@code [0, d)}
   */
  public void use(int[] coords, int count) {
    if (count < 0 || count > capacity || count > coords.length) {
      throw new IllegalArgumentException(count + " hot coordinates, room for " + capacity);
    }
    for (int r = 0; r < count; r++) {
      if (coords[r] < 0 || coords[r] >= d || (r > 0 && coords[r] <= coords[r - 1])) {
        throw new IllegalArgumentException(
            "hot coordinate "
                + coords[r]
                + " at "
                + r
                + " is outside 0.."
                + (d - 1)
                + " or not above the one before");
      }
    }
    park();
    hot = Arrays.copyOf(coords, count);
    n = count;
    for (int j = 0; j < threads; j++) {
      for (int r = 0; r < n; r++) {
        int s = slot(d, capacity, j, r);
        for (StateStore.Field f : all) {
          f.set(s, f.get(hot[r]));
        }
        for (int b = 0; b < plan.length; b++) {
          start[j][b * capacity + r] = plan[b].get(s);
        }
      }
    }
  }

  /**
   * Puts every copy back to a fresh state's values (the hot records themselves hold every fold).
   * Call it with no worker running.
   */
  public void park() {
    for (int v = 0; v < all.length; v++) {
      for (int s = 0; s < threads * capacity; s++) {
        all[v].set(d + s, fresh[v][s]);
      }
    }
  }

  /**
   * Folds worker {@code j}'s copies into the hot records, from worker {@code j}'s thread between
   * its blocks: per record and plan variable, against the value {@code x0} the worker last took,
   * the shared value {@code a} (the other workers' folds since) and the copy {@code p} (this
   * worker's rounds since) give {@code a} or {@code p} where the other is unchanged, and else the
   * merge's combination (docs/MERGING.md) of the two, but for AVERAGE variables: SUM and AVERAGE
   * variables {@code a + (p - x0)}, both sides' increments (the statistics of a shared state are
   * one learner's: every round adds to them, where the merge of learners that each saw a part of
   * the stream averages them); MAX the larger; MEAN (primal weights) the mean weighted by the
   * increments of the weighting buffer, clamped into the box (adding both steps, each taken with a
   * step size that has not seen the other side's gradients, overshoots); a {@link
   * MergePlan#compounding} variable (a wealth, which every round multiplies by a factor of the
   * other variables) {@code a (p / x0)}, both sides' factors composed, as one thread taking both
   * sides' rounds would have it (adding the increments instead takes a wealth both sides shrank
   * below zero, and the bets then grow against the gradients: ScInOL2 diverged so). The copy and
   * the start then take the result. A record where a value breaks its variable's invariant (a
   * positive quantity both sides shrank, a sum beyond the element type) keeps the shared values and
   * the copy takes them: the worker's rounds there are lost, as a race can lose an update.
   */
  public synchronized void fold(int j) {
    double[] s0 = start[j];
    // Record by record in a method of its own: called K times a block, it is compiled within the
    // first blocks.
    for (int r = 0; r < n; r++) {
      foldRecord(j, r, s0);
    }
  }

  /** {@link #fold} of worker {@code j}'s copy of hot record {@code r}; {@code s0} its starts. */
  private void foldRecord(int j, int r, double[] s0) {
    int at = hot[r];
    int mine = slot(d, capacity, j, r);
    boolean keep = false;
    double ca = 0;
    double cp = 0;
    if (weight >= 0) {
      double w0 = s0[weight * capacity + r];
      ca = MergeArithmetic.meanWeight(plan[weight].get(at) - w0, 0);
      cp = MergeArithmetic.meanWeight(plan[weight].get(mine) - w0, 0);
    }
    for (int b = 0; b < plan.length; b++) {
      double x0 = s0[b * capacity + r];
      double a = plan[b].get(at);
      double p = plan[b].get(mine);
      double v;
      if (MergeArithmetic.same(p, x0)) {
        v = a;
      } else if (MergeArithmetic.same(a, x0)) {
        v = p;
      } else if (rules[b] == MergePlan.Rule.MAX) {
        v = Math.max(a, p);
      } else if (compounding[b]) {
        // Not finite where x0 is 0 (a wealth the rule cannot move from 0): the record is kept.
        v = a * (p / x0);
      } else {
        v =
            rules[b] == MergePlan.Rule.MEAN
                ? clamp.apply(at, MergeArithmetic.mean(2, ca * a + cp * p, ca + cp, a + p))
                : a + (p - x0);
        double stored = floats[b] ? (double) (float) v : v;
        keep |= !Double.isFinite(stored) || access.brokenInvariant(names[b], stored) != null;
      }
      merged[b] = v;
    }
    if (watch != null) {
      tell(j, r, s0, keep);
    }
    for (int b = 0; b < plan.length; b++) {
      double a = plan[b].get(at);
      double v = keep ? a : merged[b];
      if (!MergeArithmetic.same(v, a)) {
        plan[b].set(at, v);
      }
      plan[b].set(mine, v);
      s0[b * capacity + r] = plan[b].get(mine);
    }
  }

  /** Tells {@link #watch} of record {@code r}'s variables that both sides changed. */
  private void tell(int j, int r, double[] s0, boolean keep) {
    int mine = slot(d, capacity, j, r);
    for (int b = 0; b < plan.length; b++) {
      double x0 = s0[b * capacity + r];
      double a = plan[b].get(hot[r]);
      double p = plan[b].get(mine);
      if (!MergeArithmetic.same(p, x0) && !MergeArithmetic.same(a, x0)) {
        watch.folded(j, hot[r], names[b], x0, a, p, merged[b], keep);
      }
    }
  }
}
