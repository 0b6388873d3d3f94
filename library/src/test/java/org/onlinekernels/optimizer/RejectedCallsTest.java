package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.onlinekernels.optimizer.StateSnapshot.assertRejected;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.rules.aogd.AdaptiveOgdOptimizer;

/**
 * Issue 6, validation: every public entry of every optimizer refuses bad arguments with the
 * documented exception and leaves every buffer and scalar bit-identical (snapshot, bad call,
 * compare), in float and double, on a state that already trained a few rounds.
 */
class RejectedCallsTest {
  static final int D = 5;

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (AllOptimizers.Named n : AllOptimizers.all()) {
      for (ElementType t : ElementType.values()) {
        out.add(Arguments.of(n, t));
      }
    }
    return out.stream();
  }

  static MemorySegment vec(Arena a, ElementType t, double... v) {
    MemorySegment s = a.allocate((long) v.length * t.bytes() + 1);
    for (int i = 0; i < v.length; i++) {
      if (t == ElementType.FLOAT) s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) v[i]);
      else s.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, v[i]);
    }
    return s.asSlice(0, (long) v.length * t.bytes());
  }

  static MemorySegment idx(Arena a, int... v) {
    MemorySegment s = a.allocate(Math.max(4, (long) v.length * 4));
    for (int i = 0; i < v.length; i++) s.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, v[i]);
    return s;
  }

  static void train(AbstractOptimizer o, Arena a, int rounds) {
    for (int r = 0; r < rounds; r++) {
      o.predict(vec(a, o.elementType(), 1, -0.5, 0.25 * r, 0, 2));
      o.update(r % 2 == 0 ? -0.7 : 0.4);
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  // Closes the optimizer inside its try-with-resources to test the closed state: javac's "try"
  // lint.
  @SuppressWarnings("try")
  void everyBadCallIsRefusedWithStateUnchanged(AllOptimizers.Named n, ElementType t)
      throws Exception {
    try (Arena a = Arena.ofConfined();
        AbstractOptimizer o = n.create(D, t)) {
      train(o, a, 4);
      MemorySegment good = vec(a, t, 1, 2, 3, 4, 5);
      double nan = Double.NaN, inf = Double.POSITIVE_INFINITY;
      double big = InputPolicy.magnitudeLimit(t) * 4;
      IAE(o, () -> o.predict(null), "predict(null)");
      IAE(o, () -> o.predict(vec(a, t, 1, 2, 3, 4)), "predict(short x)");
      IAE(o, () -> o.predict(vec(a, t, 1, nan, 3, 4, 5)), "predict(NaN)");
      IAE(o, () -> o.predict(vec(a, t, 1, 2, 3, 4, -inf)), "predict(-Inf)");
      IAE(o, () -> o.predict(vec(a, t, 1, 2, big, 4, 5)), "predict(huge)");
      MemorySegment v3 = vec(a, t, 1, 2, 3);
      IAE(o, () -> o.predictSparse(idx(a, 0, 2, 2), v3, 3), "duplicate index");
      IAE(o, () -> o.predictSparse(idx(a, 3, 1, 4), v3, 3), "unsorted index");
      IAE(o, () -> o.predictSparse(idx(a, 0, 1, D), v3, 3), "index = d");
      IAE(o, () -> o.predictSparse(idx(a, -1, 1, 2), v3, 3), "negative index");
      IAE(o, () -> o.predictSparse(idx(a, 0, 1, 2), v3, -1), "nnz < 0");
      IAE(o, () -> o.predictSparse(idx(a, 0, 1, 2), v3, 4), "nnz beyond segments");
      IAE(o, () -> o.predictSparse(idx(a, 0, 1, 2), vec(a, t, 1, inf, 3), 3), "sparse Inf");
      IAE(o, () -> o.predictSparse(null, v3, 3), "null indices");
      // A segment of a closed arena, and one confined to another thread.
      MemorySegment closed;
      try (Arena b = Arena.ofConfined()) {
        closed = b.allocate((long) D * t.bytes());
      }
      assertRejected(o, IllegalStateException.class, () -> o.predict(closed), "closed x");
      AtomicReference<MemorySegment> foreign = new AtomicReference<>();
      Thread th =
          Thread.ofPlatform()
              .start(() -> foreign.set(Arena.ofConfined().allocate((long) D * t.bytes())));
      th.join();
      assertRejected(
          o, WrongThreadException.class, () -> o.predict(foreign.get()), "x of another thread");

      // update: without predict, bad g, too large g * x.
      assertRejected(o, IllegalStateException.class, () -> o.update(0.5), "update without predict");
      o.predict(good);
      StateSnapshot afterPredict = StateSnapshot.of(o);
      IAE(o, () -> o.update(nan), "update(NaN)");
      IAE(o, () -> o.update(inf), "update(Inf)");
      IAE(o, () -> o.update(big), "update(huge g)");
      IAE(o, () -> o.update(InputPolicy.magnitudeLimit(t) / 2), "update(g with |g x| > limit)");
      afterPredict.assertSame(o, "pending predict survives rejected updates");
      o.update(0.1); // the pending round is still there

      // Read-out.
      IAE(o, () -> o.readWeights(null), "readWeights(null)");
      IAE(o, () -> o.readWeights(vec(a, t, 1, 2)), "readWeights(short)");
      IAE(o, () -> o.readWeights(good.asReadOnly()), "readWeights(read-only)");

      // State writers.
      String first = o.state().keySet().iterator().next();
      IAE(o, () -> o.writeState("nope", new double[D]), "writeState(unknown)");
      IAE(o, () -> o.writeState(first, new double[D - 1]), "writeState(short)");
      IAE(o, () -> o.writeState(first, new double[] {0, 0, nan, 0, 0}), "writeState(NaN)");
      if (t == ElementType.FLOAT) {
        IAE(
            o,
            () -> o.writeState(first, new double[] {0, 0, 1e300, 0, 0}),
            "writeState(> float range)");
      }
      IAE(o, () -> o.writeScalarState("nope", 1), "writeScalarState(unknown)");
      for (String k : o.scalarState().keySet()) {
        IAE(o, () -> o.writeScalarState(k, nan), "writeScalarState(NaN)");
      }
      IAE(o, () -> o.setInputPolicy(null), "setInputPolicy(null)");

      // Gradient form.
      if (o instanceof GradientOptimizer g) {
        IAE(o, () -> g.step(vec(a, t, 1, 2)), "step(short)");
        IAE(o, () -> g.step(vec(a, t, 1, 2, nan, 4, 5)), "step(NaN)");
        IAE(o, () -> g.step(vec(a, t, 1, 2, big, 4, 5)), "step(huge)");
        IAE(o, () -> g.stepSparse(idx(a, 2, 1, 0), v3, 3), "stepSparse(unsorted)");
        IAE(o, () -> g.stepSparse(idx(a, 0, 1, 2), vec(a, t, nan, 1, 1), 3), "stepSparse(NaN)");
      }
      if (o instanceof AdaptiveOgdOptimizer ogd) {
        IAE(o, () -> ogd.step(good, -1), "step(h < 0)");
        IAE(o, () -> ogd.step(good, nan), "step(h NaN)");
        IAE(o, () -> ogd.stepSparse(idx(a, 0, 1, 2), v3, 3, inf), "stepSparse(h Inf)");
        o.predict(good);
        IAE(o, () -> ogd.update(0.5, -2), "update(g, h < 0)");
        o.update(0.5);
      }

      // Another thread: fails fast, before any state change.
      AtomicReference<Throwable> seen = new AtomicReference<>();
      StateSnapshot before = StateSnapshot.of(o);
      Thread other =
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      o.reset();
                    } catch (Throwable e) {
                      seen.set(e);
                    }
                  });
      other.join();
      assertTrue(
          seen.get() instanceof WrongThreadException, "reset from another thread: " + seen.get());
      before.assertSame(o, "reset from another thread");

      // Closed optimizer.
      o.close();
      org.junit.jupiter.api.Assertions.assertThrows(
          IllegalStateException.class, () -> o.predict(good), "predict after close");
    }
  }

  private static void IAE(
      AbstractOptimizer o, org.junit.jupiter.api.function.Executable bad, String what) {
    IllegalArgumentException e = assertRejected(o, IllegalArgumentException.class, bad, what);
    assertFalse(e.getMessage() == null || e.getMessage().isBlank(), what + ": message");
  }

  /** TRUSTED skips the scan: the documented consequence is that a NaN enters the state. */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void trustedLetsNonFiniteInputThrough(AllOptimizers.Named n, ElementType t) {
    try (Arena a = Arena.ofConfined();
        AbstractOptimizer o = n.create(D, t)) {
      assertEquals(InputPolicy.CHECKED, o.inputPolicy());
      o.setInputPolicy(InputPolicy.TRUSTED);
      train(o, a, 2);
      boolean poisoned;
      try {
        o.predict(vec(a, t, Double.NaN, 1, 1, 1, 1));
        o.update(0.5);
        o.predict(vec(a, t, 1, 1, 1, 1, 1));
        o.update(0.5);
        poisoned = !StateSnapshot.allFinite(o);
      } catch (ArithmeticException e) {
        poisoned = false; // global AdaGrad's sum and DFEG's scale have their own overflow guard
      }
      // The rules without an overflow guard of their own (global AdaGrad's, Adaptive OGD's and
      // DFEG's refuse first).
      if (!n.name().startsWith("adagrad-global")
          && !n.name().startsWith("aogd")
          && !n.name().startsWith("dfeg")) {
        assertTrue(poisoned, "TRUSTED: NaN reached the state, as documented");
      }
      o.reset();
      o.setInputPolicy(InputPolicy.CHECKED);
      train(o, a, 2);
      assertTrue(StateSnapshot.allFinite(o));
    }
  }
}
