package org.onlinekernels.optimizer.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.internal.StateAccess;
import org.onlinekernels.optimizer.state.MergePlan;
import org.onlinekernels.optimizer.state.StateStore;
import org.onlinekernels.rules.Rules;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.TrainerConfig;

/**
 * A worker's fold of its hot records ({@link HotRecords#fold}): per record and plan variable, the
 * shared value where the copy is unchanged, the copy where the shared value is, else both sides'
 * increments added ({@code a + (p - x0)}; MAX: the larger; MEAN: the mean weighted by the weighting
 * buffer's increments, clamped; a compounding wealth: both sides' factors, {@code a (p / x0)}),
 * written into the shared record and the copy; a record where such a value breaks an invariant
 * keeps the shared values; {@link HotRecords#park} puts the copies back to a fresh state's values.
 * Every lock-free rule, float and double.
 */
class HotRecordsTest {
  private static final int D = 6;
  private static final int T = 2;

  static List<String> rules() {
    return Rules.names().stream()
        .filter(
            n -> {
              try (AbstractOptimizer o = make(n, ElementType.FLOAT, 1)) {
                return SharedState.lockFree(o);
              }
            })
        .toList();
  }

  @ParameterizedTest
  @MethodSource("rules")
  void aFoldAddsBothSidesIncrements(String rule) {
    for (ElementType type : ElementType.values()) {
      try (AbstractOptimizer x0 = make(rule, type, D);
          AbstractOptimizer shared = make(rule, type, D);
          AbstractOptimizer copy = make(rule, type, D);
          AbstractOptimizer owner = make(rule, type, D + T * D)) {
        train(rule, x0, 300, 1);
        for (AbstractOptimizer o : List.of(shared, copy, owner)) {
          copyState(x0, o, 0);
        }
        train(rule, shared, 200, 2);
        train(rule, copy, 200, 3);
        HotRecords h = new HotRecords(owner, D, T, D);
        h.use(new int[] {0, 1, 2, 3, 4, 5}, D);
        // The others' folds reached the shared records; worker 1's rows trained its copies.
        copyState(shared, owner, 0);
        copyState(copy, owner, HotRecords.slot(D, D, 1, 0));
        h.fold(1);
        StateAccess o = owner.stateAccess();
        MergePlan plan = o.mergePlan();
        int changed = 0;
        for (int i = 0; i < D; i++) {
          double[] want = new double[plan.buffers().size()];
          boolean keep = false;
          for (int b = 0; b < want.length; b++) {
            MergePlan.Buffer buf = plan.buffers().get(b);
            double s = x0.stateAccess().store().field(buf.name()).get(i);
            double a = shared.stateAccess().store().field(buf.name()).get(i);
            double p = copy.stateAccess().store().field(buf.name()).get(i);
            if (p == s || a == s) {
              want[b] = p == s ? a : p;
              continue;
            }
            changed++;
            double v;
            if (buf.rule() == MergePlan.Rule.MAX) {
              v = Math.max(a, p);
            } else if (buf.rule() == MergePlan.Rule.MEAN) {
              // The weights by the increments of the weighting buffer (AdaGrad's Q).
              // Without one (weights by scalars: global AdaGrad), the plain mean.
              String wb = plan.meanWeightBuffer();
              double q0 = wb == null ? 0 : x0.stateAccess().store().field(wb).get(i);
              double ca =
                  wb == null ? 0 : Math.max(0, shared.stateAccess().store().field(wb).get(i) - q0);
              double cp =
                  wb == null ? 0 : Math.max(0, copy.stateAccess().store().field(wb).get(i) - q0);
              v = plan.clamp().apply(i, ca + cp > 0 ? (ca * a + cp * p) / (ca + cp) : (a + p) / 2);
            } else if (plan.compounding().contains(buf.name())) {
              v = a * (p / s);
            } else {
              v = a + (p - s);
            }
            want[b] = type == ElementType.FLOAT ? (float) v : v;
            keep |=
                buf.rule() != MergePlan.Rule.MAX
                    && (!Double.isFinite(want[b])
                        || o.brokenInvariant(buf.name(), want[b]) != null);
          }
          for (int b = 0; b < want.length; b++) {
            String name = plan.buffers().get(b).name();
            double w = keep ? shared.stateAccess().store().field(name).get(i) : want[b];
            String what = rule + " " + type + " " + name + "[" + i + "]";
            assertEquals(w, o.store().field(name).get(i), 0, what);
            assertEquals(
                w, o.store().field(name).get(HotRecords.slot(D, D, 1, i)), 0, what + " copy");
          }
        }
        assertTrue(changed > 0, rule + ": both sides changed no variable");
      }
    }
  }

  @Test
  void aRecordWhoseSumBreaksAnInvariantKeepsTheSharedValues() {
    // ScInOL1's beta must stay positive: both sides shrank it from 1 to 0.3, and 0.3 + (0.3 - 1)
    // is not; the record keeps the shared values, G's increment too.
    try (AbstractOptimizer owner = make("scinol1", ElementType.FLOAT, D + T * D)) {
      StateStore store = owner.stateAccess().store();
      store.field("beta").set(2, 1.0);
      store.field("G").set(2, 0.5);
      HotRecords h = new HotRecords(owner, D, T, D);
      h.use(new int[] {2}, 1);
      store.field("beta").set(2, 0.25);
      store.field("G").set(2, 0.75);
      int mine = HotRecords.slot(D, D, 0, 0);
      store.field("beta").set(mine, 0.25);
      store.field("G").set(mine, 1.5);
      h.fold(0);
      assertEquals(0.25, store.field("beta").get(2));
      assertEquals(0.75, store.field("G").get(2));
      assertEquals(0.75, store.field("G").get(mine));
      // The copy now starts from the shared values; changed alone, it is taken as it is.
      store.field("beta").set(mine, 0.5);
      store.field("G").set(mine, 1.75);
      h.fold(0);
      assertEquals(0.5, store.field("beta").get(2));
      assertEquals(1.75, store.field("G").get(2));
    }
  }

  @Test
  void aWealthBothSidesShrankKeepsItsSignAndComposesTheFactors() {
    // ScInOL2's wealth: each round multiplies it by a factor of G, S2 and M. Both sides took it
    // from 1 to 0.25: one thread taking both sides' rounds would hold 0.0625; the increments
    // added, -0.5, are within the wealth's cap (no invariant broken) and flip every later bet.
    try (AbstractOptimizer owner = make("scinol2", ElementType.FLOAT, D + T * D)) {
      StateStore store = owner.stateAccess().store();
      StateStore.Field eta = store.field("eta");
      eta.set(2, 1.0);
      eta.set(4, 1.0);
      HotRecords h = new HotRecords(owner, D, T, D);
      h.use(new int[] {2, 4}, 2);
      eta.set(2, 0.25);
      eta.set(4, 4.0);
      eta.set(HotRecords.slot(D, D, 0, 0), 0.25);
      eta.set(HotRecords.slot(D, D, 0, 1), 0.5);
      h.fold(0);
      assertEquals(0.0625, eta.get(2));
      assertEquals(0.0625, eta.get(HotRecords.slot(D, D, 0, 0)));
      // One side quadrupled it, the other halved it: 2, where the increments added give 3.5.
      assertEquals(2.0, eta.get(4));
    }
  }

  @ParameterizedTest
  @MethodSource("rules")
  void oneSideUnchangedGivesTheOtherAsIsAndParkingFreshensTheCopies(String rule) {
    try (AbstractOptimizer x0 = make(rule, ElementType.FLOAT, D);
        AbstractOptimizer copy = make(rule, ElementType.FLOAT, D);
        AbstractOptimizer fresh = make(rule, ElementType.FLOAT, D + T * D);
        AbstractOptimizer owner = make(rule, ElementType.FLOAT, D + T * D)) {
      train(rule, x0, 300, 4);
      copyState(x0, copy, 0);
      copyState(x0, owner, 0);
      train(rule, copy, 200, 5);
      HotRecords h = new HotRecords(owner, D, T, D);
      h.use(new int[] {0, 1, 2, 3, 4, 5}, D);
      copyState(copy, owner, HotRecords.slot(D, D, 0, 0));
      h.fold(0);
      StateAccess o = owner.stateAccess();
      for (MergePlan.Buffer b : o.mergePlan().buffers()) {
        StateStore.Field got = o.store().field(b.name());
        StateStore.Field want = copy.stateAccess().store().field(b.name());
        for (int i = 0; i < D; i++) {
          assertEquals(want.get(i), got.get(i), 0, rule + " " + b.name() + "[" + i + "]");
        }
      }
      h.park();
      for (String name : o.store().names()) {
        for (int s = D; s < D + T * D; s++) {
          assertEquals(
              fresh.stateAccess().store().field(name).get(s),
              o.store().field(name).get(s),
              0,
              rule + " " + name + " slot " + s + " parked");
        }
      }
      assertTrue(o.store().names().size() > 0);
    }
  }

  private static AbstractOptimizer make(String rule, ElementType type, int d) {
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of(rule)).withType(type);
    return (AbstractOptimizer) c.algorithm().create(d, c.precision(), c.stateLayout(), null, null);
  }

  /**
   * Every variable of {@code from}'s coordinates {@code [0, D)} into {@code to}'s from {@code at}.
   */
  private static void copyState(AbstractOptimizer from, AbstractOptimizer to, int at) {
    StateAccess f = from.stateAccess();
    StateAccess t = to.stateAccess();
    for (String name : f.store().names()) {
      for (int i = 0; i < D; i++) {
        t.store().field(name).set(at + i, f.store().field(name).get(i));
      }
    }
    if (at == 0) {
      f.scalarState().forEach(t::setScalar);
    }
    t.stateReplaced();
  }

  /** {@code n} rounds on random rows over coordinates {@code [0, D)}. */
  private static void train(String rule, AbstractOptimizer o, int n, long seed) {
    Random r = new Random(seed);
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of(rule));
    int[] idx = new int[D];
    for (int q = 0; q < n; q++) {
      int nnz = 0;
      double s = 0;
      double[] v = new double[D];
      for (int i = 0; i < D; i++) {
        if (r.nextInt(3) > 0) {
          idx[nnz] = i;
          v[nnz] = r.nextGaussian();
          s += i < 2 ? v[nnz] : 0;
          nnz++;
        }
      }
      MemorySegment values =
          o.elementType() == ElementType.FLOAT
              ? MemorySegment.ofArray(toFloats(v))
              : MemorySegment.ofArray(v);
      o.round(MemorySegment.ofArray(idx), values, nnz, s > 0 ? 1 : -1, c.loss());
    }
  }

  private static float[] toFloats(double[] v) {
    float[] f = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      f[i] = (float) v[i];
    }
    return f;
  }
}
