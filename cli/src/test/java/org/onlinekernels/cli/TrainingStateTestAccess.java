package org.onlinekernels.cli;

import java.nio.file.Path;

/** Reads a state file's settings in tests. */
final class TrainingStateTestAccess {
  private TrainingStateTestAccess() {}

  static String setting(Path file, String key) {
    try {
      return TrainingState.load(file).get(key);
    } catch (Main.Failure e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }
}
