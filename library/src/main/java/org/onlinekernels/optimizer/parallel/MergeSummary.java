package org.onlinekernels.optimizer.parallel;

import java.io.Serializable;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.StatefulOptimizer;
import org.onlinekernels.optimizer.internal.StateAccess;
import org.onlinekernels.optimizer.merge.MergeArithmetic;
import org.onlinekernels.optimizer.merge.MergeCompatibility;
import org.onlinekernels.optimizer.merge.StateMerger;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.Precision;

/**
 * The merge of a group of learners (docs/MERGING.md) held as the sums and counts its rules need
 * rather than as the learners' states: {@code O(d)} whatever the group's size, so that groups can
 * be combined two at a time ({@link #then}) up a tree and only the root reaches the optimizer
 * holding the start ({@link #mergeInto}). Per element it keeps the number of contributors (learners
 * whose value differs from the start's), the first one's value and the sums of the increments (SUM,
 * AVERAGE), the sums of {@code c w}, {@code c} and {@code w} (MEAN) or the maximum (MAX); per group
 * the number of learners whose state differs from the start.
 *
 * <p>Exactness: {@link #of} folds its learners in the canonical order of {@link
 * AbstractOptimizer#merge}, with the same operations in the same order, so {@code of(start,
 * learners).mergeInto(start)} is {@code start.merge(learners)} bit for bit. Combining groups with
 * {@link #then} adds their sums in the order the groups are given: the result is the merge with the
 * same terms summed in that order instead of the canonical one (MAX exactly; SUM, AVERAGE and MEAN
 * within the rounding of a sum of {@code m} terms; two learners give the canonical bits for every
 * rule but SUM, since {@code a + b == b + a}). The order of {@link #then} is the caller's: a fixed
 * tree gives the same bits on every run. A single learner whose state differs from the start is
 * copied as {@code merge} copies it, buffers of the plan and every scalar; buffers outside the plan
 * (parameters, ScInOL2's stored-weights scratch) keep the start's contents.
 *
 * <p>A summary records a checksum of the start state it was made against; {@link #then} and {@link
 * #mergeInto} refuse summaries of another start, algorithm, dimension, precision or parameters.
 */
public final class MergeSummary implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String algorithm;
  private final int d;
  private final Precision precision;
  private final String params;

  /** CRC32C of the start state: the plan's buffers and scalars, raw. */
  private final long start;

  /** Learners whose state differs from the start. */
  private final long learners;

  /** Every scalar of the only such learner (copied as {@code merge} copies it), else null. */
  private final LinkedHashMap<String, Double> soleScalars;

  private final MergePart[] buffers;
  private final MergePart[] scalars;

  private MergeSummary(
      MergeSummary shape,
      long learners,
      LinkedHashMap<String, Double> soleScalars,
      MergePart[] buffers,
      MergePart[] scalars) {
    this(
        shape.algorithm,
        shape.d,
        shape.precision,
        shape.params,
        shape.start,
        learners,
        soleScalars,
        buffers,
        scalars);
  }

  private MergeSummary(
      String algorithm,
      int d,
      Precision precision,
      String params,
      long start,
      long learners,
      LinkedHashMap<String, Double> soleScalars,
      MergePart[] buffers,
      MergePart[] scalars) {
    this.algorithm = algorithm;
    this.d = d;
    this.precision = precision;
    this.params = params;
    this.start = start;
    this.learners = learners;
    this.soleScalars = soleScalars;
    this.buffers = buffers;
    this.scalars = scalars;
  }

  /**
   * The summary of {@code learners}, which all started from {@code start}'s current state and
   * processed disjoint parts of a stream (checked as {@link AbstractOptimizer#merge} checks them).
   *
   * @param start the optimizer holding the start state (read, not changed)
   * @param learners at least one learner
   * @throws UnsupportedOperationException for an algorithm without a merge rule
   */
  public static MergeSummary of(
      AbstractOptimizer start, List<? extends AbstractOptimizer> learners) {
    StateAccess s = start == null ? null : start.stateAccess();
    MergePlan plan = planOf(s);
    List<StateAccess> ordered =
        StateMerger.contributors(s, StatefulOptimizer.stateAccess(learners), plan);
    MergeSummary acc = null;
    for (StateAccess l : ordered) {
      MergeSummary one = single(s, l, plan);
      acc = acc == null ? one : acc.then(one);
    }
    return acc != null ? acc : single(s, s, plan);
  }

  private static MergePlan planOf(StateAccess o) {
    o.checkOpen();
    MergePlan plan = o.mergePlan();
    if (plan == null) {
      throw new UnsupportedOperationException(o.algorithm() + " has no merge rule");
    }
    return plan;
  }

  /** One learner (or, given the start itself, none) against the start. */
  private static MergeSummary single(StateAccess start, StateAccess learner, MergePlan plan) {
    MergePart[] bufs = new MergePart[plan.buffers().size()];
    double sw = StateMerger.scalarWeight(start, learner, plan);
    String wb = plan.meanWeightBuffer();
    for (int b = 0; b < bufs.length; b++) {
      String name = plan.buffers().get(b).name();
      boolean f = start.stateType(name) == ElementType.FLOAT;
      boolean cf = wb != null && start.stateType(wb) == ElementType.FLOAT;
      bufs[b] =
          MergePart.single(
              plan.buffers().get(b).rule(),
              start.dimension(),
              start.buffers().get(name),
              learner.buffers().get(name),
              f,
              wb == null ? null : start.buffers().get(wb),
              wb == null ? null : learner.buffers().get(wb),
              cf,
              sw);
    }
    MergePart[] sc = new MergePart[plan.scalars().size()];
    for (int s = 0; s < sc.length; s++) {
      String name = plan.scalars().get(s).name();
      MemorySegment x0 = MemorySegment.ofArray(new double[] {start.scalarState().get(name)});
      MemorySegment x = MemorySegment.ofArray(new double[] {learner.scalarState().get(name)});
      sc[s] = MergePart.single(plan.scalars().get(s).rule(), 1, x0, x, false, null, null, false, 0);
    }
    boolean differs =
        learner != start && MergeCompatibility.compareStates(learner, start, plan) != 0;
    return new MergeSummary(
        start.algorithm(),
        start.dimension(),
        start.precision(),
        start.params(),
        fingerprint(start, plan),
        differs ? 1 : 0,
        differs ? new LinkedHashMap<>(learner.scalarState()) : null,
        bufs,
        sc);
  }

  /**
   * The summary of this group's learners followed by {@code later}'s: the sums of both, this
   * group's first. Neither summary is changed.
   *
   * @throws IllegalArgumentException if {@code later} was made against another start or optimizer
   */
  public MergeSummary then(MergeSummary later) {
    if (later == null
        || !algorithm.equals(later.algorithm)
        || d != later.d
        || precision != later.precision
        || !params.equals(later.params)
        || buffers.length != later.buffers.length
        || scalars.length != later.scalars.length) {
      throw new IllegalArgumentException(
          "the summaries are of different optimizers: "
              + describe()
              + " and "
              + (later == null ? "null" : later.describe()));
    }
    if (start != later.start) {
      throw new IllegalArgumentException(
          "the summaries were made against different start states; every learner"
              + " of a merge must start from the state it is merged into");
    }
    MergePart[] bufs = new MergePart[buffers.length];
    for (int b = 0; b < bufs.length; b++) {
      bufs[b] = buffers[b].then(later.buffers[b]);
    }
    MergePart[] sc = new MergePart[scalars.length];
    for (int s = 0; s < sc.length; s++) {
      sc[s] = scalars[s].then(later.scalars[s]);
    }
    long n = learners + later.learners;
    return new MergeSummary(
        this, n, n != 1 ? null : learners == 1 ? soleScalars : later.soleScalars, bufs, sc);
  }

  /** Learners whose state differs from the start (those that take part in the merge). */
  public long learners() {
    return learners;
  }

  private String describe() {
    return algorithm + " (d = " + d + ", " + precision + ", " + params + ")";
  }

  /**
   * Writes the merge into {@code start}, the optimizer the summarized learners started from, in its
   * state of then (cancels its pending predict). A merged value the element type cannot hold is
   * refused with {@link ArithmeticException} before anything is written.
   *
   * @throws IllegalArgumentException if {@code start} is not the optimizer and state this summary
   *     was made against
   */
  public void mergeInto(AbstractOptimizer start) {
    mergeInto(start == null ? null : start.stateAccess());
  }

  private void mergeInto(StateAccess start) {
    MergePlan plan = planOf(start);
    if (!algorithm.equals(start.algorithm())
        || d != start.dimension()
        || precision != start.precision()
        || !params.equals(start.params())
        || buffers.length != plan.buffers().size()) {
      throw new IllegalArgumentException(
          "this summary is of "
              + describe()
              + ", the optimizer is "
              + start.algorithm()
              + " (d = "
              + start.dimension()
              + ", "
              + start.precision()
              + ", "
              + start.params()
              + ")");
    }
    if (fingerprint(start, plan) != this.start) {
      throw new IllegalArgumentException(
          "the optimizer's state is not the start state this summary was made against");
    }
    Map<String, Double> s0 = start.scalarState();
    if (learners <= 1) {
      start.stateReplaced();
      if (learners == 1) {
        for (int b = 0; b < buffers.length; b++) {
          Segment at = new Segment(start, plan.buffers().get(b).name());
          for (int i = 0; i < d; i++) {
            at.put(i, buffers[b].sole(i, at.get(i)));
          }
        }
        soleScalars.forEach(start::setScalar);
      }
      return;
    }
    for (int b = 0; b < buffers.length; b++) {
      if (buffers[b].rule == MergePlan.Rule.SUM) {
        Segment at = new Segment(start, plan.buffers().get(b).name());
        for (int i = 0; i < d; i++) {
          double v = buffers[b].merged(i, at.get(i));
          if (!Double.isFinite(at.isFloat ? (float) v : v)) {
            throw new ArithmeticException(
                "merged "
                    + at.name
                    + "["
                    + i
                    + "] = "
                    + v
                    + " overflows "
                    + (at.isFloat ? "float" : "double")
                    + "; the state was left unchanged");
          }
        }
      }
    }
    double scale = ballScale(start, plan);
    double[] merged = new double[scalars.length];
    for (int s = 0; s < merged.length; s++) {
      String name = plan.scalars().get(s).name();
      merged[s] = scalars[s].merged(0, s0.get(name));
      if (!Double.isFinite(merged[s])) {
        throw new ArithmeticException(
            "merged scalar " + name + " overflows; the state was left unchanged");
      }
    }
    start.stateReplaced();
    // The weights first (as merge writes them), then the other buffers.
    for (MergePlan.Rule pass : new MergePlan.Rule[] {MergePlan.Rule.MEAN, null}) {
      for (int b = 0; b < buffers.length; b++) {
        if ((buffers[b].rule == MergePlan.Rule.MEAN) == (pass != null)) {
          Segment at = new Segment(start, plan.buffers().get(b).name());
          for (int i = 0; i < d; i++) {
            double v = buffers[b].merged(i, at.get(i));
            at.put(i, pass != null ? clamped(plan, buffers[b], i, v) * scale : v);
          }
        }
      }
    }
    for (int s = 0; s < merged.length; s++) {
      start.setScalar(plan.scalars().get(s).name(), merged[s]);
    }
    start.afterMerge();
  }

  /** The ball projection's factor for the merged weights, as {@code merge} computes it. */
  private double ballScale(StateAccess start, MergePlan plan) {
    double r = plan.ballRadius();
    if (r != r) {
      return 1.0;
    }
    for (int b = 0; b < buffers.length; b++) {
      if (buffers[b].rule == MergePlan.Rule.MEAN) {
        Segment at = new Segment(start, plan.buffers().get(b).name());
        boolean averaged = false;
        double sq = 0;
        for (int i = 0; i < d; i++) {
          double v = clamped(plan, buffers[b], i, buffers[b].merged(i, at.get(i)));
          averaged |= buffers[b].m[i] >= 2;
          sq += v * v;
        }
        double norm = Math.sqrt(sq);
        return averaged && norm > r ? r / norm : 1.0;
      }
    }
    return 1.0;
  }

  /** MEAN: an element averaged from two or more contributors is projected into its box. */
  private static double clamped(MergePlan plan, MergePart p, int i, double v) {
    return p.m[i] >= 2 ? plan.clamp().apply(i, v) : v;
  }

  /**
   * CRC32C of what identifies a start state: the plan's buffers (raw bytes) and scalars (raw bits).
   */
  private static long fingerprint(StateAccess o, MergePlan plan) {
    CRC32C crc = new CRC32C();
    for (MergePlan.Buffer b : plan.buffers()) {
      crc.update(b.name().getBytes(StandardCharsets.UTF_8));
      crc.update(o.buffers().get(b.name()).asByteBuffer());
    }
    Map<String, Double> s = o.scalarState();
    for (MergePlan.Buffer b : plan.scalars()) {
      long bits = Double.doubleToRawLongBits(s.get(b.name()));
      for (int k = 0; k < 8; k++) {
        crc.update((int) (bits >>> (8 * k)));
      }
    }
    return crc.getValue();
  }

  /** One buffer of the optimizer, read and written as doubles. */
  private static final class Segment {
    final String name;
    final MemorySegment seg;
    final boolean isFloat;

    Segment(StateAccess o, String name) {
      this.name = name;
      this.seg = o.buffers().get(name);
      this.isFloat = o.stateType(name) == ElementType.FLOAT;
    }

    double get(int i) {
      return MergeArithmetic.get(seg, isFloat, i);
    }

    void put(int i, double v) {
      MergeArithmetic.put(seg, isFloat, i, v);
    }
  }
}
