package org.onlinekernels.optimizer.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.AbstractOptimizer;
import org.onlinekernels.optimizer.state.Precision;
import org.onlinekernels.params.AdaGradParams;
import org.onlinekernels.params.Box;
import org.onlinekernels.params.ScInOLParams;
import org.onlinekernels.rules.adagrad.AdaGradOptimizer;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/**
 * Checkpoints of {@link Precision#MIXED} optimizers: bit-exact round trip, and refused across
 * precisions.
 */
class MixedCheckpointTest {
  static final int D = 13;
  static final AdaGradParams P = new AdaGradParams(0.3, false, 1e-3, 0, Box.of(-2, 2));

  static void train(AbstractOptimizer o, Arena arena) {
    MemorySegment x = arena.allocate(4L * D);
    for (int r = 0; r < 20; r++) {
      for (int i = 0; i < D; i++) {
        x.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) Math.sin(r * 7 + i));
      }
      double y = o.predict(x);
      o.update(Math.tanh(y) - (r % 2 == 0 ? 1 : -1));
    }
  }

  static byte[] bytes(AbstractOptimizer o, String name) {
    return o.state().get(name).toArray(ValueLayout.JAVA_BYTE);
  }

  @Test
  void mixedAdaGradRoundTripAndRefusals(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("m.ckpt");
    try (Arena arena = Arena.ofConfined();
        AdaGradOptimizer a = new AdaGradOptimizer(D, Precision.MIXED, P);
        AdaGradOptimizer b = new AdaGradOptimizer(D, Precision.MIXED, P);
        AdaGradOptimizer fl = new AdaGradOptimizer(D, ElementType.FLOAT, P);
        AdaGradOptimizer db = new AdaGradOptimizer(D, Precision.DOUBLE, P)) {
      train(a, arena);
      assertEquals(8L * D, a.state().get("Q").byteSize());
      assertEquals(4L * D, a.state().get("w").byteSize());
      Checkpoint.save(a, f);
      Checkpoint.load(f, b);
      assertArrayEquals(bytes(a, "Q"), bytes(b, "Q"));
      assertArrayEquals(bytes(a, "w"), bytes(b, "w"));
      byte[] before = bytes(fl, "Q");
      assertThrows(CheckpointException.class, () -> Checkpoint.load(f, fl));
      assertArrayEquals(before, bytes(fl, "Q"));
      assertThrows(CheckpointException.class, () -> Checkpoint.load(f, db));
      Path g = dir.resolve("f.ckpt");
      Checkpoint.save(fl, g);
      assertThrows(CheckpointException.class, () -> Checkpoint.load(g, b));
    }
  }

  @Test
  void mixedScInOL2RoundTripAndRefusal(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("s.ckpt");
    ScInOLParams p = new ScInOLParams(1);
    try (Arena arena = Arena.ofConfined();
        ScInOL2Optimizer a = new ScInOL2Optimizer(D, Precision.MIXED, p, null, null);
        ScInOL2Optimizer b = new ScInOL2Optimizer(D, Precision.MIXED, p, null, null);
        ScInOL2Optimizer fl = new ScInOL2Optimizer(D, ElementType.FLOAT, p)) {
      train(a, arena);
      Checkpoint.save(a, f);
      Checkpoint.load(f, b);
      for (String n : new String[] {"G", "S2", "M", "eta"}) {
        assertArrayEquals(bytes(a, n), bytes(b, n), n);
      }
      assertEquals(ElementType.DOUBLE, b.stateType("eta"));
      assertEquals(ElementType.FLOAT, b.stateType("M"));
      assertThrows(CheckpointException.class, () -> Checkpoint.load(f, fl));
    }
  }
}
