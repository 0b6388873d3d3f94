package org.onlinekernels.testkit;

import java.lang.foreign.Arena;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.reference.ReferenceLinearModel;

/**
 * Runs one case through a learner under test and the reference side by side and checks every
 * prediction and, after every round, every state element against the bounds of {@link Tolerance}; a
 * violation throws an {@link AssertionError} naming the subject, the case, the round, the element
 * and the bound.
 *
 * <p>The reference first runs the case's warm-up rounds alone; both sides then start from the
 * reference's state (rounded to the element type, and the reference's copy rounded too), so a case
 * with one round is the "single step from the same state" check and a long case is a trajectory
 * check.
 */
public final class Agreement {
  private Agreement() {}

  /**
   * The library's optimizer of {@code s} on {@code kernels} against the reference: {@link
   * #learnerVsReference}.
   */
  public static void kernelVsReference(Subject s, Case c, KernelProvider kernels) {
    kernelVsReference(s, c, kernels, StateLayout.PLANAR, null);
  }

  /**
   * As {@link #kernelVsReference(Subject, Case, KernelProvider)} on state in {@code layout}; with a
   * {@code loss}, every kernel round is one fused {@code round} on the case's rows (sparse) with
   * the label {@link Workload#label} ({@link RoundLearner}), and the reference is updated with the
   * {@code g} the round took, so both sides see the same gradients.
   */
  public static void kernelVsReference(
      Subject s, Case c, KernelProvider kernels, StateLayout layout, Loss loss) {
    LearnerFactory f =
        loss == null
            ? (d, t) -> new OptimizerLearner(s.optimizer(d, t, kernels, layout))
            : (d, t) ->
                new RoundLearner(
                    s.optimizer(d, t, kernels, layout), new Workload(c, s.gMax()), t, loss);
    learnerVsReference(s, c, f, loss);
  }

  /**
   * A learner from {@code f} against the reference of {@code s} on case {@code c}: predictions and
   * state after every round within the bounds (state bit-identical in double where {@link
   * Subject#exactStateInDouble()}). Without a {@code loss} the learner and the reference take the
   * workload's gradients; with one, both take {@code loss'(label, yhat)} of the learner's own
   * {@code yhat} (rounded to the element type), the label being {@link Workload#label}.
   */
  public static void learnerVsReference(Subject s, Case c, LearnerFactory f, Loss loss) {
    int d = c.d();
    ElementType t = c.type();
    double u = c.unitRoundoff();
    Workload wl = new Workload(c, s.gMax());
    ReferenceLinearModel ref = s.reference(d);
    for (int r = 0; r < c.warmup(); r++) {
      predictReference(ref, wl, r, c.sparse());
      ref.update(wl.g[r]);
    }
    boolean sparse = loss != null || c.sparse();
    try (Arena arena = Arena.ofConfined();
        Learner opt = f.create(d, t)) {
      Map<String, double[]> rs = s.referenceState(ref);
      for (Map.Entry<String, double[]> e : rs.entrySet()) {
        double[] v = e.getValue();
        for (int i = 0; i < d; i++) {
          v[i] = Workload.round(t, v[i]);
        }
        opt.writeState(e.getKey(), v);
      }
      s.settle(ref);
      s.referenceScalars(ref).forEach(opt::writeScalarState);

      Buffers b = new Buffers(arena, c);
      Map<String, Tracker> tracks = new LinkedHashMap<>();
      rs.forEach((k, v) -> tracks.put(k, new Tracker(v)));
      Map<String, Tracker> scalarTracks = new LinkedHashMap<>();
      s.referenceScalars(ref).forEach((k, v) -> scalarTracks.put(k, new Tracker(new double[] {v})));
      Tracker wTrack = new Tracker(ref.weights());
      Map<String, double[]> extra = new LinkedHashMap<>();
      rs.forEach((name, v) -> extra.put(name, new double[d]));

      for (int k = 0; k < c.rounds(); k++) {
        int r = c.warmup() + k;
        double yk = opt.predict(Row.of(wl, r, sparse, b));
        // With a loss: the g the learner's round used, rounded to the element type like every
        // input.
        double g = loss == null ? wl.g[r] : Workload.round(t, loss.derivative(wl.label(r), yk));
        double yr = predictReference(ref, wl, r, sparse);
        double[] w = ref.weights();
        wTrack.observe(w);
        double sumAbs = 0, weightErr = 0;
        double[] x = wl.dense[r];
        int n = sparse ? wl.idx[r].length : d;
        for (int i = 0; i < d; i++) {
          sumAbs += Math.abs(x[i] * w[i]);
          weightErr += Math.abs(x[i]) * (Math.abs(w[i]) + wTrack.path[i]);
        }
        double tolY =
            Tolerance.reduction(u, n, sumAbs)
                + Tolerance.state(u, s.predictionFactor(ref, d, scalarTracks), k + 1, 0, weightErr)
                + s.predictionExtra(ref, x, stateBounds(s, t, u, k, tracks, extra));
        if (!(Math.abs(yk - yr) <= tolY)) {
          fail(
              String.format(
                  "%s, %s: round %d: yhat kernel %s vs reference %s differ by %.3g > bound %.3g",
                  s.describe(), c, k, yk, yr, Math.abs(yk - yr), tolY));
        }
        s.accumulateExtra(extra, ref, tracks, g, x, k, u);
        opt.update(g);
        ref.update(g);
        for (Map.Entry<String, double[]> e : rs.entrySet()) {
          Tracker tr = tracks.get(e.getKey());
          tr.observe(e.getValue());
          double[] kv = opt.state(e.getKey());
          double[] rv = e.getValue();
          boolean exact = t == ElementType.DOUBLE && s.exactStateInDouble();
          for (int i = 0; i < d; i++) {
            double tol = stateBound(s, t, u, k + 1, tr, extra.get(e.getKey()), i);
            if (!(Math.abs(kv[i] - rv[i]) <= tol)) {
              fail(
                  String.format(
                      "%s, %s: round %d: state %s[%d] kernel %s vs reference %s differ by %.3g > bound %.3g%s",
                      s.describe(),
                      c,
                      k,
                      e.getKey(),
                      i,
                      kv[i],
                      rv[i],
                      Math.abs(kv[i] - rv[i]),
                      tol,
                      exact ? " (must be bit-identical in double)" : ""));
            }
          }
        }
        for (Map.Entry<String, Double> e : s.referenceScalars(ref).entrySet()) {
          Tracker tr = scalarTracks.get(e.getKey());
          tr.observe(new double[] {e.getValue()});
          double kv = opt.scalarState(e.getKey());
          double tol =
              (Tolerance.chain(d) + s.stateFactor() * (k + 9)) * u * (tr.path[0] + tr.peak[0]);
          if (!(Math.abs(kv - e.getValue()) <= tol)) {
            fail(
                String.format(
                    "%s, %s: round %d: scalar %s kernel %s vs reference %s differ by %.3g > bound %.3g",
                    s.describe(),
                    c,
                    k,
                    e.getKey(),
                    kv,
                    e.getValue(),
                    Math.abs(kv - e.getValue()),
                    tol));
          }
        }
      }
    }
  }

  /**
   * A library optimizer's prediction for round {@code r} of {@code wl}, dense or sparse, on
   * segments from {@code b}.
   */
  public static double predictKernel(
      AbstractOptimizer opt, Buffers b, Workload wl, int r, boolean sparse) {
    return new OptimizerLearner(opt).predict(Row.of(wl, r, sparse, b));
  }

  /** The reference's prediction for round {@code r} of {@code wl}, dense or sparse. */
  public static double predictReference(
      ReferenceLinearModel ref, Workload wl, int r, boolean sparse) {
    return sparse
        ? ref.predictSparse(wl.idx[r], wl.val[r], wl.idx[r].length)
        : ref.predict(wl.dense[r]);
  }

  /**
   * Runs one case through two of the library's optimizers (e.g. vector and scalar, or dense and
   * sparse input): {@link #learnerVsLearner}.
   */
  public static void kernelVsKernel(
      Subject s, Case a, KernelProvider ka, Case bCase, KernelProvider kb, boolean exact) {
    learnerVsLearner(
        s,
        a,
        (d, t) -> new OptimizerLearner(s.optimizer(d, t, ka)),
        bCase,
        (d, t) -> new OptimizerLearner(s.optimizer(d, t, kb)),
        exact);
  }

  /**
   * Runs every round of case {@code a} (warm-up included, from the initial state) through a learner
   * from {@code fa} fed as {@code a} says (dense or sparse, its offsets and segments) and one from
   * {@code fb} fed as {@code bCase} says, and requires bit-identical state when {@code exact}, else
   * within twice the reference bounds; predictions within twice the prediction bound.
   */
  public static void learnerVsLearner(
      Subject s, Case a, LearnerFactory fa, Case bCase, LearnerFactory fb, boolean exact) {
    Workload wl = new Workload(a, s.gMax());
    twoRuns(s, a, fa, wl, bCase, fb, wl, exact, "");
  }

  /**
   * Scale invariance (ScInOL): feature {@code i} of every row multiplied by {@code 2^k_i}, {@code
   * k_i} uniform in {@code [-8, 8]} (drawn from the case's seed; powers of two keep the inputs
   * exact), leaves every prediction unchanged in real arithmetic. Two learners from {@code f}, one
   * fed the case's rows and one the scaled rows, the same gradients: predictions within twice the
   * prediction bound of the unscaled run (each side is within one of the exact value, and the
   * products {@code x_i w_i} are the same for both).
   */
  public static void scaleInvariance(Subject s, Case c, LearnerFactory f) {
    Workload wl = new Workload(c, s.gMax());
    SplittableRandom r = new SplittableRandom(c.seed() ^ 0x5ca1eL);
    double[] factor = new double[c.d()];
    StringBuilder shown = new StringBuilder();
    for (int i = 0; i < factor.length; i++) {
      int k = r.nextInt(-8, 9);
      factor[i] = Math.scalb(1.0, k);
      if (i < 8) {
        shown.append(i == 0 ? "" : ", ").append("2^").append(k);
      }
    }
    String note = " (features scaled by " + shown + (factor.length > 8 ? ", ..." : "") + ")";
    twoRuns(s, c, f, wl, c, f, wl.scaled(factor), false, note);
  }

  private static void twoRuns(
      Subject s,
      Case a,
      LearnerFactory fa,
      Workload wa,
      Case bCase,
      LearnerFactory fb,
      Workload wb,
      boolean exact,
      String note) {
    int d = a.d();
    ElementType t = a.type();
    double u = a.unitRoundoff();
    ReferenceLinearModel ref = s.reference(d);
    boolean compareState = wa == wb;
    try (Arena arena = Arena.ofConfined();
        Learner oa = fa.create(d, t);
        Learner ob = fb.create(d, t)) {
      Buffers ba = new Buffers(arena, a), bb = new Buffers(arena, bCase);
      Map<String, Tracker> tracks = new LinkedHashMap<>();
      s.referenceState(ref).forEach((k, v) -> tracks.put(k, new Tracker(v)));
      Map<String, Tracker> scalarTracks = new LinkedHashMap<>();
      s.referenceScalars(ref).forEach((k, v) -> scalarTracks.put(k, new Tracker(new double[] {v})));
      Tracker wTrack = new Tracker(ref.weights());
      int total = a.warmup() + a.rounds();
      for (int r = 0; r < total; r++) {
        double ya = oa.predict(Row.of(wa, r, a.sparse(), ba));
        double yb = ob.predict(Row.of(wb, r, bCase.sparse(), bb));
        predictReference(ref, wa, r, false);
        double[] w = ref.weights();
        wTrack.observe(w);
        double sumAbs = 0, weightErr = 0;
        for (int i = 0; i < d; i++) {
          sumAbs += Math.abs(wa.dense[r][i] * w[i]);
          weightErr += Math.abs(wa.dense[r][i]) * (Math.abs(w[i]) + wTrack.path[i]);
        }
        double tolY =
            2
                * (Tolerance.reduction(u, d, sumAbs)
                    + Tolerance.state(
                        u, s.predictionFactor(ref, d, scalarTracks), r + 1, 0, weightErr));
        if (!(Math.abs(ya - yb) <= tolY)) {
          fail(
              String.format(
                  "%s, %s vs %s: round %d: yhat %s vs %s differ by %.3g > bound %.3g%s",
                  s.describe(), a, bCase, r, ya, yb, Math.abs(ya - yb), tolY, note));
        }
        oa.update(wa.g[r]);
        ob.update(wb.g[r]);
        ref.update(wa.g[r]);
        s.referenceScalars(ref).forEach((k, v) -> scalarTracks.get(k).observe(new double[] {v}));
        for (Map.Entry<String, double[]> e : s.referenceState(ref).entrySet()) {
          Tracker tr = tracks.get(e.getKey());
          tr.observe(e.getValue());
          if (!compareState) {
            continue;
          }
          double[] va = oa.state(e.getKey()), vb = ob.state(e.getKey());
          for (int i = 0; i < d; i++) {
            double tol =
                exact ? 0 : 2 * Tolerance.state(u, s.stateFactor(), r + 1, tr.path[i], tr.peak[i]);
            if (!(Math.abs(va[i] - vb[i]) <= tol)) {
              fail(
                  String.format(
                      "%s, %s vs %s: round %d: state %s[%d] %s vs %s differ by %.3g > bound %.3g",
                      s.describe(),
                      a,
                      bCase,
                      r,
                      e.getKey(),
                      i,
                      va[i],
                      vb[i],
                      Math.abs(va[i] - vb[i]),
                      tol));
            }
          }
        }
      }
    }
  }

  private static void fail(String message) {
    throw new AssertionError(message);
  }

  /**
   * The bound a state element is held to after {@code rounds} rounds: the generic state bound plus
   * the subject's extra error (0 where the state must be bit-identical in double).
   */
  private static double stateBound(
      Subject s, ElementType t, double u, int rounds, Tracker tr, double[] extra, int i) {
    if (t == ElementType.DOUBLE && s.exactStateInDouble()) {
      return 0;
    }
    return Tolerance.state(u, s.stateFactor(), rounds, tr.path[i], tr.peak[i]) + extra[i];
  }

  /**
   * Every buffer's element bounds after {@code rounds} rounds (for {@link
   * Subject#predictionExtra}).
   */
  private static Map<String, double[]> stateBounds(
      Subject s,
      ElementType t,
      double u,
      int rounds,
      Map<String, Tracker> tracks,
      Map<String, double[]> extra) {
    Map<String, double[]> b = new LinkedHashMap<>();
    tracks.forEach(
        (name, tr) -> {
          double[] e = extra.get(name);
          double[] v = new double[e.length];
          for (int i = 0; i < v.length; i++) {
            v[i] = stateBound(s, t, u, rounds, tr, e, i);
          }
          b.put(name, v);
        });
    return b;
  }
}
