package org.onlinekernels.optimizer.merge;

import java.util.List;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.internal.StateAccess;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.StateStore;

/**
 * A {@link StateMerger}'s per-buffer passes: each combines, coordinate by coordinate over positions
 * {@code [lo, hi)} of the merged coordinates, one buffer's column of contributor values (in
 * canonical order) with the start's value by one {@link MergePlan.Rule}, and writes the result into
 * the start's state. Two or more contributors; nothing is allocated per coordinate. Positions named
 * by one learner's rows alone ({@code solo}) are skipped: {@link StateMerger} writes them.
 */
final class MergeColumns {
  private final StateAccess into;
  private final List<StateAccess> ordered;
  private final int k;
  private final MergePlan plan;

  /** The coordinates, ascending, or null for all. */
  private final int[] coords;

  /** Per contributor: the summed increments of the plan's weight scalars ({@code MEAN}). */
  private final double[] scalarWeight;

  /**
   * Per position, the one learner whose rows named it ({@code >= 0}: the passes skip it), or -1;
   * null: every position is combined.
   */
  private int[] solo;

  MergeColumns(
      StateAccess into,
      List<StateAccess> ordered,
      MergePlan plan,
      int[] coords,
      double[] scalarWeight) {
    this.into = into;
    this.ordered = ordered;
    this.k = ordered.size();
    this.plan = plan;
    this.coords = coords;
    this.scalarWeight = scalarWeight;
  }

  /** From now on the passes skip the positions {@code solo} gives an owner ({@code >= 0}). */
  void skipSolo(int[] solo) {
    this.solo = solo;
  }

  /** Whether position {@code q} is left to the solo pass. */
  private boolean skipped(int q) {
    return solo != null && solo[q] >= 0;
  }

  /** The coordinate at position {@code q}. */
  int at(int q) {
    return coords == null ? q : coords[q];
  }

  private StateStore.Field startField(String name) {
    return into.store().field(name);
  }

  private StateStore.Field[] learnerFields(String name) {
    StateStore.Field[] f = new StateStore.Field[k];
    for (int j = 0; j < k; j++) {
      f[j] = ordered.get(j).store().field(name);
    }
    return f;
  }

  /** SUM over one buffer: written, or only checked to fit the element type. */
  void sum(String name, int lo, int hi, boolean write) {
    StateStore.Field s0 = startField(name);
    StateStore.Field[] fs = learnerFields(name);
    boolean f = s0.type() == ElementType.FLOAT;
    double[] column = new double[k];
    for (int q = lo; q < hi; q++) {
      if (skipped(q)) {
        continue;
      }
      int i = at(q);
      for (int j = 0; j < k; j++) {
        column[j] = fs[j].get(i);
      }
      double v = MergeArithmetic.combine(s0.get(i), column, false);
      if (write) {
        s0.set(i, v);
      } else if (!Double.isFinite(f ? (float) v : v)) {
        throw new ArithmeticException(
            "merged "
                + name
                + "["
                + i
                + "] = "
                + v
                + " overflows "
                + (f ? "float" : "double")
                + "; the state was left unchanged");
      }
    }
  }

  /** AVERAGE over one buffer (a convex combination of its values: it cannot overflow). */
  void average(String name, int lo, int hi) {
    StateStore.Field s0 = startField(name);
    StateStore.Field[] fs = learnerFields(name);
    double[] column = new double[k];
    for (int q = lo; q < hi; q++) {
      if (skipped(q)) {
        continue;
      }
      int i = at(q);
      for (int j = 0; j < k; j++) {
        column[j] = fs[j].get(i);
      }
      s0.set(i, MergeArithmetic.combine(s0.get(i), column, true));
    }
  }

  void max(String name, int lo, int hi) {
    StateStore.Field s0 = startField(name);
    StateStore.Field[] fs = learnerFields(name);
    for (int q = lo; q < hi; q++) {
      if (skipped(q)) {
        continue;
      }
      int i = at(q);
      double acc = s0.get(i);
      for (int j = 0; j < k; j++) {
        acc = Math.max(acc, fs[j].get(i));
      }
      s0.set(i, acc);
    }
  }

  /**
   * MEAN over the weights {@code name}: written (times {@code scale}), or only summed into {@code
   * normSq[0]}. Returns whether any coordinate had two or more contributors.
   */
  boolean mean(String name, int lo, int hi, double scale, boolean write, double[] normSq) {
    StateStore.Field s0 = startField(name);
    StateStore.Field[] fs = learnerFields(name);
    String wb = plan.meanWeightBuffer();
    StateStore.Field c0 = wb == null ? null : startField(wb);
    StateStore.Field[] cs = wb == null ? null : learnerFields(wb);
    double[] column = new double[k];
    double[] weightColumn = new double[k];
    boolean averaged = false;
    double sq = 0;
    for (int q = lo; q < hi; q++) {
      if (skipped(q)) {
        continue;
      }
      int i = at(q);
      double base = c0 == null ? 0 : c0.get(i);
      for (int j = 0; j < k; j++) {
        column[j] = fs[j].get(i);
        weightColumn[j] =
            MergeArithmetic.meanWeight(c0 == null ? 0 : cs[j].get(i) - base, scalarWeight[j]);
      }
      double w0 = s0.get(i);
      int count = 0;
      double first = w0;
      double sumCw = 0;
      double sumC = 0;
      double sumW = 0;
      for (int j = 0; j < k; j++) {
        double w = column[j];
        double c = weightColumn[j];
        if (MergeArithmetic.same(w, w0) && !(c > 0)) {
          continue;
        }
        if (count++ == 0) {
          first = w;
        }
        sumCw += c * w;
        sumC += c;
        sumW += w;
      }
      double v = first;
      if (count >= 2) {
        averaged = true;
        v = plan.clamp().apply(i, MergeArithmetic.mean(count, sumCw, sumC, sumW));
      }
      if (write) {
        s0.set(i, v * scale);
      } else {
        sq += v * v;
      }
    }
    if (normSq != null) {
      normSq[0] = sq;
    }
    return averaged;
  }
}
