package org.onlinekernels.trainer;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A rule's arithmetic refusing the data ({@link ArithmeticException}: global AdaGrad's rate, DFEG's
 * {@code exp}, Adaptive OGD's sum) stops training as a refused input does, through the trainer's
 * refusal (epoch and position), instead of escaping as an unexplained exception (the command line
 * reported it as an internal error).
 */
class BlockLoopTest {
  @Test
  void anArithmeticRefusalStopsTrainingThroughTheRefusal() {
    ArithmeticException overflow = new ArithmeticException("rate overflows the float range");
    BlockLoop loop =
        new BlockLoop(
            1,
            false,
            1,
            (epoch, position, cause) ->
                new OnlineTrainer.TrainingException(epoch, position + 1, cause));
    double[] labels = {1, -1, 1};
    int[] order = {0, 1, 2};
    OnlineTrainer.TrainingException e =
        assertThrows(
            OnlineTrainer.TrainingException.class,
            () ->
                loop.run(
                    labels,
                    order,
                    0,
                    3,
                    BlockLoop.BLOCK,
                    2,
                    (c, from, to, y, yhat, losses) -> {
                      throw overflow;
                    }));
    assertSame(overflow, e.getCause());
    assertTrue(
        e.getMessage().startsWith("training stopped at epoch 2, example 1: "), e.getMessage());
  }

  @Test
  void theParallelTrainersRefusalNamesEpochAndPosition() {
    BlockLoop loop = new BlockLoop(1, false, 1, BlockLoop.IN_ORDER);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                loop.run(
                    new double[] {1, 1},
                    new int[] {0, 1},
                    0,
                    2,
                    BlockLoop.BLOCK,
                    1,
                    (c, from, to, y, yhat, losses) -> {
                      throw new ArithmeticException("exp overflows");
                    }));
    assertTrue(
        e.getMessage()
            .equals("training stopped at epoch 1, example 1 of the epoch's order: exp overflows"),
        e.getMessage());
  }
}
