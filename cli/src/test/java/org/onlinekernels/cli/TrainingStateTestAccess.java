package org.onlinekernels.cli;

import java.nio.file.Path;
import java.util.List;

/** Reads a state file's settings and optimizer images in tests. */
final class TrainingStateTestAccess {
  private TrainingStateTestAccess() {}

  /** Each output's optimizer state, as the checkpoint image the file holds. */
  static List<byte[]> images(Path file) {
    try {
      return TrainingState.load(file).optimizers();
    } catch (Main.Failure e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  static String setting(Path file, String key) {
    try {
      return TrainingState.load(file).get(key);
    } catch (Main.Failure e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }
}
