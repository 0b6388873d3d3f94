package org.onlinekernels.codegen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes generated files. */
final class GeneratedFiles {
  private GeneratedFiles() {}

  /**
   * Writes {@code text} to {@code target} (creating its folder) unless the file already holds it:
   * an unchanged file keeps its time stamp, so incremental compilation stays incremental. Returns
   * whether it wrote.
   */
  static boolean write(Path target, String text) throws IOException {
    Files.createDirectories(target.toAbsolutePath().getParent());
    if (Files.exists(target) && Files.readString(target, StandardCharsets.UTF_8).equals(text)) {
      return false;
    }
    Files.writeString(target, text, StandardCharsets.UTF_8);
    return true;
  }
}
