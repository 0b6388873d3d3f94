package org.onlinekernels.optimizer.merge;

import java.util.ArrayList;
import java.util.List;
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

  /** The contributors this round: two or more, one, or none. */
  private int k;

  /**
   * This round's contributors' indices in {@link #learners}, canonical order, {@link #k} of them.
   */
  private final int[] order;

  /** Every learner given, contributors or not. */
  private final List<? extends StateAccess> learners;

  /** The per-buffer passes over the contributors' columns. */
  private final MergeColumns columns;

  /** The coordinates, ascending, or null for all {@code d}. */
  private int[] coords;

  private int n;

  /** The merged scalars (two or more contributors), set by {@link #round}. */
  private final double[] scalars;

  /** Per learner given: {@link #scalarWeight} this round (two or more contributors). */
  private final double[] scalarWeight;

  /** Scratch: one scalar's contributor values. */
  private final double[] scalarColumn;

  /** Every scalar of {@code into}'s state, by name (the keys of its {@code scalarState}). */
  private final String[] scalarNames;

  /** Every variable of {@code into}'s store, and per learner given the same variables. */
  private final StateStore.Field[] intoVariables;

  private final StateStore.Field[][] learnerVariables;

  /** Per buffer of the plan: {@code into}'s variable and every learner's (the solo copies). */
  private final StateStore.Field[] intoBuffers;

  private final StateStore.Field[][] learnerBuffers;

  /** With one contributor, its index in {@link #learners}. */
  private int sole;

  /**
   * Whether no contributor's {@link #scalarWeight} is positive (solo coordinates may be copied).
   */
  private boolean soloExact;

  /**
   * Per position, the index in {@link #learners} of the only learner whose rows named it, or -1;
   * null: none known (every position combined).
   */
  private int[] solo;

  /**
   * Resolves every variable of {@code into} and of every learner once; {@link #round} then names
   * each round's contributors without allocating.
   */
  private StateMerger(StateAccess into, List<? extends StateAccess> learners, MergePlan plan) {
    this.into = into;
    this.learners = learners;
    this.plan = plan;
    this.order = new int[learners.size()];
    this.scalarWeight = new double[learners.size()];
    this.scalarColumn = new double[learners.size()];
    this.scalars = new double[plan.scalars().size()];
    this.scalarNames = into.scalarState().keySet().toArray(new String[0]);
    this.columns = new MergeColumns(into, learners, plan, scalarWeight);
    String[] names = into.store().names().toArray(new String[0]);
    this.intoVariables = new StateStore.Field[names.length];
    this.learnerVariables = new StateStore.Field[learners.size()][names.length];
    for (int v = 0; v < names.length; v++) {
      intoVariables[v] = into.store().field(names[v]);
      for (int j = 0; j < learners.size(); j++) {
        learnerVariables[j][v] = learners.get(j).store().field(names[v]);
      }
    }
    List<MergePlan.Buffer> buffers = plan.buffers();
    this.intoBuffers = new StateStore.Field[buffers.size()];
    this.learnerBuffers = new StateStore.Field[buffers.size()][learners.size()];
    for (int b = 0; b < intoBuffers.length; b++) {
      intoBuffers[b] = into.store().field(buffers.get(b).name());
      for (int j = 0; j < learners.size(); j++) {
        learnerBuffers[b][j] = learners.get(j).store().field(buffers.get(b).name());
      }
    }
  }

  /**
   * A merger of {@code learners} into {@code into} kept across rounds: checks them against {@code
   * into} once (not their owner threads) and resolves their variables; each round then {@link
   * #round} names its contributors. The learners must stay the same objects, with the same
   * parameters, for as long as it is used.
   *
   * @throws IllegalArgumentException for an incompatible learner
   * @throws UnsupportedOperationException for a rule without a merge plan
   */
  public static StateMerger kept(StateAccess into, List<? extends StateAccess> learners) {
    MergePlan plan = into.mergePlan();
    if (plan == null) {
      throw new UnsupportedOperationException(into.algorithm() + " has no merge rule");
    }
    if (learners == null || learners.isEmpty()) {
      throw new IllegalArgumentException("merge needs at least one learner");
    }
    for (int j = 0; j < learners.size(); j++) {
      MergeCompatibility.checkCompatible(into, learners.get(j), "learner " + j, false);
    }
    return new StateMerger(into, learners, plan);
  }

  /**
   * This round's merge: the contributors are the learners {@code contributors[0..count)} (indices
   * in the order given to {@link #kept}) in canonical order, over {@code coords[0..n)} (null: all
   * {@code n = d}); merges the scalars and forgets the last round's solo owners. Nothing is written
   * and nothing allocated (but an exception's message).
   *
   * @throws IllegalStateException if a learner has a pending predict
   * @throws ArithmeticException if a merged scalar overflows (nothing written)
   */
  public void round(int[] contributors, int count, int[] coords, int n) {
    for (int j = 0; j < learners.size(); j++) {
      if (learners.get(j).hasPending()) {
        throw new IllegalStateException(
            "learner " + j + " has a pending predict; call update(g) first");
      }
    }
    System.arraycopy(contributors, 0, order, 0, count);
    this.k = count;
    this.coords = coords;
    this.n = n;
    this.solo = null;
    this.sole = count == 1 ? order[0] : -1;
    this.soloExact = false;
    if (count >= 2) {
      boolean exact = true;
      for (int r = 0; r < count; r++) {
        int j = order[r];
        scalarWeight[j] = scalarWeight(into, learners.get(j), plan);
        exact &= !(scalarWeight[j] > 0);
      }
      this.soloExact = exact;
    }
    columns.order(order, count, coords);
    if (count < 2) {
      return;
    }
    List<MergePlan.Buffer> planScalars = plan.scalars();
    for (int s = 0; s < scalars.length; s++) {
      String name = planScalars.get(s).name();
      for (int r = 0; r < count; r++) {
        scalarColumn[r] = learners.get(order[r]).scalar(name);
      }
      scalars[s] =
          MergeArithmetic.combine(
              into.scalar(name),
              scalarColumn,
              count,
              planScalars.get(s).rule() == MergePlan.Rule.AVERAGE);
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
    StateMerger m = new StateMerger(into, learners, plan);
    int[] indices = new int[ordered.size()];
    for (int r = 0; r < indices.length; r++) {
      indices[r] = indexOf(learners, ordered.get(r));
    }
    m.round(indices, indices.length, coords, n);
    return m;
  }

  /** The first index of {@code l} (the same object) in {@code learners}. */
  private static int indexOf(List<? extends StateAccess> learners, StateAccess l) {
    for (int j = 0; ; j++) {
      if (learners.get(j) == l) {
        return j;
      }
    }
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
    List<String> names = plan.meanWeightScalars();
    double c = 0;
    for (int s = 0; s < names.size(); s++) {
      c += learner.scalar(names.get(s)) - into.scalar(names.get(s));
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
    checkOwners(owners, 0, n, learners.size());
    soloOwnersChecked(owners);
  }

  /**
   * {@link #soloOwners} for owners the caller has checked ({@link #checkOwners} over every
   * position): allocates nothing.
   */
  public void soloOwnersChecked(int[] owners) {
    if (owners == null || coords == null || k < 2 || !soloExact) {
      return;
    }
    this.solo = owners;
    columns.skipSolo(owners);
  }

  /**
   * Checks that every owner at positions {@code [lo, hi)} is in {@code -1..learners-1}.
   *
   * @throws IllegalArgumentException for an owner outside it
   */
  public static void checkOwners(int[] owners, int lo, int hi, int learners) {
    for (int q = lo; q < hi; q++) {
      if (owners[q] < -1 || owners[q] >= learners) {
        throw new IllegalArgumentException(
            "owner " + owners[q] + " at " + q + " of " + learners + " learners");
      }
    }
  }

  /** Scratch for one thread's {@link #check} or {@link #write}: a column of every learner. */
  public double[] scratch() {
    return columns.column();
  }

  /** The number of coordinates merged. */
  public int size() {
    return n;
  }

  /** Checks that every SUM over positions {@code [lo, hi)} fits its element type. */
  public void check(int lo, int hi) {
    check(lo, hi, columns.column());
  }

  /** {@link #check(int, int)} with {@code column} for scratch (of {@link #scratch}). */
  public void check(int lo, int hi, double[] column) {
    if (k < 2) {
      return;
    }
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
    write(lo, hi, scale, back, columns.column(), columns.column());
  }

  /**
   * {@link #write(int, int, double, boolean)} with {@code column} and {@code weightColumn} for
   * scratch (each of {@link #scratch}; two arrays).
   */
  public void write(
      int lo, int hi, double scale, boolean back, double[] column, double[] weightColumn) {
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
      StateAccess one = learners.get(sole);
      for (String name : scalarNames) {
        into.setScalar(name, one.scalar(name));
      }
    } else if (k > 1) {
      for (int s = 0; s < scalars.length; s++) {
        into.setScalar(plan.scalars().get(s).name(), scalars[s]);
      }
      into.afterMerge();
    }
    if (back) {
      for (int j = 0; j < learners.size(); j++) {
        StateAccess l = learners.get(j);
        for (String name : scalarNames) {
          l.setScalar(name, into.scalar(name));
        }
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
