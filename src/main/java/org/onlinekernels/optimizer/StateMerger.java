package org.onlinekernels.optimizer;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Carries out a {@link MergePlan}: K learners that started from the state of {@code into} are
 * combined into it, element by element, in the canonical learner order of docs/MERGING.md (the
 * lexicographic order of the learners' merged state, compared as the raw bits of each element
 * widened to double), so the result does not depend on the order the learners are given in.
 *
 * <p>Two passes over the coordinates: the first computes every merged value and refuses one that
 * the element type cannot hold (and, for a ball, finds the norm); only the second writes. A
 * refused merge therefore leaves {@code into} bit-identical. Nothing is allocated per coordinate.
 */
final class StateMerger {
  private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;

  private final AbstractOptimizer into;
  private final MergePlan plan;
  private final int d;
  private final int k;
  /** [buffer][learner]: the learners' segments in canonical order. */
  private final MemorySegment[][] learnerBufs;
  private final MemorySegment[] startBufs;
  private final boolean[] isFloat;
  private final MemorySegment startWeight;
  private final MemorySegment[] learnerWeight;
  /** Per learner: the summed increments of the plan's weight scalars. */
  private final double[] scalarWeight;
  private final double[] out;
  /** One element of every learner, reused for each coordinate. */
  private final double[] column;
  private boolean averaged;

  private StateMerger(AbstractOptimizer into, List<AbstractOptimizer> ordered, MergePlan plan) {
    this.into = into;
    this.plan = plan;
    this.d = into.d;
    this.k = ordered.size();
    int nb = plan.buffers.size();
    this.learnerBufs = new MemorySegment[nb][k];
    this.startBufs = new MemorySegment[nb];
    this.isFloat = new boolean[nb];
    for (int b = 0; b < nb; b++) {
      String name = plan.buffers.get(b).name();
      startBufs[b] = into.buffers().get(name);
      isFloat[b] = into.stateType(name) == org.onlinekernels.kernel.ElementType.FLOAT;
      for (int j = 0; j < k; j++) {
        learnerBufs[b][j] = ordered.get(j).buffers().get(name);
      }
    }
    String wb = plan.meanWeightBuffer;
    this.startWeight = wb == null ? null : into.buffers().get(wb);
    this.learnerWeight = new MemorySegment[k];
    this.scalarWeight = new double[k];
    Map<String, Double> s0 = into.scalarState();
    for (int j = 0; j < k; j++) {
      learnerWeight[j] = wb == null ? null : ordered.get(j).buffers().get(wb);
      Map<String, Double> sj = ordered.get(j).scalarState();
      double c = 0;
      for (String s : plan.meanWeightScalars) {
        c += sj.get(s) - s0.get(s);
      }
      scalarWeight[j] = c;
    }
    this.out = new double[nb];
    this.column = new double[k];
  }

  /** Validates, orders and merges; see {@link AbstractOptimizer#merge}. */
  static void merge(AbstractOptimizer into, List<? extends AbstractOptimizer> learners) {
    into.checkOpen();
    MergePlan plan = into.mergePlan();
    if (plan == null) {
      throw new UnsupportedOperationException(into.algorithm() + " has no merge rule");
    }
    if (learners == null || learners.isEmpty()) {
      throw new IllegalArgumentException("merge needs at least one learner");
    }
    for (int j = 0; j < learners.size(); j++) {
      checkCompatible(into, learners.get(j), "learner " + j);
      if (learners.get(j).hasPending()) {
        throw new IllegalStateException("learner " + j + " has a pending predict; call update(g) first");
      }
    }
    // Learners whose state equals the start saw nothing and take no part. With one learner left
    // its state is the merge, exactly (each rule gives it; DFEG's running norm is kept too).
    List<AbstractOptimizer> ordered = new ArrayList<>();
    for (AbstractOptimizer l : learners) {
      if (compareStates(l, into, plan) != 0) {
        ordered.add(l);
      }
    }
    if (ordered.size() <= 1) {
      into.cancelPendingForMerge();
      if (ordered.size() == 1) {
        into.copyStateFrom(ordered.get(0));
      }
      return;
    }
    ordered.sort((a, b) -> compareStates(a, b, plan));
    StateMerger m = new StateMerger(into, ordered, plan);
    double scale = m.pass(false, 1.0);
    Map<String, Double> s0 = into.scalarState();
    double[] scalars = new double[plan.scalars.size()];
    for (int s = 0; s < scalars.length; s++) {
      String name = plan.scalars.get(s).name();
      double[] v = new double[ordered.size()];
      for (int j = 0; j < v.length; j++) {
        v[j] = ordered.get(j).scalarState().get(name);
      }
      scalars[s] = combine(s0.get(name), v, plan.scalars.get(s).rule() == MergePlan.Rule.AVERAGE);
      if (!Double.isFinite(scalars[s])) {
        throw new ArithmeticException("merged scalar " + name + " overflows; the state was left unchanged");
      }
    }
    into.cancelPendingForMerge();
    m.pass(true, scale);
    for (int s = 0; s < scalars.length; s++) {
      into.setScalar(plan.scalars.get(s).name(), scalars[s]);
    }
    into.afterMerge();
  }

  /** Same class, dimension, precision, parameters and buffers; open and owned by the caller. */
  static void checkCompatible(AbstractOptimizer into, AbstractOptimizer other, String what) {
    if (other == null) {
      throw new IllegalArgumentException(what + " is null");
    }
    other.checkOpen();
    if (other.getClass() != into.getClass()) {
      throw new IllegalArgumentException(what + " is a " + other.algorithm() + " optimizer, this one " + into.algorithm());
    }
    if (other.d != into.d || other.precision != into.precision) {
      throw new IllegalArgumentException(what + " has dimension " + other.d + " and precision " + other.precision
          + ", this one " + into.d + " and " + into.precision);
    }
    if (!other.checkpointParams().equals(into.checkpointParams())
        || !other.buffers().keySet().equals(into.buffers().keySet())) {
      throw new IllegalArgumentException(what + " has other parameters (" + other.checkpointParams() + " "
          + other.buffers().keySet() + ") than this one (" + into.checkpointParams() + " " + into.buffers().keySet() + ")");
    }
  }

  /**
   * One pass over the coordinates: computes every merged element; on the writing pass stores it,
   * otherwise checks it fits the element type. Returns the ball projection's scale.
   */
  private double pass(boolean write, double scale) {
    List<MergePlan.Buffer> bufs = plan.buffers;
    double normSq = 0;
    averaged = false;
    for (int i = 0; i < d; i++) {
      for (int b = 0; b < bufs.size(); b++) {
        MergePlan.Buffer buf = bufs.get(b);
        out[b] = switch (buf.rule()) {
          case SUM -> combineAt(b, i, false);
          case AVERAGE -> combineAt(b, i, true);
          case MAX -> maxAt(b, i);
          case MEAN -> meanAt(b, i);
        };
        if (buf.rule() == MergePlan.Rule.MEAN) {
          normSq += out[b] * out[b];
        }
      }
      for (int b = 0; b < bufs.size(); b++) {
        double v = bufs.get(b).rule() == MergePlan.Rule.MEAN ? out[b] * scale : out[b];
        if (write) {
          into.set(startBufs[b], i, v);
        } else if (!Double.isFinite(isFloat[b] ? (float) v : v)) {
          throw new ArithmeticException("merged " + bufs.get(b).name() + "[" + i + "] = " + v + " overflows "
              + (isFloat[b] ? "float" : "double") + "; the state was left unchanged");
        }
      }
    }
    double r = plan.ballRadius;
    if (!write && averaged && r == r) {
      double norm = Math.sqrt(normSq);
      return norm > r ? r / norm : 1.0;
    }
    return scale;
  }

  private double get(MemorySegment s, int i) {
    return s.byteSize() == (long) d * Float.BYTES ? s.getAtIndex(F, i) : s.getAtIndex(D, i);
  }

  private static boolean same(double a, double b) {
    return Double.doubleToRawLongBits(a) == Double.doubleToRawLongBits(b);
  }

  /** SUM or AVERAGE at one element: see {@link #combine}. */
  private double combineAt(int b, int i, boolean average) {
    for (int j = 0; j < k; j++) {
      column[j] = get(learnerBufs[b][j], i);
    }
    return combine(get(startBufs[b], i), column, average);
  }

  /**
   * The contributors' combination from their count {@code m}, the first one's value and the sums
   * of the increments of all of them and of all but the first: none, the start; one, its value as
   * is; several, the first contributor plus the others' increments (SUM), or the start plus the
   * mean increment (AVERAGE).
   */
  private static double finish(double x0, double first, double all, double others, int m, boolean average) {
    if (m <= 1) {
      return first;
    }
    return average ? x0 + all / m : first + others;
  }

  private double maxAt(int b, int i) {
    double acc = get(startBufs[b], i);
    for (int j = 0; j < k; j++) {
      acc = Math.max(acc, get(learnerBufs[b][j], i));
    }
    return acc;
  }

  private double meanAt(int b, int i) {
    double w0 = get(startBufs[b], i);
    double c0 = startWeight == null ? 0 : get(startWeight, i);
    int count = 0;
    double first = w0;
    double sumCw = 0;
    double sumC = 0;
    double sumW = 0;
    for (int j = 0; j < k; j++) {
      double w = get(learnerBufs[b][j], i);
      double c = Math.max(0, (startWeight == null ? 0 : get(learnerWeight[j], i) - c0) + scalarWeight[j]);
      if (same(w, w0) && !(c > 0)) {
        continue;
      }
      if (count++ == 0) {
        first = w;
      }
      sumCw += c * w;
      sumC += c;
      sumW += w;
    }
    if (count < 2) {
      return first;
    }
    averaged = true;
    double mean = sumC > 0 && Double.isFinite(sumC) && Double.isFinite(sumCw) ? sumCw / sumC : sumW / count;
    return plan.clamp.apply(i, mean);
  }

  /** SUM or AVERAGE of one scalar over the learners, as {@link #combineAt} for an element. */
  static double combine(double x0, double[] xs, boolean average) {
    double first = x0;
    double all = 0;
    double others = 0;
    int m = 0;
    for (double x : xs) {
      if (same(x, x0)) {
        continue;
      }
      if (m++ == 0) {
        first = x;
      } else {
        others += x - x0;
      }
      all += x - x0;
    }
    return finish(x0, first, all, others, m, average);
  }

  /** Lexicographic order of the merged state: buffers in plan order, then the plan's scalars. */
  private static int compareStates(AbstractOptimizer a, AbstractOptimizer b, MergePlan plan) {
    int d = a.d;
    for (MergePlan.Buffer buf : plan.buffers) {
      MemorySegment sa = a.buffers().get(buf.name());
      MemorySegment sb = b.buffers().get(buf.name());
      boolean f = sa.byteSize() == (long) d * Float.BYTES;
      for (int i = 0; i < d; i++) {
        double x = f ? sa.getAtIndex(F, i) : sa.getAtIndex(D, i);
        double y = f ? sb.getAtIndex(F, i) : sb.getAtIndex(D, i);
        int c = Long.compare(Double.doubleToRawLongBits(x), Double.doubleToRawLongBits(y));
        if (c != 0) {
          return c;
        }
      }
    }
    for (MergePlan.Buffer s : plan.scalars) {
      int c = Long.compare(Double.doubleToRawLongBits(a.scalarState().get(s.name())),
          Double.doubleToRawLongBits(b.scalarState().get(s.name())));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }
}
