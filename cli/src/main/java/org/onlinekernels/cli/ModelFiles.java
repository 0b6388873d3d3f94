package org.onlinekernels.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.io.AtomicFiles;
import org.onlinekernels.trainer.model.LinearModel;

/**
 * The models {@code predict} and {@code serve} apply: a model file ({@code train --model}) or a
 * state file ({@code train --save-state}), told apart by their first bytes. A state file also gives
 * the settings the model was trained with (input format, hashing, namespaces, labels,
 * normalization), which then apply.
 */
final class ModelFiles {
  private ModelFiles() {}

  /**
   * A loaded model and, for a state file, its settings and state.
   *
   * @param settings null for a model file
   * @param state null for a model file
   */
  record Loaded(LinearModel model, RunSettings settings, TrainingState state) {}

  /** Loads {@code file}; every failure is one line naming the file. */
  static Loaded load(Path file) throws Failure {
    if (TrainingState.isStateFile(file)) {
      TrainingState state = TrainingState.load(file);
      RunSettings s = RunSettings.of(state, file);
      try (Learner l = Learner.resume(state, s, s.config(1, 1, false), file)) {
        return new Loaded(l.model(), s, state);
      }
    }
    try {
      return new Loaded(LinearModel.load(file), null, null);
    } catch (NoSuchFileException e) {
      throw new Failure("cannot read " + file + ": no such file");
    } catch (LinearModel.ModelFormatException e) {
      throw new Failure(e.getMessage());
    } catch (IOException e) {
      throw new Failure(
          "cannot read "
              + file
              + ": "
              + (Files.isDirectory(file) ? "it is a directory" : AtomicFiles.reason(e)));
    }
  }

  /**
   * The input format for data scored by {@code loaded}: a state's own, the flags' otherwise,
   * checked against the model's dimension.
   */
  static InputFormat format(Loaded loaded, InputFormat flags, Options o, Path modelFile, Path data)
      throws Failure, Options.UsageException {
    LinearModel model = loaded.model();
    if (loaded.settings() != null) {
      ResumeChecks.requireSame(
          o, ResumeChecks.Requested.of(loaded.settings(), flags, o), loaded.settings(), modelFile);
      return loaded.settings().input();
    }
    if (flags.isVw(data) && flags.bits() != 0 && 1L << flags.bits() != model.dimension()) {
      throw new Failure(
          modelFile
              + " has d = "
              + model.dimension()
              + " weights, but --bits "
              + flags.bits()
              + " hashes into 2^"
              + flags.bits());
    }
    if (flags.isVw(data) && flags.bits() == 0 && InputFormat.bitsOf(model.dimension()) == 0) {
      throw new Failure(
          modelFile
              + " has d = "
              + model.dimension()
              + " weights, not a power of two: it was not"
              + " trained on hashed (vw) data");
    }
    return flags;
  }
}
