package org.onlinekernels.merge;

import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.AdaptiveOgdParams;
import org.onlinekernels.params.Box;
import org.onlinekernels.params.DfegParams;
import org.onlinekernels.params.FreeGradParams;
import org.onlinekernels.params.FtrlParams;
import org.onlinekernels.params.GlobalAdaGradParams;
import org.onlinekernels.params.KtParams;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.adagrad.AdaGradOptimizer;
import org.onlinekernels.rules.adagrad.ReferenceAdaGrad;
import org.onlinekernels.rules.aogd.AdaptiveOgdBallOptimizer;
import org.onlinekernels.rules.aogd.AdaptiveOgdCoordinateOptimizer;
import org.onlinekernels.rules.aogd.ReferenceAdaptiveOgdBall;
import org.onlinekernels.rules.aogd.ReferenceAdaptiveOgdCoordinate;
import org.onlinekernels.rules.dfeg.DfegOptimizer;
import org.onlinekernels.rules.dfeg.ReferenceDfeg;
import org.onlinekernels.rules.freegrad.FreeGradOptimizer;
import org.onlinekernels.rules.freegrad.ReferenceFreeGrad;
import org.onlinekernels.rules.ftrl.FtrlOptimizer;
import org.onlinekernels.rules.ftrl.ReferenceFtrl;
import org.onlinekernels.rules.globaladagrad.GlobalAdaGradOptimizer;
import org.onlinekernels.rules.globaladagrad.ReferenceGlobalAdaGrad;
import org.onlinekernels.rules.kt.KtOptimizer;
import org.onlinekernels.rules.kt.ReferenceKt;
import org.onlinekernels.rules.scinol1.ReferenceScInOL1;
import org.onlinekernels.rules.scinol1.ScInOL1Optimizer;
import org.onlinekernels.rules.scinol2.ReferenceScInOL2;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/**
 * Each algorithm with a merge rule, for the merge suites: an optimizer (with small boxes and radii
 * so that clamps and the ball projection take part), the reference learner loaded with an
 * optimizer's state, the reference merge, and the reference state under the optimizer's names.
 */
enum MergeAlgorithm {
  ADAGRAD("adagrad"),
  GLOBAL_ADAGRAD("adagrad-global"),
  AOGD_BALL("aogd-ball"),
  AOGD_COORDINATE("aogd-coord"),
  SCINOL1("scinol1"),
  SCINOL2("scinol2"),
  SCINOL2_MIXED("scinol2"),
  DFEG("dfeg"),
  FTRL("ftrl"),
  KT("kt"),
  FREEGRAD("freegrad");

  /** The rule's name in {@code Rules.ALL}. */
  final String rule;

  MergeAlgorithm(String rule) {
    this.rule = rule;
  }

  AbstractOptimizer create(int d, ElementType type) {
    return switch (this) {
      case ADAGRAD ->
          new AdaGradOptimizer(
              d, type, AdaGradParams.eta(0.7).withBox(Box.symmetric(0.5)).withQ0(0.25));
      case GLOBAL_ADAGRAD ->
          new GlobalAdaGradOptimizer(d, type, GlobalAdaGradParams.of(Box.symmetric(1)));
      case AOGD_BALL -> new AdaptiveOgdBallOptimizer(d, type, AdaptiveOgdParams.radius(0.8));
      case AOGD_COORDINATE ->
          new AdaptiveOgdCoordinateOptimizer(d, type, AdaptiveOgdParams.radius(0.3));
      case SCINOL1 -> new ScInOL1Optimizer(d, type, ScInOLParams.defaults());
      case SCINOL2 -> new ScInOL2Optimizer(d, type, ScInOLParams.defaults());
      case SCINOL2_MIXED ->
          new ScInOL2Optimizer(d, Precision.MIXED, ScInOLParams.defaults(), null, null);
      case DFEG -> new DfegOptimizer(d, type, DfegParams.defaults());
      case FTRL -> new FtrlOptimizer(d, type, new FtrlParams(0.5, 1, 0.01, 0.1));
      case KT -> new KtOptimizer(d, type, KtParams.defaults());
      case FREEGRAD -> new FreeGradOptimizer(d, type, FreeGradParams.defaults());
    };
  }

  /** The reference learner of this algorithm holding {@code o}'s state (its values, widened). */
  Object reference(AbstractOptimizer o) {
    int d = o.dimension();
    Map<String, double[]> s = state(o);
    Map<String, Double> sc = o.scalarState();
    switch (this) {
      case ADAGRAD -> {
        ReferenceAdaGrad r = new ReferenceAdaGrad(d, ((AdaGradOptimizer) o).params());
        copy(s.get("w"), r.w());
        copy(s.get("Q"), r.q());
        return r;
      }
      case GLOBAL_ADAGRAD -> {
        ReferenceGlobalAdaGrad r =
            new ReferenceGlobalAdaGrad(d, ((GlobalAdaGradOptimizer) o).params());
        copy(s.get("w"), r.w());
        r.setSumSquares(sc.get("sumSquares"));
        return r;
      }
      case AOGD_BALL -> {
        ReferenceAdaptiveOgdBall r =
            new ReferenceAdaptiveOgdBall(d, ((AdaptiveOgdBallOptimizer) o).params());
        copy(s.get("w"), r.w());
        r.setHSum(sc.get("Hsum"));
        r.setLSum(sc.get("Lsum"));
        return r;
      }
      case AOGD_COORDINATE -> {
        ReferenceAdaptiveOgdCoordinate r =
            new ReferenceAdaptiveOgdCoordinate(d, ((AdaptiveOgdCoordinateOptimizer) o).params());
        copy(s.get("w"), r.w());
        copy(s.get("Lsum"), r.lSum());
        r.setHSum(sc.get("Hsum"));
        return r;
      }
      case SCINOL1 -> {
        ReferenceScInOL1 r = new ReferenceScInOL1(d, ScInOLParams.defaults());
        copy(s.get("G"), r.bigG());
        copy(s.get("S2"), r.s2());
        copy(s.get("M"), r.m());
        copy(s.get("beta"), r.beta());
        r.setT(sc.get("t"));
        return r;
      }
      case SCINOL2, SCINOL2_MIXED -> {
        ReferenceScInOL2 r = new ReferenceScInOL2(d, ScInOLParams.defaults());
        copy(s.get("G"), r.bigG());
        copy(s.get("S2"), r.s2());
        copy(s.get("M"), r.m());
        copy(s.get("eta"), r.eta());
        return r;
      }
      case DFEG -> {
        ReferenceDfeg r = new ReferenceDfeg(d, DfegParams.defaults());
        copy(s.get("theta"), r.theta());
        r.setH(sc.get("H"));
        r.setThetaNormSquared(sc.get("thetaNormSquared"));
        return r;
      }
      case FTRL -> {
        ReferenceFtrl r = new ReferenceFtrl(d, ((FtrlOptimizer) o).params());
        copy(s.get("z"), r.z());
        copy(s.get("N"), r.n());
        return r;
      }
      case KT -> {
        ReferenceKt r = new ReferenceKt(d, ((KtOptimizer) o).params());
        copy(s.get("theta"), r.theta());
        copy(s.get("W"), r.wealth());
        copy(s.get("k"), r.k());
        return r;
      }
      case FREEGRAD -> {
        ReferenceFreeGrad r = new ReferenceFreeGrad(d, ((FreeGradOptimizer) o).params());
        copy(s.get("G"), r.bigG());
        copy(s.get("Vsum"), r.v());
        copy(s.get("h1"), r.h1());
        copy(s.get("ht"), r.ht());
        return r;
      }
      default -> throw new AssertionError(this);
    }
  }

  /** The reference merge of {@code learners} into {@code start}. */
  @SuppressWarnings("unchecked")
  void referenceMerge(Object start, List<Object> learners) {
    List<?> l = learners;
    switch (this) {
      case ADAGRAD -> ((ReferenceAdaGrad) start).merge((List<ReferenceAdaGrad>) l);
      case GLOBAL_ADAGRAD ->
          ((ReferenceGlobalAdaGrad) start).merge((List<ReferenceGlobalAdaGrad>) l);
      case AOGD_BALL ->
          ((ReferenceAdaptiveOgdBall) start).merge((List<ReferenceAdaptiveOgdBall>) l);
      case AOGD_COORDINATE ->
          ((ReferenceAdaptiveOgdCoordinate) start).merge((List<ReferenceAdaptiveOgdCoordinate>) l);
      case SCINOL1 -> ((ReferenceScInOL1) start).merge((List<ReferenceScInOL1>) l);
      case SCINOL2, SCINOL2_MIXED -> ((ReferenceScInOL2) start).merge((List<ReferenceScInOL2>) l);
      case DFEG -> ((ReferenceDfeg) start).merge((List<ReferenceDfeg>) l);
      case FTRL -> ((ReferenceFtrl) start).merge((List<ReferenceFtrl>) l);
      case KT -> ((ReferenceKt) start).merge((List<ReferenceKt>) l);
      case FREEGRAD -> ((ReferenceFreeGrad) start).merge((List<ReferenceFreeGrad>) l);
    }
  }

  /** The reference learner's merged state under the optimizer's buffer and scalar names. */
  Map<String, double[]> referenceState(Object ref) {
    Map<String, double[]> m = new LinkedHashMap<>();
    switch (this) {
      case ADAGRAD -> {
        m.put("w", ((ReferenceAdaGrad) ref).w());
        m.put("Q", ((ReferenceAdaGrad) ref).q());
      }
      case GLOBAL_ADAGRAD -> {
        m.put("w", ((ReferenceGlobalAdaGrad) ref).w());
        m.put("sumSquares", new double[] {((ReferenceGlobalAdaGrad) ref).sumSquares()});
      }
      case AOGD_BALL -> {
        ReferenceAdaptiveOgdBall r = (ReferenceAdaptiveOgdBall) ref;
        m.put("w", r.w());
        m.put("Hsum", new double[] {r.hSum()});
        m.put("Lsum", new double[] {r.lSum()});
      }
      case AOGD_COORDINATE -> {
        ReferenceAdaptiveOgdCoordinate r = (ReferenceAdaptiveOgdCoordinate) ref;
        m.put("w", r.w());
        m.put("Lsum", r.lSum());
        m.put("Hsum", new double[] {r.hSum()});
      }
      case SCINOL1 -> {
        ReferenceScInOL1 r = (ReferenceScInOL1) ref;
        m.put("G", r.bigG());
        m.put("S2", r.s2());
        m.put("M", r.m());
        m.put("beta", r.beta());
        m.put("t", new double[] {r.t()});
      }
      case SCINOL2, SCINOL2_MIXED -> {
        ReferenceScInOL2 r = (ReferenceScInOL2) ref;
        m.put("G", r.bigG());
        m.put("S2", r.s2());
        m.put("M", r.m());
        m.put("eta", r.eta());
      }
      case DFEG -> {
        m.put("theta", ((ReferenceDfeg) ref).theta());
        m.put("H", new double[] {((ReferenceDfeg) ref).h()});
      }
      case FTRL -> {
        m.put("z", ((ReferenceFtrl) ref).z());
        m.put("N", ((ReferenceFtrl) ref).n());
      }
      case KT -> {
        ReferenceKt r = (ReferenceKt) ref;
        m.put("theta", r.theta());
        m.put("W", r.wealth());
        m.put("k", r.k());
      }
      case FREEGRAD -> {
        ReferenceFreeGrad r = (ReferenceFreeGrad) ref;
        m.put("G", r.bigG());
        m.put("Vsum", r.v());
        m.put("h1", r.h1());
        m.put("ht", r.ht());
      }
    }
    return m;
  }

  /** Every state buffer of {@code o} as doubles (widened exactly), by name. */
  static Map<String, double[]> state(AbstractOptimizer o) {
    Map<String, double[]> m = new LinkedHashMap<>();
    int d = o.dimension();
    o.state()
        .forEach(
            (name, seg) -> {
              double[] v = new double[d];
              boolean f = o.stateType(name) == ElementType.FLOAT;
              for (int i = 0; i < d; i++) {
                v[i] =
                    f
                        ? seg.getAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i)
                        : seg.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
              }
              m.put(name, v);
            });
    return m;
  }

  /** Every buffer and scalar of {@code o} as raw bits, for bit-for-bit comparison. */
  static Map<String, List<Long>> bits(AbstractOptimizer o) {
    Map<String, List<Long>> m = new LinkedHashMap<>();
    state(o)
        .forEach(
            (k, v) ->
                m.put(
                    k, java.util.Arrays.stream(v).mapToObj(Double::doubleToRawLongBits).toList()));
    new java.util.TreeMap<>(o.scalarState())
        .forEach((k, v) -> m.put("scalar " + k, List.of(Double.doubleToRawLongBits(v))));
    return m;
  }

  private static void copy(double[] from, double[] to) {
    System.arraycopy(from, 0, to, 0, from.length);
  }
}
