package org.onlinekernels.optimizer.merge;

import java.util.Arrays;
import java.util.List;
import org.onlinekernels.optimizer.internal.StateAccess;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.StateStore;

/**
 * The canonical learner order of docs/MERGING.md ({@link MergeCompatibility#compareStates}) over a
 * list of coordinates, found by shares of the list on several threads: each share ({@link #scan})
 * records, per buffer and per pair of states ({@code into} and every learner), the sign of the
 * first element in it that differs; then one thread ({@link #order}) takes per pair the first
 * nonzero sign in buffer order, then share order, then the scalars, which is {@code compareStates}
 * over the whole list, and sorts the contributors (the learners that differ from {@code into}) by
 * it. Each share also checks its part of the list (ascending, in range, its owners in range), so no
 * thread walks the whole list alone. Everything is allocated once, sized by the share count and the
 * learners.
 */
public final class MergeOrder {
  private final StateAccess into;
  private final MergePlan plan;
  private final int learners;
  private final List<? extends StateAccess> learnerList;

  /** Per state (0: {@code into}, 1 + j: learner j), per buffer of the plan, its variable. */
  private final StateStore.Field[][] fields;

  /**
   * The pairs of states {@code (a, b)}, {@code a < b}, as {@code first[p]} and {@code second[p]}.
   */
  private final int[] first;

  private final int[] second;

  /** Per state pair {@code (a, b)}: its index in the pairs. */
  private final int[][] pairOf;

  /** Per share, per buffer, per pair: the sign of the first difference in the share, or 0. */
  private final byte[][][] signs;

  /** Per share: the positions it scanned, {@code [lo, hi)}. */
  private final int[] los;

  private final int[] his;

  /** Per pair: the sign over the whole list (buffers, then scalars), set by {@link #order}. */
  private final int[] sign;

  /** The sorted contributors (learner indices), {@link #count} of them. */
  private final int[] order;

  private int count;

  /**
   * An order of {@code learners} against {@code into} found by {@code shares} shares of the list.
   */
  public MergeOrder(StateAccess into, List<? extends StateAccess> learners, int shares) {
    if (shares < 1) {
      throw new IllegalArgumentException("shares must be >= 1, got " + shares);
    }
    this.into = into;
    this.plan = into.mergePlan();
    this.learners = learners.size();
    this.learnerList = learners;
    List<MergePlan.Buffer> buffers = plan.buffers();
    int states = this.learners + 1;
    this.fields = new StateStore.Field[states][buffers.size()];
    for (int a = 0; a < states; a++) {
      StateAccess s = a == 0 ? into : learners.get(a - 1);
      for (int b = 0; b < buffers.size(); b++) {
        fields[a][b] = s.store().field(buffers.get(b).name());
      }
    }
    int pairs = states * (states - 1) / 2;
    this.first = new int[pairs];
    this.second = new int[pairs];
    this.pairOf = new int[states][states];
    int p = 0;
    for (int a = 0; a < states; a++) {
      for (int b = a + 1; b < states; b++) {
        first[p] = a;
        second[p] = b;
        pairOf[a][b] = p++;
      }
    }
    this.signs = new byte[shares][buffers.size()][pairs];
    this.los = new int[shares];
    this.his = new int[shares];
    Arrays.fill(los, -1);
    Arrays.fill(his, -1);
    this.sign = new int[pairs];
    this.order = new int[this.learners];
  }

  /**
   * Share {@code share}'s part: checks positions {@code [lo, hi)} of {@code coords} (ascending, in
   * {@code [0, d)}) and of {@code owners} (null, or each in {@code -1..learners-1}), and records
   * where every pair of states first differs in them. The learners and {@code into} must be idle.
   *
   * @throws IllegalArgumentException for a coordinate out of range or order, or an owner out of
   *     range
   */
  public void scan(int share, int[] coords, int[] owners, int lo, int hi) {
    int d = into.dimension();
    for (int q = lo; q < hi; q++) {
      if (coords[q] < 0 || coords[q] >= d || (q > lo && coords[q] <= coords[q - 1])) {
        throw outOfOrder(coords, q, d);
      }
    }
    if (owners != null) {
      StateMerger.checkOwners(owners, lo, hi, learners);
    }
    los[share] = lo;
    his[share] = hi;
    byte[][] out = signs[share];
    for (int b = 0; b < out.length; b++) {
      for (int p = 0; p < first.length; p++) {
        out[b][p] =
            (byte) firstDifference(fields[first[p]][b], fields[second[p]][b], coords, lo, hi);
      }
    }
  }

  /**
   * The sign of the first difference of {@code a} against {@code b} at positions {@code [lo, hi)}.
   */
  private static int firstDifference(
      StateStore.Field a, StateStore.Field b, int[] coords, int lo, int hi) {
    for (int q = lo; q < hi; q++) {
      int i = coords[q];
      int c =
          Long.compare(Double.doubleToRawLongBits(a.get(i)), Double.doubleToRawLongBits(b.get(i)));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private IllegalArgumentException outOfOrder(int[] coords, int q, int d) {
    return new IllegalArgumentException(
        "coordinate "
            + coords[q]
            + " at "
            + q
            + " is outside 0.."
            + (d - 1)
            + " or not above the one before");
  }

  /**
   * After every share has scanned (and the scans are visible to this thread): checks that the
   * shares, in order, covered {@code [0, n)} and that the list ascends across them, then finds the
   * contributors in canonical order ({@link #contributors}, {@link #count}). Allocates nothing.
   *
   * @throws IllegalStateException if the shares did not cover the list in order
   * @throws IllegalArgumentException if the list does not ascend where two shares meet
   */
  public void order(int[] coords, int n) {
    int at = 0;
    for (int s = 0; s < los.length; s++) {
      if (los[s] != at || his[s] < los[s]) {
        throw new IllegalStateException(
            "share " + s + " scanned [" + los[s] + ", " + his[s] + "), expected from " + at);
      }
      if (at > 0 && at < his[s] && coords[at] <= coords[at - 1]) {
        throw outOfOrder(coords, at, into.dimension());
      }
      at = his[s];
    }
    if (at != n) {
      throw new IllegalStateException("the shares scanned " + at + " of " + n + " positions");
    }
    for (int p = 0; p < sign.length; p++) {
      sign[p] = combined(p);
    }
    count = 0;
    for (int j = 0; j < learners; j++) {
      if (compare(j + 1, 0) == 0) {
        continue;
      }
      // Insertion sort: stable, as the sequential merge's sort.
      int r = count++;
      while (r > 0 && compare(order[r - 1] + 1, j + 1) > 0) {
        order[r] = order[r - 1];
        r--;
      }
      order[r] = j;
    }
    Arrays.fill(los, -1);
    Arrays.fill(his, -1);
  }

  /** Pair {@code p}'s sign over the whole list: buffers in plan order, shares in order, scalars. */
  private int combined(int p) {
    for (int b = 0; b < plan.buffers().size(); b++) {
      for (byte[][] share : signs) {
        if (share[b][p] != 0) {
          return share[b][p];
        }
      }
    }
    StateAccess a = state(first[p]);
    StateAccess c = state(second[p]);
    List<MergePlan.Buffer> scalars = plan.scalars();
    for (int s = 0; s < scalars.size(); s++) {
      String name = scalars.get(s).name();
      int r =
          Long.compare(
              Double.doubleToRawLongBits(a.scalar(name)),
              Double.doubleToRawLongBits(c.scalar(name)));
      if (r != 0) {
        return r;
      }
    }
    return 0;
  }

  /** State {@code a}: 0 is {@code into}, 1 + j learner j. */
  private StateAccess state(int a) {
    return a == 0 ? into : learnerList.get(a - 1);
  }

  /** State {@code a} against state {@code b} (0: {@code into}, 1 + j: learner j). */
  private int compare(int a, int b) {
    if (a == b) {
      return 0;
    }
    return a < b ? sign[pairOf[a][b]] : -sign[pairOf[b][a]];
  }

  /** The contributors, learner indices in canonical order ({@link #count} of them). */
  public int[] contributors() {
    return order;
  }

  /** The number of contributors this round. */
  public int count() {
    return count;
  }
}
