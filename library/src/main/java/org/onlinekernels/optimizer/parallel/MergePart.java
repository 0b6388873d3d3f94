package org.onlinekernels.optimizer.parallel;

import java.io.Serializable;
import java.lang.foreign.MemorySegment;
import org.onlinekernels.optimizer.merge.MergeArithmetic;
import org.onlinekernels.optimizer.state.MergePlan;

/**
 * One state buffer (or scalar, {@code n = 1}) of a {@link MergeSummary}'s group: per element the
 * contributors' count and what the buffer's rule needs of them; arrays a rule does not use are
 * null.
 */
final class MergePart implements Serializable {
  private static final long serialVersionUID = 1L;
  final MergePlan.Rule rule;

  /** Contributors (SUM, AVERAGE, MEAN). */
  final int[] m;

  /** The first contributor's value (SUM, AVERAGE, MEAN). */
  final double[] first;

  /** Sum of every contributor's increment (SUM, AVERAGE), or of their weights {@code w} (MEAN). */
  final double[] all;

  /** Sum of the increments of all contributors but the first (SUM), or of {@code c w} (MEAN). */
  final double[] others;

  /** Sum of the mixture weights {@code c} (MEAN). */
  final double[] sumC;

  /** The largest value (MAX). */
  final double[] max;

  private MergePart(MergePlan.Rule rule, int n) {
    this.rule = rule;
    boolean counted = rule != MergePlan.Rule.MAX;
    this.m = counted ? new int[n] : null;
    this.first = counted ? new double[n] : null;
    this.all = counted ? new double[n] : null;
    this.others = rule == MergePlan.Rule.SUM || rule == MergePlan.Rule.MEAN ? new double[n] : null;
    this.sumC = rule == MergePlan.Rule.MEAN ? new double[n] : null;
    this.max = counted ? null : new double[n];
  }

  /**
   * One learner's buffer {@code x} against the start's {@code x0}; for MEAN also the weighting
   * buffer ({@code c}, {@code c0}; null without one) and the scalar weight {@code sw}.
   */
  static MergePart single(
      MergePlan.Rule rule,
      int n,
      MemorySegment x0,
      MemorySegment x,
      boolean f,
      MemorySegment c0,
      MemorySegment c,
      boolean cf,
      double sw) {
    MergePart p = new MergePart(rule, n);
    for (int i = 0; i < n; i++) {
      double v0 = MergeArithmetic.get(x0, f, i);
      double v = MergeArithmetic.get(x, f, i);
      if (rule == MergePlan.Rule.MAX) {
        p.max[i] = v;
        continue;
      }
      // The sums start at 0 and take each term as merge's loops add it: 0 + term.
      double cw =
          rule == MergePlan.Rule.MEAN
              ? MergeArithmetic.meanWeight(
                  c0 == null ? 0 : MergeArithmetic.get(c, cf, i) - MergeArithmetic.get(c0, cf, i),
                  sw)
              : 0;
      boolean contributes =
          rule == MergePlan.Rule.MEAN
              ? !(MergeArithmetic.same(v, v0) && !(cw > 0))
              : !MergeArithmetic.same(v, v0);
      if (contributes) {
        p.m[i] = 1;
        p.first[i] = v;
        if (rule == MergePlan.Rule.MEAN) {
          p.others[i] = 0.0 + cw * v;
          p.sumC[i] = 0.0 + cw;
          p.all[i] = 0.0 + v;
        } else {
          p.all[i] = 0.0 + (v - v0);
        }
      }
    }
    return p;
  }

  /** This group's element sums followed by {@code later}'s. */
  MergePart then(MergePart later) {
    int n = max != null ? max.length : m.length;
    MergePart p = new MergePart(rule, n);
    for (int i = 0; i < n; i++) {
      if (rule == MergePlan.Rule.MAX) {
        p.max[i] = Math.max(max[i], later.max[i]);
      } else if (later.m[i] == 0 || m[i] == 0) {
        p.copy(i, later.m[i] == 0 ? this : later);
      } else {
        p.m[i] = m[i] + later.m[i];
        p.first[i] = first[i];
        p.all[i] = all[i] + later.all[i];
        if (rule == MergePlan.Rule.SUM) {
          p.others[i] = others[i] + later.all[i];
        } else if (rule == MergePlan.Rule.MEAN) {
          p.others[i] = others[i] + later.others[i];
          p.sumC[i] = sumC[i] + later.sumC[i];
        }
      }
    }
    return p;
  }

  private void copy(int i, MergePart from) {
    m[i] = from.m[i];
    first[i] = from.first[i];
    all[i] = from.all[i];
    if (others != null) {
      others[i] = from.others[i];
    }
    if (sumC != null) {
      sumC[i] = from.sumC[i];
    }
  }

  /** The value of the only learner that differs from the start ({@code x0}: the start's). */
  double sole(int i, double x0) {
    return rule == MergePlan.Rule.MAX ? max[i] : m[i] == 0 ? x0 : first[i];
  }

  /** The merged element before MEAN's clamp and ball scale ({@code x0}: the start's). */
  double merged(int i, double x0) {
    return switch (rule) {
      case MAX -> Math.max(x0, max[i]);
      case SUM, AVERAGE ->
          MergeArithmetic.finish(
              x0,
              m[i] == 0 ? x0 : first[i],
              all[i],
              others == null ? 0 : others[i],
              m[i],
              rule == MergePlan.Rule.AVERAGE);
      case MEAN ->
          m[i] == 0
              ? x0
              : m[i] == 1 ? first[i] : MergeArithmetic.mean(m[i], others[i], sumC[i], all[i]);
    };
  }
}
