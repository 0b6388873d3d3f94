package org.onlinekernels.properties;

import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.loss.Loss;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.SparseRows;
import org.onlinekernels.optimizer.StateLayout;
import org.onlinekernels.reference.ReferenceLinearModel;

/**
 * Runs one case through a kernel optimizer and the reference side by side and checks every
 * prediction and, after every round, every state element against the bounds of
 * {@link Tolerance}.
 *
 * <p>The reference first runs the case's warm-up rounds alone; both sides then start from the
 * reference's state (rounded to the element type, and the reference's copy rounded too), so a
 * case with one round is the "single step from the same state" check and a long case is a
 * trajectory check.
 */
final class Agreement {
  private Agreement() {}

  static void kernelVsReference(Subject s, Case c, KernelProvider kernels) {
    kernelVsReference(s, c, kernels, StateLayout.PLANAR, null);
  }

  /**
   * As {@link #kernelVsReference(Subject, Case, KernelProvider)} on state in {@code layout}; with a
   * {@code loss}, every kernel round is one fused {@code round} on the case's rows (sparse) with the
   * label {@link Rounds#label}, and the reference is updated with the {@code g} the round took,
   * {@code loss'(y, yhat)} of the kernel's own {@code yhat}, so both sides see the same gradients.
   */
  static void kernelVsReference(Subject s, Case c, KernelProvider kernels, StateLayout layout, Loss loss) {
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
    SparseRows rows = loss == null ? null : Rounds.rows(wl, t);
    try (Arena arena = Arena.ofConfined(); AbstractOptimizer opt = s.optimizer(d, t, kernels, layout)) {
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
        double yk;
        double g;
        if (loss == null) {
          yk = predictKernel(opt, b, wl, r, sparse);
          g = wl.g[r];
        } else {
          yk = opt.round(rows, r, Rounds.label(wl, r), loss);
          // The g the round used: rounded to the element type like every kernel input.
          g = Workload.round(t, loss.derivative(Rounds.label(wl, r), yk));
        }
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
        double tolY = Tolerance.reduction(u, n, sumAbs) + Tolerance.state(u, s.predictionFactor(ref, d, scalarTracks), k + 1, 0, weightErr);
        if (!(Math.abs(yk - yr) <= tolY)) {
          fail(String.format("%s, %s: round %d: yhat kernel %s vs reference %s differ by %.3g > bound %.3g",
              s.describe(), c, k, yk, yr, Math.abs(yk - yr), tolY));
        }
        s.accumulateExtra(extra, ref, tracks, g, x, k, u);
        if (loss == null) {
          opt.update(g);
        }
        ref.update(g);
        Map<String, MemorySegment> ks = opt.state();
        for (Map.Entry<String, double[]> e : rs.entrySet()) {
          Tracker tr = tracks.get(e.getKey());
          tr.observe(e.getValue());
          double[] kv = Buffers.read(ks.get(e.getKey()), t, d);
          double[] rv = e.getValue();
          boolean exact = t == ElementType.DOUBLE && s.exactStateInDouble();
          for (int i = 0; i < d; i++) {
            double tol = exact ? 0
                : Tolerance.state(u, s.stateFactor(), k + 1, tr.path[i], tr.peak[i]) + extra.get(e.getKey())[i];
            if (!(Math.abs(kv[i] - rv[i]) <= tol)) {
              fail(String.format("%s, %s: round %d: state %s[%d] kernel %s vs reference %s differ by %.3g > bound %.3g%s",
                  s.describe(), c, k, e.getKey(), i, kv[i], rv[i], Math.abs(kv[i] - rv[i]), tol,
                  exact ? " (must be bit-identical in double)" : ""));
            }
          }
        }
        Map<String, Double> kScalars = opt.scalarState();
        for (Map.Entry<String, Double> e : s.referenceScalars(ref).entrySet()) {
          Tracker tr = scalarTracks.get(e.getKey());
          tr.observe(new double[] {e.getValue()});
          double kv = kScalars.get(e.getKey());
          double tol = (Tolerance.chain(d) + s.stateFactor() * (k + 9)) * u * (tr.path[0] + tr.peak[0]);
          if (!(Math.abs(kv - e.getValue()) <= tol)) {
            fail(String.format("%s, %s: round %d: scalar %s kernel %s vs reference %s differ by %.3g > bound %.3g",
                s.describe(), c, k, e.getKey(), kv, e.getValue(), Math.abs(kv - e.getValue()), tol));
          }
        }
      }
    }
  }

  static double predictKernel(AbstractOptimizer opt, Buffers b, Workload wl, int r, boolean sparse) {
    if (sparse) {
      return opt.predictSparse(b.ints(wl.idx[r]), b.of(wl.val[r]), wl.idx[r].length);
    }
    return opt.predict(b.of(wl.dense[r]));
  }

  static double predictReference(ReferenceLinearModel ref, Workload wl, int r, boolean sparse) {
    return sparse ? ref.predictSparse(wl.idx[r], wl.val[r], wl.idx[r].length) : ref.predict(wl.dense[r]);
  }

  /**
   * Runs one case through two kernel optimizers (e.g. vector and scalar, or dense and sparse
   * input) and requires bit-identical state when {@code exact}, else the reference bounds
   * doubled; predictions within twice the reduction bound.
   */
  static void kernelVsKernel(Subject s, Case a, KernelProvider ka, Case bCase, KernelProvider kb, boolean exact) {
    int d = a.d();
    ElementType t = a.type();
    double u = a.unitRoundoff();
    Workload wl = new Workload(a, s.gMax());
    ReferenceLinearModel ref = s.reference(d);
    try (Arena arena = Arena.ofConfined();
        AbstractOptimizer oa = s.optimizer(d, t, ka);
        AbstractOptimizer ob = s.optimizer(d, t, kb)) {
      Buffers ba = new Buffers(arena, a), bb = new Buffers(arena, bCase);
      Map<String, Tracker> tracks = new LinkedHashMap<>();
      s.referenceState(ref).forEach((k, v) -> tracks.put(k, new Tracker(v)));
      Map<String, Tracker> scalarTracks = new LinkedHashMap<>();
      s.referenceScalars(ref).forEach((k, v) -> scalarTracks.put(k, new Tracker(new double[] {v})));
      Tracker wTrack = new Tracker(ref.weights());
      int total = a.warmup() + a.rounds();
      for (int r = 0; r < total; r++) {
        double ya = predictKernel(oa, ba, wl, r, a.sparse());
        double yb = predictKernel(ob, bb, wl, r, bCase.sparse());
        predictReference(ref, wl, r, false);
        double[] w = ref.weights();
        wTrack.observe(w);
        double sumAbs = 0, weightErr = 0;
        for (int i = 0; i < d; i++) {
          sumAbs += Math.abs(wl.dense[r][i] * w[i]);
          weightErr += Math.abs(wl.dense[r][i]) * (Math.abs(w[i]) + wTrack.path[i]);
        }
        double tolY = 2 * (Tolerance.reduction(u, d, sumAbs) + Tolerance.state(u, s.predictionFactor(ref, d, scalarTracks), r + 1, 0, weightErr));
        if (!(Math.abs(ya - yb) <= tolY)) {
          fail(String.format("%s, %s vs %s: round %d: yhat %s vs %s differ by %.3g > bound %.3g",
              s.describe(), a, bCase, r, ya, yb, Math.abs(ya - yb), tolY));
        }
        oa.update(wl.g[r]);
        ob.update(wl.g[r]);
        ref.update(wl.g[r]);
        s.referenceScalars(ref).forEach((k, v) -> scalarTracks.get(k).observe(new double[] {v}));
        Map<String, MemorySegment> sa = oa.state(), sb = ob.state();
        for (Map.Entry<String, double[]> e : s.referenceState(ref).entrySet()) {
          Tracker tr = tracks.get(e.getKey());
          tr.observe(e.getValue());
          double[] va = Buffers.read(sa.get(e.getKey()), t, d), vb = Buffers.read(sb.get(e.getKey()), t, d);
          for (int i = 0; i < d; i++) {
            double tol = exact ? 0 : 2 * Tolerance.state(u, s.stateFactor(), r + 1, tr.path[i], tr.peak[i]);
            if (!(Math.abs(va[i] - vb[i]) <= tol)) {
              fail(String.format("%s, %s vs %s: round %d: state %s[%d] %s vs %s differ by %.3g > bound %.3g",
                  s.describe(), a, bCase, r, e.getKey(), i, va[i], vb[i], Math.abs(va[i] - vb[i]), tol));
            }
          }
        }
      }
    }
  }
}
