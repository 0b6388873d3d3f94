package org.onlinekernels.trainer.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.onlinekernels.data.SparseDataset;
import org.onlinekernels.io.DataFiles;
import org.onlinekernels.trainer.AlgorithmSpec;
import org.onlinekernels.trainer.TrainResult;
import org.onlinekernels.trainer.TrainerConfig;
import org.onlinekernels.trainer.TrainingMode;

/**
 * Found measuring issue 22's loss margins: two threads of global AdaGrad on shuttle were refused in
 * most runs ("rate ... overflows the float range (sumSquares = 1.6e-81)"). A view that started
 * while another was still in the fit's first block had no shared scalars yet: its own sum of
 * squares began at the near-zero gradients of weights the other view had already made confident.
 * The fit's first block is now trained alone. Without that, this test fails in most runs (each of
 * the repetitions below must pass).
 */
class SharedStateFirstBlockTest {
  private static Path data(String name) {
    Path p = Path.of(System.getProperty("onlinekernels.data", "../data")).resolve(name);
    assertTrue(Files.isRegularFile(p), "missing test input " + p.toAbsolutePath());
    return p;
  }

  @Test
  void globalAdaGradOnTwoThreadsIsNeverRefusedOnShuttle() throws Exception {
    SparseDataset shuttle = DataFiles.readLibSvm(data("shuttle.train.svm"), 0);
    TrainerConfig c =
        TrainerConfig.of(AlgorithmSpec.of("adagrad-global")).withShuffle(false, 1).withEpochs(3);
    for (int run = 0; run < 6; run++) {
      TrainResult r = ParallelTraining.train(c, 2, TrainingMode.SHARED, 0, shuttle, null);
      assertEquals(TrainingMode.SHARED, r.mode());
      assertTrue(Double.isFinite(r.progressive().meanLoss()), "run " + run);
    }
  }
}
