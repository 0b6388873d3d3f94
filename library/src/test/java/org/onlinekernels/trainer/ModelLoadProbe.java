package org.onlinekernels.trainer;

import java.nio.file.Path;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * Loads the model file named by its argument and prints its dimension, or "error: " and the refusal
 * (ModelFileFaultsTest runs it in a small heap).
 */
final class ModelLoadProbe {
  private ModelLoadProbe() {}

  public static void main(String[] args) throws Exception {
    try {
      System.out.println(LinearModel.load(Path.of(args[0])).dimension());
    } catch (LinearModel.ModelFormatException e) {
      System.out.println("error: " + e.getMessage());
    }
  }
}
