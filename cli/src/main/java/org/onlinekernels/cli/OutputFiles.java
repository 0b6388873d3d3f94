package org.onlinekernels.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Output files of the command line, opened before the work so that a bad path fails first. */
final class OutputFiles {
  private OutputFiles() {}

  /** A UTF-8 writer on {@code file}, or {@code null} for a {@code null} file. */
  static Writer open(Path file) throws IOException {
    return file == null ? null : Files.newBufferedWriter(file, StandardCharsets.UTF_8);
  }

  /** The reason of an I/O failure in a few words (the exception's own message often repeats the path). */
  static String reason(Exception e) {
    Throwable t = e instanceof UncheckedIOException u ? u.getCause() : e;
    if (t instanceof NoSuchFileException) {
      return "no such directory";
    }
    if (t instanceof AccessDeniedException) {
      return "permission denied";
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }
}
