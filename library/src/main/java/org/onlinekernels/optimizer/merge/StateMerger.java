package org.onlinekernels.optimizer.merge;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.onlinekernels.optimizer.internal.StateAccess;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.StateStore;

/**
 * Carries out a {@link MergePlan}: K learners that started from the state of {@code into} are
 * combined into it, element by element, in the canonical learner order of docs/MERGING.md (the
 * lexicographic order of the learners' merged state, compared as the raw bits of each element
 * widened to double), so the result does not depend on the order the learners are given in.
 *
 * <p>Over all coordinates ({@link #merge}) or over a sorted list of them outside which no learner
 * differs from {@code into} ({@link org.onlinekernels.optimizer.parallel.CoordinateMerge}): the
 * canonical order restricted to those coordinates is the same order, and every rule but the ball
 * projection is one coordinate at a time, so both give the same bits. The coordinates are visited
 * in ranges {@code [lo, hi)} of the list, which may run on several threads at once: buffer by
 * buffer within a range (the weights first: their rule reads the start's accumulator). Only the SUM
 * rule can overflow, so its buffers get a checking pass over every range first, and a ball
 * projection a pass for the norm; a refused merge therefore leaves {@code into} bit-identical.
 * Nothing is allocated per coordinate.
 *
 * <p>Solo coordinates: where the caller knows that only one learner's rows named a coordinate
 * ({@link #soloOwners}), every other learner holds the start's value there, so each rule's
 * combination has at most that one contributor and is its value as is (MAX: the larger of it and
 * the start's), the bits {@link MergeColumns} would compute. Such a coordinate is copied instead of
 * combined, and has no sum to check: a sum of one term cannot overflow (as a merge with one
 * contributor copies its state unchecked). Not where a rule weights its learners by their scalar
 * increments ({@code MEAN} with a positive {@link #scalarWeight}): there a learner that did not
 * name a coordinate still contributes the start's value.
 */
public final class StateMerger {
  /**
   * Positions per chunk: every buffer's pass (and the copy back) runs over one chunk before the
   * next, so a coordinate's records, one cache line per state when interleaved, are fetched once
   * for all its variables instead of once per variable. A coordinate's result depends on its own
   * elements only, so the chunks give the same bits as one pass per buffer.
   */
  private static final int CHUNK = 512;

  private final StateAccess into;
  private final MergePlan plan;
  private final int k;

  /**
   * The learners that differ from the start, in canonical order (two or more), or the one that
   * does, or none.
   */
  private final List<StateAccess> ordered;

  /** Every learner given, contributors or not. */
  private final List<? extends StateAccess> learners;

  /** The per-buffer passes over the contributors' columns. */
  private final MergeColumns columns;

  /** The coordinates, ascending, or null for all {@code d}. */
  private final int[] coords;

  private final int n;

  /** The merged scalars (two or more contributors), set by {@link #finish}. */
  private final double[] scalars;

  /** Every variable of {@code into}'s store, and per learner given the same variables. */
  private final StateStore.Field[] intoVariables;

  private final StateStore.Field[][] learnerVariables;

  /** Per buffer of the plan: {@code into}'s variable and every learner's (the solo copies). */
  private final StateStore.Field[] intoBuffers;

  private final StateStore.Field[][] learnerBuffers;

  /** With one contributor, its index in {@link #learners}. */
  private final int sole;

  /**
   * Whether no contributor's {@link #scalarWeight} is positive (solo coordinates may be copied).
   */
  private final boolean soloExact;

  /**
   * Per position, the index in {@link #learners} of the only learner whose rows named it, or -1;
   * null: none known (every position combined).
   */
  private int[] solo;

  private StateMerger(
      StateAccess into,
      List<? extends StateAccess> learners,
      List<StateAccess> ordered,
      MergePlan plan,
      int[] coords,
      int n) {
    this.into = into;
    this.learners = learners;
    this.plan = plan;
    this.k = ordered.size();
    this.ordered = ordered;
    this.coords = coords;
    this.n = n;
    double[] scalarWeight = new double[k];
    this.scalars = new double[plan.scalars().size()];
    this.columns = new MergeColumns(into, ordered, plan, coords, scalarWeight);
    String[] names = into.store().names().toArray(new String[0]);
    this.intoVariables = new StateStore.Field[names.length];
    this.learnerVariables = new StateStore.Field[learners.size()][names.length];
    for (int v = 0; v < names.length; v++) {
      intoVariables[v] = into.store().field(names[v]);
      for (int j = 0; j < learners.size(); j++) {
        learnerVariables[j][v] = learners.get(j).store().field(names[v]);
      }
    }
    int one = -1;
    for (int j = 0; j < learners.size() && k == 1; j++) {
      if (learners.get(j) == ordered.get(0)) {
        one = j;
        break;
      }
    }
    this.sole = one;
    List<MergePlan.Buffer> buffers = plan.buffers();
    this.intoBuffers = new StateStore.Field[buffers.size()];
    this.learnerBuffers = new StateStore.Field[buffers.size()][learners.size()];
    for (int b = 0; b < intoBuffers.length; b++) {
      intoBuffers[b] = into.store().field(buffers.get(b).name());
      for (int j = 0; j < learners.size(); j++) {
        learnerBuffers[b][j] = learners.get(j).store().field(buffers.get(b).name());
      }
    }
    if (k < 2) {
      this.soloExact = false;
      return;
    }
    Map<String, Double> s0 = into.scalarState();
    boolean exact = true;
    for (int j = 0; j < k; j++) {
      scalarWeight[j] = scalarWeight(into, ordered.get(j), plan);
      exact &= !(scalarWeight[j] > 0);
    }
    this.soloExact = exact;
    for (int s = 0; s < scalars.length; s++) {
      String name = plan.scalars().get(s).name();
      double[] v = new double[k];
      for (int j = 0; j < k; j++) {
        v[j] = ordered.get(j).scalarState().get(name);
      }
      scalars[s] =
          MergeArithmetic.combine(
              s0.get(name), v, plan.scalars().get(s).rule() == MergePlan.Rule.AVERAGE);
      if (!Double.isFinite(scalars[s])) {
        throw new ArithmeticException(
            "merged scalar " + name + " overflows; the state was left unchanged");
      }
    }
  }

  /** Validates, orders and merges over every coordinate; see {@code StatefulOptimizer#merge}. */
  public static void merge(StateAccess into, List<? extends StateAccess> learners) {
    into.checkOpen();
    StateMerger m = prepare(into, learners, null, into.dimension(), true);
    m.check(0, m.n);
    double scale = m.ballScale();
    into.stateReplaced();
    m.write(0, m.n, scale, false);
    m.finish(false);
  }

  /**
   * Checks the learners against {@code into} (owned by the calling thread; with {@code owners}, the
   * learners too), drops those equal to it over {@code coords[0..n)} (or all coordinates), sorts
   * the rest canonically and merges the scalars; nothing is written yet.
   */
  public static StateMerger prepare(
      StateAccess into, List<? extends StateAccess> learners, int[] coords, int n, boolean owners) {
    MergePlan plan = into.mergePlan();
    if (plan == null) {
      throw new UnsupportedOperationException(into.algorithm() + " has no merge rule");
    }
    // With one learner left its state is the merge, exactly (each rule gives it; DFEG's running
    // norm is kept too): write and finish copy it.
    List<StateAccess> ordered = contributors(into, learners, plan, coords, n, owners);
    return new StateMerger(into, learners, ordered, plan, coords, n);
  }

  /**
   * Validates {@code learners} against {@code into} and returns those whose state differs from it
   * (a learner that saw nothing takes no part) in the canonical order.
   */
  public static List<StateAccess> contributors(
      StateAccess into, List<? extends StateAccess> learners, MergePlan plan) {
    return contributors(into, learners, plan, null, into.dimension(), true);
  }

  /** {@link #contributors(StateAccess, List, MergePlan)} over {@code coords[0..n)} (null: all). */
  private static List<StateAccess> contributors(
      StateAccess into,
      List<? extends StateAccess> learners,
      MergePlan plan,
      int[] coords,
      int n,
      boolean owners) {
    if (learners == null || learners.isEmpty()) {
      throw new IllegalArgumentException("merge needs at least one learner");
    }
    for (int j = 0; j < learners.size(); j++) {
      MergeCompatibility.checkCompatible(into, learners.get(j), "learner " + j, owners);
      if (learners.get(j).hasPending()) {
        throw new IllegalStateException(
            "learner " + j + " has a pending predict; call update(g) first");
      }
    }
    List<StateAccess> ordered = new ArrayList<>();
    for (StateAccess l : learners) {
      if (MergeCompatibility.compareStates(l, into, plan, coords, n) != 0) {
        ordered.add(l);
      }
    }
    ordered.sort((a, b) -> MergeCompatibility.compareStates(a, b, plan, coords, n));
    return ordered;
  }

  /** {@link MergePlan.Rule#MEAN}: a learner's summed increments of the plan's weight scalars. */
  public static double scalarWeight(StateAccess into, StateAccess learner, MergePlan plan) {
    Map<String, Double> s0 = into.scalarState();
    Map<String, Double> sj = learner.scalarState();
    double c = 0;
    for (String s : plan.meanWeightScalars()) {
      c += sj.get(s) - s0.get(s);
    }
    return c;
  }

  /**
   * Gives, per position of the coordinates, the index in the learners (as given to {@link
   * #prepare}) of the only one whose rows named it, or -1 where several did; those positions are
   * then copied, not combined, by {@link #write} and skipped by {@link #check} (see the class
   * comment). Ignored without a list of coordinates, without two contributors, or where the rule
   * weights learners by their scalar increments.
   *
   * @throws IllegalArgumentException for an owner outside {@code -1..learners-1}
   */
  public void soloOwners(int[] owners) {
    if (owners == null || coords == null || k < 2 || !soloExact) {
      return;
    }
    if (owners.length < n) {
      throw new IllegalArgumentException(owners.length + " owners for " + n + " coordinates");
    }
    for (int q = 0; q < n; q++) {
      if (owners[q] < -1 || owners[q] >= learners.size()) {
        throw new IllegalArgumentException(
            "owner " + owners[q] + " at " + q + " of " + learners.size() + " learners");
      }
    }
    this.solo = owners;
    columns.skipSolo(owners);
  }

  /** The number of coordinates merged. */
  public int size() {
    return n;
  }

  /** Checks that every SUM over positions {@code [lo, hi)} fits its element type. */
  public void check(int lo, int hi) {
    if (k < 2) {
      return;
    }
    double[] column = columns.column();
    List<MergePlan.Buffer> buffers = plan.buffers();
    for (int c0 = lo; c0 < hi; c0 += CHUNK) {
      int c1 = Math.min(hi, c0 + CHUNK);
      for (int b = 0; b < buffers.size(); b++) {
        if (buffers.get(b).rule() == MergePlan.Rule.SUM) {
          columns.sum(b, c0, c1, false, column);
        }
      }
    }
  }

  /**
   * Writes the merged state at positions {@code [lo, hi)} into {@code into} (the ball scaled by
   * {@code scale}), and with {@code back} into every learner as well (every variable of their
   * stores), so all of them hold the merged state there.
   */
  public void write(int lo, int hi, double scale, boolean back) {
    double[] column = columns.column();
    double[] weightColumn = columns.column();
    for (int c0 = lo; c0 < hi; c0 += CHUNK) {
      writeChunk(c0, Math.min(hi, c0 + CHUNK), scale, back, column, weightColumn);
    }
  }

  /** {@link #write} over one chunk of positions. */
  private void writeChunk(
      int lo, int hi, double scale, boolean back, double[] column, double[] weightColumn) {
    if (k == 1) {
      copy(learnerVariables[sole], intoVariables, lo, hi);
    } else if (k > 1) {
      List<MergePlan.Buffer> buffers = plan.buffers();
      for (int b = 0; b < buffers.size(); b++) {
        if (buffers.get(b).rule() == MergePlan.Rule.MEAN) {
          columns.mean(b, lo, hi, scale, true, null, column, weightColumn);
        }
      }
      for (int b = 0; b < buffers.size(); b++) {
        switch (buffers.get(b).rule()) {
          case SUM -> columns.sum(b, lo, hi, true, column);
          case AVERAGE -> columns.average(b, lo, hi, column);
          case MAX -> columns.max(b, lo, hi);
          case MEAN -> {}
        }
      }
      if (solo != null) {
        copySolo(lo, hi);
      }
    }
    if (back) {
      for (StateStore.Field[] to : learnerVariables) {
        copy(intoVariables, to, lo, hi);
      }
    }
  }

  /**
   * The solo positions of {@code [lo, hi)}: each buffer of the plan takes its one learner's value
   * (MAX: the larger of it and the start's), what the rule's combination gives there.
   */
  private void copySolo(int lo, int hi) {
    List<MergePlan.Buffer> buffers = plan.buffers();
    for (int b = 0; b < buffers.size(); b++) {
      StateStore.Field to = intoBuffers[b];
      StateStore.Field[] from = learnerBuffers[b];
      boolean max = buffers.get(b).rule() == MergePlan.Rule.MAX;
      for (int q = lo; q < hi; q++) {
        int owner = solo[q];
        if (owner < 0) {
          continue;
        }
        int i = coords[q];
        double v = from[owner].get(i);
        to.set(i, max ? Math.max(to.get(i), v) : v);
      }
    }
  }

  private void copy(StateStore.Field[] from, StateStore.Field[] to, int lo, int hi) {
    for (int v = 0; v < from.length; v++) {
      copy(from[v], to[v], lo, hi);
    }
  }

  private void copy(StateStore.Field f, StateStore.Field t, int lo, int hi) {
    for (int q = lo; q < hi; q++) {
      int i = columns.at(q);
      t.set(i, f.get(i));
    }
  }

  /**
   * The scalars: the merged ones (or the single contributor's) into {@code into}, which then
   * recomputes what it derives from its state; with {@code back}, into every learner as well.
   */
  public void finish(boolean back) {
    if (k == 1) {
      ordered.get(0).scalarState().forEach(into::setScalar);
    } else if (k > 1) {
      for (int s = 0; s < scalars.length; s++) {
        into.setScalar(plan.scalars().get(s).name(), scalars[s]);
      }
      into.afterMerge();
    }
    if (back) {
      Map<String, Double> merged = into.scalarState();
      for (StateAccess l : learners) {
        merged.forEach(l::setScalar);
        l.stateReplaced();
      }
    }
  }

  /**
   * The ball projection's factor {@code min(1, R / ||v||)} for the merged weights {@code v}, or 1
   * without a ball, without two contributors, or when no coordinate was averaged. The norm is over
   * every coordinate, so a ball is merged over all of them.
   */
  public double ballScale() {
    double r = plan.ballRadius();
    if (r != r || k < 2) {
      return 1.0;
    }
    if (coords != null) {
      throw new IllegalStateException(
          into.algorithm() + " projects its merged weights onto a ball: merge every coordinate");
    }
    List<MergePlan.Buffer> buffers = plan.buffers();
    for (int b = 0; b < buffers.size(); b++) {
      if (buffers.get(b).rule() == MergePlan.Rule.MEAN) {
        double[] normSq = new double[1];
        boolean averaged =
            columns.mean(b, 0, n, 1.0, false, normSq, columns.column(), columns.column());
        double norm = Math.sqrt(normSq[0]);
        return averaged && norm > r ? r / norm : 1.0;
      }
    }
    return 1.0;
  }
}
