package org.onlinekernels.optimizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.foreign.Arena;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.kernel.ElementType;
import org.onlinekernels.optimizer.checkpoint.CheckpointTest;

/**
 * docs/GUARANTEES.md, input policy: the scan of {@link InputPolicy#CHECKED} only refuses, it never
 * changes a result. On clean input (heart_scale's first {@value #ROWS} rows) every optimizer, float
 * and double, gives the same predictions, bit for bit, and ends in the same state under {@link
 * InputPolicy#TRUSTED} as under {@code CHECKED}, on sparse rows and on dense ones.
 */
class InputPolicyBitsTest {
  /** Rows trained: enough for every rule's state to move in every coordinate heart_scale uses. */
  private static final int ROWS = 60;

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("org.onlinekernels.optimizer.checkpoint.CheckpointTest#cases")
  void trustedAndCheckedGiveTheSameBitsOnCleanInput(AllOptimizers.Named n, ElementType t)
      throws IOException {
    SparseDataset ds = CheckpointTest.data();
    try (Arena a = Arena.ofConfined();
        AbstractOptimizer checked = n.create(ds.dimension(), t);
        AbstractOptimizer trusted = n.create(ds.dimension(), t);
        AbstractOptimizer checkedDense = n.create(CheckpointTest.DENSE_D, t);
        AbstractOptimizer trustedDense = n.create(CheckpointTest.DENSE_D, t)) {
      assertEquals(InputPolicy.CHECKED, checked.inputPolicy());
      trusted.setInputPolicy(InputPolicy.TRUSTED);
      trustedDense.setInputPolicy(InputPolicy.TRUSTED);
      assertArrayEquals(
          CheckpointTest.run(checked, ds, 0, ROWS, a),
          CheckpointTest.run(trusted, ds, 0, ROWS, a),
          "sparse predictions");
      StateSnapshot.of(checked).assertSame(trusted, "sparse state");
      assertArrayEquals(
          CheckpointTest.runDense(checkedDense, ds, 0, ROWS, a),
          CheckpointTest.runDense(trustedDense, ds, 0, ROWS, a),
          "dense predictions");
      StateSnapshot.of(checkedDense).assertSame(trustedDense, "dense state");
    }
  }
}
