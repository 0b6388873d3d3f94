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
 * <p>Buffer by buffer, each in one streaming pass over the coordinates (the weights first: their
 * rule reads the start's accumulator). Only the SUM rule can overflow, so its buffers get a
 * checking pass first, and a ball projection a pass for the norm; a refused merge therefore leaves
 * {@code into} bit-identical. Nothing is allocated per coordinate.
 */
final class StateMerger {
  private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
  private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;

  private final AbstractOptimizer into;
  private final MergePlan plan;
  private final int d;
  private final int k;
  private final List<AbstractOptimizer> ordered;

  /** Per learner: the summed increments of the plan's weight scalars. */
  private final double[] scalarWeight;

  /** One element of every learner, reused for each coordinate. */
  private final double[] column;

  private final double[] weightColumn;

  private StateMerger(AbstractOptimizer into, List<AbstractOptimizer> ordered, MergePlan plan) {
    this.into = into;
    this.plan = plan;
    this.d = into.d;
    this.k = ordered.size();
    this.ordered = ordered;
    this.scalarWeight = new double[k];
    for (int j = 0; j < k; j++) {
      scalarWeight[j] = scalarWeight(into, ordered.get(j), plan);
    }
    this.column = new double[k];
    this.weightColumn = new double[k];
  }

  /** Validates, orders and merges; see {@link AbstractOptimizer#merge}. */
  static void merge(AbstractOptimizer into, List<? extends AbstractOptimizer> learners) {
    into.checkOpen();
    MergePlan plan = into.mergePlan();
    if (plan == null) {
      throw new UnsupportedOperationException(into.algorithm() + " has no merge rule");
    }
    List<AbstractOptimizer> ordered = contributors(into, learners, plan);
    // With one learner left its state is the merge, exactly (each rule gives it; DFEG's running
    // norm is kept too).
    if (ordered.size() <= 1) {
      into.stateReplaced();
      if (ordered.size() == 1) {
        into.copyStateFrom(ordered.get(0));
      }
      return;
    }
    StateMerger m = new StateMerger(into, ordered, plan);
    for (MergePlan.Buffer b : plan.buffers) {
      if (b.rule() == MergePlan.Rule.SUM) {
        m.sumBuffer(b.name(), false);
      }
    }
    double scale = m.ballScale();
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
        throw new ArithmeticException(
            "merged scalar " + name + " overflows; the state was left unchanged");
      }
    }
    into.stateReplaced();
    for (MergePlan.Buffer b : plan.buffers) {
      if (b.rule() == MergePlan.Rule.MEAN) {
        m.meanBuffer(b.name(), scale, true);
      }
    }
    for (MergePlan.Buffer b : plan.buffers) {
      switch (b.rule()) {
        case SUM -> m.sumBuffer(b.name(), true);
        case AVERAGE -> m.averageBuffer(b.name());
        case MAX -> m.maxBuffer(b.name());
        case MEAN -> {}
      }
    }
    for (int s = 0; s < scalars.length; s++) {
      into.setScalar(plan.scalars.get(s).name(), scalars[s]);
    }
    into.afterMerge();
  }

  /**
   * Validates {@code learners} against {@code into} and returns those whose state differs from it
   * (a learner that saw nothing takes no part) in the canonical order.
   */
  static List<AbstractOptimizer> contributors(
      AbstractOptimizer into, List<? extends AbstractOptimizer> learners, MergePlan plan) {
    if (learners == null || learners.isEmpty()) {
      throw new IllegalArgumentException("merge needs at least one learner");
    }
    for (int j = 0; j < learners.size(); j++) {
      checkCompatible(into, learners.get(j), "learner " + j);
      if (learners.get(j).hasPending()) {
        throw new IllegalStateException(
            "learner " + j + " has a pending predict; call update(g) first");
      }
    }
    List<AbstractOptimizer> ordered = new ArrayList<>();
    for (AbstractOptimizer l : learners) {
      if (compareStates(l, into, plan) != 0) {
        ordered.add(l);
      }
    }
    ordered.sort((a, b) -> compareStates(a, b, plan));
    return ordered;
  }

  /** {@link MergePlan.Rule#MEAN}: a learner's summed increments of the plan's weight scalars. */
  static double scalarWeight(AbstractOptimizer into, AbstractOptimizer learner, MergePlan plan) {
    Map<String, Double> s0 = into.scalarState();
    Map<String, Double> sj = learner.scalarState();
    double c = 0;
    for (String s : plan.meanWeightScalars) {
      c += sj.get(s) - s0.get(s);
    }
    return c;
  }

  /**
   * {@link MergePlan.Rule#MEAN}: a learner's mixture weight at a coordinate, from its increment of
   * the weighting buffer there (0 without one) and its {@link #scalarWeight}.
   */
  static double meanWeight(double bufferIncrement, double scalarWeight) {
    return Math.max(0, bufferIncrement + scalarWeight);
  }

  /**
   * {@link MergePlan.Rule#MEAN} of {@code count >= 2} contributors: their weighted mean, or their
   * plain mean when the weights sum to 0 or a sum overflowed (before the clamp).
   */
  static double mean(int count, double sumCw, double sumC, double sumW) {
    return sumC > 0 && Double.isFinite(sumC) && Double.isFinite(sumCw)
        ? sumCw / sumC
        : sumW / count;
  }

  /** Same class, dimension, precision, parameters and buffers; open and owned by the caller. */
  static void checkCompatible(AbstractOptimizer into, AbstractOptimizer other, String what) {
    if (other == null) {
      throw new IllegalArgumentException(what + " is null");
    }
    other.checkOpen();
    if (other.getClass() != into.getClass()) {
      throw new IllegalArgumentException(
          what + " is a " + other.algorithm() + " optimizer, this one " + into.algorithm());
    }
    if (other.d != into.d || other.precision != into.precision) {
      throw new IllegalArgumentException(
          what
              + " has dimension "
              + other.d
              + " and precision "
              + other.precision
              + ", this one "
              + into.d
              + " and "
              + into.precision);
    }
    if (!Checkpoint.paramsOf(other).equals(Checkpoint.paramsOf(into))
        || !other.buffers().keySet().equals(into.buffers().keySet())) {
      throw new IllegalArgumentException(
          what
              + " has other parameters ("
              + Checkpoint.paramsOf(other)
              + " "
              + other.buffers().keySet()
              + ") than this one ("
              + Checkpoint.paramsOf(into)
              + " "
              + into.buffers().keySet()
              + ")");
    }
  }

  static double get(MemorySegment s, boolean f, int i) {
    return f ? s.getAtIndex(F, i) : s.getAtIndex(D, i);
  }

  static void put(MemorySegment s, boolean f, int i, double v) {
    if (f) {
      s.setAtIndex(F, i, (float) v);
    } else {
      s.setAtIndex(D, i, v);
    }
  }

  private MemorySegment startBuffer(String name) {
    return into.buffers().get(name);
  }

  private MemorySegment[] learnerBuffers(String name) {
    MemorySegment[] segs = new MemorySegment[k];
    for (int j = 0; j < k; j++) {
      segs[j] = ordered.get(j).buffers().get(name);
    }
    return segs;
  }

  private boolean isFloat(String name) {
    return into.stateType(name) == org.onlinekernels.kernel.ElementType.FLOAT;
  }

  static boolean same(double a, double b) {
    return Double.doubleToRawLongBits(a) == Double.doubleToRawLongBits(b);
  }

  /** SUM over one buffer: written, or (first) only checked to fit the element type. */
  private void sumBuffer(String name, boolean write) {
    MemorySegment s0 = startBuffer(name);
    MemorySegment[] segs = learnerBuffers(name);
    boolean f = isFloat(name);
    for (int i = 0; i < d; i++) {
      for (int j = 0; j < k; j++) {
        column[j] = get(segs[j], f, i);
      }
      double v = combine(get(s0, f, i), column, false);
      if (write) {
        put(s0, f, i, v);
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
  private void averageBuffer(String name) {
    MemorySegment s0 = startBuffer(name);
    MemorySegment[] segs = learnerBuffers(name);
    boolean f = isFloat(name);
    for (int i = 0; i < d; i++) {
      for (int j = 0; j < k; j++) {
        column[j] = get(segs[j], f, i);
      }
      put(s0, f, i, combine(get(s0, f, i), column, true));
    }
  }

  private void maxBuffer(String name) {
    MemorySegment s0 = startBuffer(name);
    MemorySegment[] segs = learnerBuffers(name);
    boolean f = isFloat(name);
    for (int i = 0; i < d; i++) {
      double acc = get(s0, f, i);
      for (int j = 0; j < k; j++) {
        acc = Math.max(acc, get(segs[j], f, i));
      }
      put(s0, f, i, acc);
    }
  }

  /**
   * The ball projection's factor {@code min(1, R / ||v||)} for the merged weights {@code v}, or 1
   * without a ball or when no coordinate was averaged.
   */
  private double ballScale() {
    double r = plan.ballRadius;
    if (r != r) {
      return 1.0;
    }
    for (MergePlan.Buffer b : plan.buffers) {
      if (b.rule() == MergePlan.Rule.MEAN) {
        double[] normSq = new double[1];
        boolean averaged = meanBuffer(b.name(), 1.0, false, normSq);
        double norm = Math.sqrt(normSq[0]);
        return averaged && norm > r ? r / norm : 1.0;
      }
    }
    return 1.0;
  }

  private void meanBuffer(String name, double scale, boolean write) {
    meanBuffer(name, scale, write, null);
  }

  /**
   * MEAN over the weights {@code name}: written (times {@code scale}), or only summed into {@code
   * normSq[0]}. Returns whether any coordinate had two or more contributors.
   */
  private boolean meanBuffer(String name, double scale, boolean write, double[] normSq) {
    MemorySegment s0 = startBuffer(name);
    MemorySegment[] segs = learnerBuffers(name);
    boolean f = isFloat(name);
    String wb = plan.meanWeightBuffer;
    MemorySegment c0 = wb == null ? null : startBuffer(wb);
    MemorySegment[] cs = wb == null ? null : learnerBuffers(wb);
    boolean cf = wb != null && isFloat(wb);
    boolean averaged = false;
    double sq = 0;
    for (int i = 0; i < d; i++) {
      double base = c0 == null ? 0 : get(c0, cf, i);
      for (int j = 0; j < k; j++) {
        column[j] = get(segs[j], f, i);
        weightColumn[j] = meanWeight(c0 == null ? 0 : get(cs[j], cf, i) - base, scalarWeight[j]);
      }
      double w0 = get(s0, f, i);
      int count = 0;
      double first = w0;
      double sumCw = 0;
      double sumC = 0;
      double sumW = 0;
      for (int j = 0; j < k; j++) {
        double w = column[j];
        double c = weightColumn[j];
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
      double v = first;
      if (count >= 2) {
        averaged = true;
        v = plan.clamp.apply(i, mean(count, sumCw, sumC, sumW));
      }
      if (write) {
        put(s0, f, i, v * scale);
      } else {
        sq += v * v;
      }
    }
    if (normSq != null) {
      normSq[0] = sq;
    }
    return averaged;
  }

  /**
   * The contributors' combination from their count {@code m}, the first one's value and the sums of
   * the increments of all of them and of all but the first: none, the start; one, its value as is;
   * several, the first contributor plus the others' increments (SUM), or the start plus the mean
   * increment (AVERAGE).
   */
  static double finish(double x0, double first, double all, double others, int m, boolean average) {
    if (m <= 1) {
      return first;
    }
    return average ? x0 + all / m : first + others;
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
  static int compareStates(AbstractOptimizer a, AbstractOptimizer b, MergePlan plan) {
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
      int c =
          Long.compare(
              Double.doubleToRawLongBits(a.scalarState().get(s.name())),
              Double.doubleToRawLongBits(b.scalarState().get(s.name())));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }
}
