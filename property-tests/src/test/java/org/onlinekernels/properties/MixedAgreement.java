package org.onlinekernels.properties;

import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.reference.ReferenceLinearModel;
import org.onlinekernels.testkit.Agreement;
import org.onlinekernels.testkit.Buffers;
import org.onlinekernels.testkit.Case;
import org.onlinekernels.testkit.Tolerance;
import org.onlinekernels.testkit.Tracker;
import org.onlinekernels.testkit.Workload;

/**
 * {@link Agreement} for {@link org.onlinekernels.optimizer.state.Precision#MIXED} optimizers:
 * buffers are read and written with their own element type ({@link AbstractOptimizer#stateType}),
 * the state bounds are the subject's ({@link MixedSubject#stateBound}), and predictions, summed in
 * double, are held to
 *
 * <pre>
 *   |yhat_kernel - yhat_ref| <= (chain(d) + d + 1) u_d (S + E) + E,
 *   S = sum |x_i w_i| (reference weights),  E = sum |x_i| * (bound on |w_kernel,i - w_ref,i|)
 * </pre>
 *
 * (the kernel's double sum of exact float products in any order: {@code chain(d) u_d}; the
 * reference's sequential sum of rounded products: {@code (n + 1) u_d}; the weights' own error
 * {@code E}; see {@link Tolerance}).
 */
final class MixedAgreement {
  private MixedAgreement() {}

  static void kernelVsReference(MixedSubject s, Case c, KernelProvider kernels) {
    int d = c.d();
    Workload wl = new Workload(c, s.gMax());
    ReferenceLinearModel ref = s.reference(d);
    for (int r = 0; r < c.warmup(); r++) {
      Agreement.predictReference(ref, wl, r, c.sparse());
      ref.update(wl.g[r]);
    }
    try (Arena arena = Arena.ofConfined();
        AbstractOptimizer opt = s.optimizer(d, kernels)) {
      Map<String, double[]> rs = s.referenceState(ref);
      for (Map.Entry<String, double[]> e : rs.entrySet()) {
        double[] v = e.getValue();
        if (opt.stateType(e.getKey()) == ElementType.FLOAT) {
          for (int i = 0; i < d; i++) {
            v[i] = (float) v[i];
          }
        }
        opt.writeState(e.getKey(), v);
      }
      Buffers b = new Buffers(arena, c);
      Map<String, Tracker> tracks = new LinkedHashMap<>();
      rs.forEach((k, v) -> tracks.put(k, new Tracker(v)));
      for (int k = 0; k < c.rounds(); k++) {
        int r = c.warmup() + k;
        double yk = Agreement.predictKernel(opt, b, wl, r, c.sparse());
        double yr = Agreement.predictReference(ref, wl, r, c.sparse());
        double tolY = predictionBound(s, d, wl.dense[r], ref.weights(), tracks, k);
        if (!(Math.abs(yk - yr) <= tolY)) {
          fail(
              String.format(
                  "%s, %s: round %d: yhat kernel %s vs reference %s differ by %.3g > bound %.3g",
                  s.describe(), c, k, yk, yr, Math.abs(yk - yr), tolY));
        }
        opt.update(wl.g[r]);
        ref.update(wl.g[r]);
        Map<String, MemorySegment> ks = opt.state();
        for (Map.Entry<String, double[]> e : rs.entrySet()) {
          Tracker tr = tracks.get(e.getKey());
          tr.observe(e.getValue());
          double[] kv = Buffers.read(ks.get(e.getKey()), opt.stateType(e.getKey()), d);
          double[] rv = e.getValue();
          for (int i = 0; i < d; i++) {
            double tol = s.stateBound(e.getKey(), k + 1, tr.path[i], tr.peak[i]);
            if (!(Math.abs(kv[i] - rv[i]) <= tol)) {
              fail(
                  String.format(
                      "%s, %s: round %d: state %s[%d] kernel %s vs reference %s differ by %.3g > bound %.3g",
                      s.describe(),
                      c,
                      k,
                      e.getKey(),
                      i,
                      kv[i],
                      rv[i],
                      Math.abs(kv[i] - rv[i]),
                      tol));
            }
          }
        }
      }
      checkReadWeights(s, opt, ref, arena, d, tracks, c.rounds());
    }
  }

  /**
   * {@code readWeights} (float) is the reference's weights rounded to float, within the weights'
   * own bound.
   */
  private static void checkReadWeights(
      MixedSubject s,
      AbstractOptimizer opt,
      ReferenceLinearModel ref,
      Arena arena,
      int d,
      Map<String, Tracker> tracks,
      int rounds) {
    double[] w = ref.weights();
    boolean representable = true;
    for (double v : w) {
      representable &= Float.isFinite((float) v);
    }
    MemorySegment out = arena.allocate(4L * d);
    if (!representable) {
      try {
        opt.readWeights(out);
        fail(s.describe() + ": readWeights of a weight beyond float range must throw");
      } catch (ArithmeticException expected) {
        return;
      }
    }
    opt.readWeights(out);
    double[] got = Buffers.read(out, ElementType.FLOAT, d);
    String wb = s.weightBuffer();
    for (int i = 0; i < d; i++) {
      double tol =
          U_F_HALF_ULP * Math.abs(w[i])
              + (wb == null
                  ? 0
                  : MixedSubject.AdaGrad.wBound(
                      rounds, tracks.get(wb).path[i], tracks.get(wb).peak[i]));
      if (!(Math.abs(got[i] - w[i]) <= tol)) {
        fail(
            String.format(
                "%s: readWeights[%d] %s vs reference %s differ by %.3g > bound %.3g",
                s.describe(), i, got[i], w[i], Math.abs(got[i] - w[i]), tol));
      }
    }
  }

  /** Round to nearest float: relative error at most {@code 2^-24}. */
  private static final double U_F_HALF_ULP = 0x1p-24;

  static double predictionBound(
      MixedSubject s, int d, double[] x, double[] w, Map<String, Tracker> tracks, int roundsDone) {
    String wb = s.weightBuffer();
    double sum = 0, err = 0;
    for (int i = 0; i < d; i++) {
      sum += Math.abs(x[i] * w[i]);
      if (wb != null && x[i] != 0) {
        Tracker tr = tracks.get(wb);
        err += Math.abs(x[i]) * MixedSubject.AdaGrad.wBound(roundsDone, tr.path[i], tr.peak[i]);
      }
    }
    return (Tolerance.chain(d) + d + 1) * MixedSubject.U_D * (sum + err) + err;
  }

  /**
   * Two mixed kernel optimizers (vector and scalar, or dense and sparse input) on the same rounds:
   * every state buffer bit-identical (a signed zero aside), predictions within twice the reduction
   * bound.
   */
  static void kernelVsKernel(
      MixedSubject s, Case a, KernelProvider ka, Case bCase, KernelProvider kb) {
    int d = a.d();
    Workload wl = new Workload(a, s.gMax());
    ReferenceLinearModel ref = s.reference(d);
    try (Arena arena = Arena.ofConfined();
        AbstractOptimizer oa = s.optimizer(d, ka);
        AbstractOptimizer ob = s.optimizer(d, kb)) {
      Buffers ba = new Buffers(arena, a), bb = new Buffers(arena, bCase);
      Map<String, Tracker> tracks = new LinkedHashMap<>();
      s.referenceState(ref).forEach((k, v) -> tracks.put(k, new Tracker(v)));
      int total = a.warmup() + a.rounds();
      for (int r = 0; r < total; r++) {
        double ya = Agreement.predictKernel(oa, ba, wl, r, a.sparse());
        double yb = Agreement.predictKernel(ob, bb, wl, r, bCase.sparse());
        Agreement.predictReference(ref, wl, r, false);
        double tolY = 2 * predictionBound(s, d, wl.dense[r], ref.weights(), tracks, r);
        if (!(Math.abs(ya - yb) <= tolY)) {
          fail(
              String.format(
                  "%s, %s vs %s: round %d: yhat %s vs %s differ by %.3g > bound %.3g",
                  s.describe(), a, bCase, r, ya, yb, Math.abs(ya - yb), tolY));
        }
        oa.update(wl.g[r]);
        ob.update(wl.g[r]);
        ref.update(wl.g[r]);
        Map<String, MemorySegment> sa = oa.state(), sb = ob.state();
        for (Map.Entry<String, double[]> e : s.referenceState(ref).entrySet()) {
          tracks.get(e.getKey()).observe(e.getValue());
          ElementType t = oa.stateType(e.getKey());
          double[] va = Buffers.read(sa.get(e.getKey()), t, d),
              vb = Buffers.read(sb.get(e.getKey()), t, d);
          for (int i = 0; i < d; i++) {
            if (!(va[i] == vb[i])) {
              fail(
                  String.format(
                      "%s, %s vs %s: round %d: state %s[%d] %s vs %s differ (must be bit-identical)",
                      s.describe(), a, bCase, r, e.getKey(), i, va[i], vb[i]));
            }
          }
        }
      }
    }
  }
}
