package org.onlinekernels.trainer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.kernel.KernelProvider;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.LinearModelOptimizer;
import org.onlinekernels.optimizer.state.AdoptingArena;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.trainer.handover.KernelHandover;

/**
 * A kernel handover of a state on the Java heap (the trainer's interleaved layout) takes the old
 * optimizer's buffers over in place: no second state is allocated (a long stream's peak memory was
 * the state twice, issue #35), and training goes on with the same bits as an optimizer that never
 * moved, for every rule.
 */
class HandoverInPlaceTest {
  private static final int ROWS = 300;

  static Stream<String> rules() {
    return AlgorithmSpec.NAMES.stream().filter(n -> !n.equals("ogd"));
  }

  @ParameterizedTest
  @MethodSource("rules")
  void aMovedOptimizerTrainsOnWithTheBitsOfOneThatStayed(String rule) {
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of(rule));
    int d = 64;
    LinearModelOptimizer[] moved = {make(c, d)};
    LinearModelOptimizer stayed = make(c, d);
    try (Arena arena = Arena.ofConfined()) {
      train(moved[0], arena, 1);
      train(stayed, arena, 1);
      assertTrue(
          KernelHandover.after(0, KernelProvider.vector())
              .moveAll(moved, c, d, StateLayout.INTERLEAVED, null),
          rule);
      train(moved[0], arena, 2);
      train(stayed, arena, 2);
      assertArrayEquals(weights(stayed, arena), weights(moved[0], arena), rule);
    } finally {
      moved[0].close();
      stayed.close();
    }
  }

  /** ScInOL2 at 2^20 coordinates: a 16 MiB state; the move allocates a small fraction of it. */
  @Test
  void aHeapStateIsTakenOverNotCopied() {
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of("scinol2"));
    int d = 1 << 20;
    LinearModelOptimizer[] opt = {make(c, d)};
    try (Arena arena = Arena.ofConfined()) {
      train(opt[0], arena, 3);
      com.sun.management.ThreadMXBean threads =
          (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long id = Thread.currentThread().threadId();
      long before = threads.getThreadAllocatedBytes(id);
      assertTrue(
          KernelHandover.after(0, KernelProvider.vector())
              .moveAll(opt, c, d, StateLayout.INTERLEAVED, null));
      long bytes = threads.getThreadAllocatedBytes(id) - before;
      assertTrue(bytes < (1L << 20), "the move allocated " + bytes + " bytes: a second state");
      train(opt[0], arena, 4);
    } finally {
      opt[0].close();
    }
  }

  /** A donor hands its buffers only to an optimizer made as it was, and only while it is open. */
  @Test
  void aDonorRefusesAnOptimizerMadeOtherwiseAndAClosedOneGivesNone() {
    TrainerConfig c = TrainerConfig.of(AlgorithmSpec.of("scinol2"));
    LinearModelOptimizer old = make(c, 64);
    try {
      AdoptingArena donor = ((AbstractOptimizer) old).stateDonor(null);
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () ->
                  c.algorithm()
                      .create(
                          128,
                          c.precision(),
                          StateLayout.INTERLEAVED,
                          donor,
                          KernelProvider.vector()));
      assertTrue(
          e.getMessage().contains("the donor has") && e.getMessage().contains("made as the donor"),
          e.getMessage());
      donor.close();
    } finally {
      old.close();
    }
    IllegalStateException closed =
        assertThrows(IllegalStateException.class, () -> ((AbstractOptimizer) old).stateDonor(null));
    assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
  }

  private static LinearModelOptimizer make(TrainerConfig c, int d) {
    LinearModelOptimizer o =
        c.algorithm()
            .create(d, c.precision(), StateLayout.INTERLEAVED, null, KernelProvider.scalar());
    ((AbstractOptimizer) o).setInputPolicy(c.inputPolicy());
    return o;
  }

  /** {@link #ROWS} logistic rounds of 5 random coordinates each, the same for the same seed. */
  private static void train(LinearModelOptimizer o, Arena arena, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    ElementType t = o.elementType();
    int nnz = 5;
    MemorySegment idx = arena.allocate(4L * nnz);
    MemorySegment val = arena.allocate((long) t.bytes() * nnz);
    for (int row = 0; row < ROWS; row++) {
      for (int k = 0; k < nnz; k++) {
        idx.setAtIndex(
            ValueLayout.JAVA_INT, k, k * (o.dimension() / nnz) + r.nextInt(o.dimension() / nnz));
        if (t == ElementType.FLOAT) {
          val.setAtIndex(ValueLayout.JAVA_FLOAT, k, (float) (r.nextDouble() * 2 - 1));
        } else {
          val.setAtIndex(ValueLayout.JAVA_DOUBLE, k, r.nextDouble() * 2 - 1);
        }
      }
      double y = r.nextBoolean() ? 1 : -1;
      double p = o.predictSparse(idx, val, nnz);
      o.update(-y / (1 + Math.exp(y * p)));
    }
  }

  private static double[] weights(LinearModelOptimizer o, Arena arena) {
    ElementType t = o.elementType();
    MemorySegment w = arena.allocate((long) t.bytes() * o.dimension());
    o.readWeights(w);
    double[] out = new double[o.dimension()];
    for (int i = 0; i < out.length; i++) {
      out[i] =
          t == ElementType.FLOAT
              ? w.getAtIndex(ValueLayout.JAVA_FLOAT, i)
              : w.getAtIndex(ValueLayout.JAVA_DOUBLE, i);
    }
    return out;
  }
}
