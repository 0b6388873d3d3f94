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
  private final int k;
  private final MergePlan plan;

  /** The coordinates, ascending, or null for all. */
  private final int[] coords;

  /** Per contributor: the summed increments of the plan's weight scalars ({@code MEAN}). */
  private final double[] scalarWeight;

  /** Per buffer of the plan (its index there): the start's variable and the contributors'. */
  private final StateStore.Field[] starts;

  private final StateStore.Field[][] columns;

  /** The weighting buffer of {@code MEAN} (null without one): the start's and the contributors'. */
  private final StateStore.Field weightStart;

  private final StateStore.Field[] weights;

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
    this.k = ordered.size();
    this.plan = plan;
    this.coords = coords;
    this.scalarWeight = scalarWeight;
    List<MergePlan.Buffer> buffers = plan.buffers();
    this.starts = new StateStore.Field[buffers.size()];
    this.columns = new StateStore.Field[buffers.size()][];
    for (int b = 0; b < starts.length; b++) {
      starts[b] = into.store().field(buffers.get(b).name());
      columns[b] = fields(ordered, buffers.get(b).name());
    }
    String wb = plan.meanWeightBuffer();
    this.weightStart = wb == null ? null : into.store().field(wb);
    this.weights = wb == null ? null : fields(ordered, wb);
  }

  private static StateStore.Field[] fields(List<StateAccess> ordered, String name) {
    StateStore.Field[] f = new StateStore.Field[ordered.size()];
    for (int j = 0; j < f.length; j++) {
      f[j] = ordered.get(j).store().field(name);
    }
    return f;
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

  /** Scratch for one range's passes: a column of the contributors' values. */
  double[] column() {
    return new double[k];
  }

  /**
   * SUM over buffer {@code b} (its index in the plan): written, or only checked to fit the element
   * type. {@code column}: scratch of {@link #column}.
   */
  void sum(int b, int lo, int hi, boolean write, double[] column) {
    StateStore.Field s0 = starts[b];
    StateStore.Field[] fs = columns[b];
    boolean f = s0.type() == ElementType.FLOAT;
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
                + plan.buffers().get(b).name()
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

  /** AVERAGE over buffer {@code b} (a convex combination of its values: it cannot overflow). */
  void average(int b, int lo, int hi, double[] column) {
    StateStore.Field s0 = starts[b];
    StateStore.Field[] fs = columns[b];
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

  void max(int b, int lo, int hi) {
    StateStore.Field s0 = starts[b];
    StateStore.Field[] fs = columns[b];
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
   * MEAN over the weights {@code b}: written (times {@code scale}), or only summed into {@code
   * normSq[0]}. Returns whether any coordinate had two or more contributors. {@code column} and
   * {@code weightColumn}: scratch of {@link #column}.
   */
  boolean mean(
      int b,
      int lo,
      int hi,
      double scale,
      boolean write,
      double[] normSq,
      double[] column,
      double[] weightColumn) {
    StateStore.Field s0 = starts[b];
    StateStore.Field[] fs = columns[b];
    StateStore.Field c0 = weightStart;
    StateStore.Field[] cs = weights;
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
