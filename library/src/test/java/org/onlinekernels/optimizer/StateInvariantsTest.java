package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.checkpoint.Checkpoint;
import org.onlinekernels.optimizer.checkpoint.CheckpointException;
import org.onlinekernels.optimizer.state.StateLayout;
import org.onlinekernels.rules.scinol2.ScInOL2Optimizer;

/**
 * Issue 12, item 6: writeState, writeScalarState and Checkpoint.load refuse values that break an
 * algorithm's invariants (negative sums of squares, infinite accumulators, an infinite DFEG H, a
 * NaN with a valid checksum, a round counter of 0), naming the buffer or scalar and the invariant,
 * with the optimizer unchanged.
 */
class StateInvariantsTest {
  @TempDir Path dir;

  /** optimizer, buffer or scalar, bad value, words the message must contain. */
  record Bad(String optimizer, String name, double value, String invariant) {
    /**
     * Whether the value is a bad one for element type {@code t} (2^91 is beyond float's wealth caps
     * only).
     */
    boolean appliesTo(ElementType t) {
      return t == ElementType.FLOAT
          ? !(Double.isFinite(value) && Math.abs(value) > Float.MAX_VALUE)
          : !((name.equals("eta") || name.equals("W")) && value == 0x1p91);
    }
  }

  static final List<Bad> CASES =
      List.of(
          new Bad("scinol2", "S2", -1, "S2 (sum of squared gradients) is finite and >= 0"),
          new Bad(
              "scinol2", "G", Double.POSITIVE_INFINITY, "G (negative sum of gradients) is finite"),
          new Bad("scinol2", "eta", Double.NEGATIVE_INFINITY, "eta (wealth) is finite and within"),
          new Bad("scinol2", "eta", 0x1p91, "eta (wealth) is finite and within"),
          new Bad("scinol2", "M", -0.5, "M (largest |x| seen) is finite and >= 0"),
          new Bad("scinol2", "t", 0, "t (round counter) is finite and >= 1"),
          new Bad("scinol2-stored", "w", Double.POSITIVE_INFINITY, "w (stored weights) is finite"),
          new Bad("scinol1", "S2", -1, "S2 (sum of squared gradients) is finite and >= 0"),
          new Bad("scinol1", "beta", -1, "beta is finite and > 0"),
          new Bad("scinol1", "beta", 0, "beta is finite and > 0"),
          new Bad(
              "scinol1", "G", Double.NEGATIVE_INFINITY, "G (negative sum of gradients) is finite"),
          new Bad("scinol1", "t", 0, "t (round counter) is finite and >= 1"),
          new Bad("adagrad", "Q", -1, "Q (sum of squared gradients) is finite and >= 0"),
          new Bad("adagrad", "w", Double.POSITIVE_INFINITY, "w (weights) is finite"),
          new Bad(
              "adagrad-global",
              "sumSquares",
              -2,
              "sumSquares (sum of squared gradient norms) is finite and >= 0"),
          new Bad("aogd-ball", "Hsum", -1, "Hsum (sum of curvatures) is finite and >= 0"),
          new Bad(
              "aogd-coord",
              "Lsum",
              -1,
              "Lsum (sum of the regularisation weights lambda) is finite and >= 0"),
          new Bad(
              "dfeg",
              "H",
              Double.POSITIVE_INFINITY,
              "H (delta plus the sum of L^2 max(||x||, ||x||^2)) is finite and > 0"),
          new Bad(
              "dfeg",
              "theta",
              Double.POSITIVE_INFINITY,
              "theta (negative sum of gradients) is finite"),
          new Bad("dfeg", "thetaNormSquared", -1, "thetaNormSquared is finite and >= 0"),
          new Bad(
              "ftrl",
              "z",
              Double.POSITIVE_INFINITY,
              "z (sum of gradients minus the proximal corrections) is finite"),
          new Bad("ftrl", "N", -1, "N (sum of squared gradients) is finite and >= 0"),
          new Bad("kt", "theta", Double.NEGATIVE_INFINITY, "theta (sum of coins) is finite"),
          new Bad("kt", "W", -1, "W (wealth) is finite and within [0, "),
          new Bad("kt", "W", 0x1p91, "W (wealth) is finite and within [0, "),
          new Bad("kt", "k", -1, "k (number of nonzero coins) is finite and >= 0"),
          new Bad(
              "freegrad", "G", Double.POSITIVE_INFINITY, "G (sum of clipped gradients) is finite"),
          new Bad(
              "freegrad",
              "Vsum",
              -1,
              "Vsum (first hint squared plus the sum of squared clipped gradients) is finite and >= 0"),
          new Bad("freegrad", "h1", -1, "h1 (first nonzero |g|) is finite and >= 0"),
          new Bad(
              "freegrad",
              "ht",
              Double.NEGATIVE_INFINITY,
              "ht (largest |g| so far) is finite and >= 0"));

  static AbstractOptimizer create(String name, ElementType t) {
    return AllOptimizers.all().stream()
        .filter(n -> n.name().equals(name))
        .findFirst()
        .orElseThrow()
        .create(2, t);
  }

  @Test
  void writeStateAndWriteScalarStateRefuseWithTheInvariant() {
    for (ElementType t : ElementType.values()) {
      for (Bad b : CASES) {
        if (!b.appliesTo(t)) {
          continue;
        }
        try (AbstractOptimizer o = create(b.optimizer(), t)) {
          StateSnapshot before = StateSnapshot.of(o);
          IllegalArgumentException e;
          if (o.scalarState().containsKey(b.name())) {
            e =
                assertThrows(
                    IllegalArgumentException.class,
                    () -> o.writeScalarState(b.name(), b.value()),
                    b::toString);
            assertTrue(
                e.getMessage().startsWith("scalar state '" + b.name() + "' = " + b.value()),
                e.getMessage());
          } else {
            e =
                assertThrows(
                    IllegalArgumentException.class,
                    () -> o.writeState(b.name(), new double[] {0.5, b.value()}),
                    b::toString);
            assertTrue(
                e.getMessage().startsWith("state '" + b.name() + "'[1] = " + b.value()),
                e.getMessage());
          }
          assertTrue(
              e.getMessage().contains("breaks its invariant: " + b.invariant()),
              t + " " + e.getMessage());
          before.assertSame(o, b.toString());
        }
      }
    }
  }

  @Test
  void checkpointLoadRefusesInvariantBreakingValuesDespiteAValidChecksum() throws IOException {
    Path f = dir.resolve("bad.ckpt");
    for (ElementType t : ElementType.values()) {
      for (Bad b : CASES) {
        if (!b.appliesTo(t)) {
          continue;
        }
        try (AbstractOptimizer writer = create(b.optimizer(), t);
            AbstractOptimizer target = create(b.optimizer(), t)) {
          plant(writer, b.name(), b.value());
          Checkpoint.save(writer, f);
          StateSnapshot before = StateSnapshot.of(target);
          CheckpointException e =
              assertThrows(
                  CheckpointException.class, () -> Checkpoint.load(f, target), b::toString);
          String kind =
              writer.scalarState().containsKey(b.name())
                  ? "scalar " + b.name() + " = "
                  : "buffer " + b.name() + "[1] = ";
          assertTrue(e.getMessage().startsWith(f + ": " + kind), e.getMessage());
          assertTrue(
              e.getMessage().contains("breaks its invariant: " + b.invariant()), e.getMessage());
          before.assertSame(target, b.toString());
        }
      }
      // NaN, which writeState already refused, with a valid checksum: DFEG's H and a buffer.
      for (String[] c : new String[][] {{"dfeg", "H"}, {"scinol2", "eta"}, {"adagrad-box", "lo"}}) {
        try (AbstractOptimizer writer = create(c[0], t);
            AbstractOptimizer target = create(c[0], t)) {
          plant(writer, c[1], Double.NaN);
          Checkpoint.save(writer, f);
          CheckpointException e =
              assertThrows(CheckpointException.class, () -> Checkpoint.load(f, target));
          assertTrue(e.getMessage().contains(c[1] + " is not NaN"), e.getMessage());
        }
      }
    }
  }

  /** An interleaved block holds G, S2, M, eta in turn: a bad S2 in it is named as S2[i]. */
  @Test
  void anInterleavedCheckpointNamesTheVariableAndCoordinate() throws IOException {
    assertInterleavedRefused(
        3,
        2,
        1,
        -1.0,
        "S2[2] = -1.0 breaks its invariant: S2 (sum of squared gradients) is finite and >= 0");
  }

  /**
   * A file is checked in chunks of 64 KiB: a broken value in a later chunk is named by its index in
   * the whole buffer and its own variable (interleaved ScInOL2, coordinate 12,345 of 20,000: byte
   * 197,524 of a float block, 395,048 of a double one), and the optimizer stays unchanged.
   */
  @Test
  void aBrokenValueBeyondTheFirstChunkIsNamedByItsPlaceInTheWhole() throws IOException {
    assertInterleavedRefused(
        20_000,
        12_345,
        2,
        -0.5,
        "M[12345] = -0.5 breaks its invariant: M (largest |x| seen) is finite and >= 0");
  }

  /**
   * Interleaved ScInOL2 at dimension {@code d}, in float and double, with {@code value} planted at
   * {@code coordinate}'s variable {@code variable} (0 to 3: G, S2, M, eta), saved: loading it is
   * refused with {@code "buffer " + named}, the target unchanged.
   */
  private void assertInterleavedRefused(
      int d, int coordinate, int variable, double value, String named) throws IOException {
    Path f = dir.resolve("interleaved.ckpt");
    for (ElementType t : ElementType.values()) {
      try (ScInOL2Optimizer writer = interleavedScInOL2(d, t);
          ScInOL2Optimizer target = interleavedScInOL2(d, t)) {
        MemorySegment block =
            ((AbstractOptimizer) writer).stateAccess().buffers().values().iterator().next();
        long at = coordinate * 4L + variable;
        if (t == ElementType.FLOAT) {
          block.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, at, (float) value);
        } else {
          block.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, at, value);
        }
        Checkpoint.save(writer, f);
        StateSnapshot before = StateSnapshot.of(target);
        CheckpointException e =
            assertThrows(CheckpointException.class, () -> Checkpoint.load(f, target));
        assertTrue(e.getMessage().startsWith(f + ": buffer " + named), t + " " + e.getMessage());
        before.assertSame(target, t + " refused");
      }
    }
  }

  private static ScInOL2Optimizer interleavedScInOL2(int d, ElementType t) {
    return new ScInOL2Optimizer(
        d,
        t,
        org.onlinekernels.params.ScInOLParams.defaults(),
        StateLayout.INTERLEAVED,
        null,
        null);
  }

  /** Writes {@code v} behind the API's back: element 1 of a buffer, or a scalar. */
  private static void plant(AbstractOptimizer o, String name, double v) {
    if (o.scalarState().containsKey(name)) {
      o.stateAccess().setScalar(name, v);
      return;
    }
    Map<String, MemorySegment> buffers = o.stateAccess().buffers();
    MemorySegment s = buffers.get(name);
    if (o.stateType(name) == ElementType.FLOAT) {
      s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, 1, (float) v);
    } else {
      s.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, 1, v);
    }
  }
}
