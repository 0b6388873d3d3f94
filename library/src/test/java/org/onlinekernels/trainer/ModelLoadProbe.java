package org.onlinekernels.trainer;

import java.nio.file.Path;

/** Loads the model file named by its argument and prints its dimension (ModelFileFaultsTest runs it in a small heap). */
final class ModelLoadProbe {
  private ModelLoadProbe() {}

  public static void main(String[] args) throws Exception {
    System.out.println(LinearModel.load(Path.of(args[0])).dimension());
  }
}
