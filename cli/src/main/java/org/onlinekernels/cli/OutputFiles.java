package org.onlinekernels.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.onlinekernels.cli.Main.Failure;
import org.onlinekernels.cli.Options.UsageException;
import org.onlinekernels.io.AtomicFiles;

/** Output files of the command line, opened before the work so that a bad path fails first. */
final class OutputFiles {
  private OutputFiles() {}

  /** A UTF-8 writer on {@code file}, or {@code null} for a {@code null} file. */
  static Writer open(Path file) throws IOException {
    return file == null ? null : Files.newBufferedWriter(file, StandardCharsets.UTF_8);
  }

  /**
   * The reason of an I/O failure in a few words (the exception's own message often repeats the
   * path).
   */
  static String reason(Exception e) {
    Throwable t = e instanceof UncheckedIOException u ? u.getCause() : e;
    if (t instanceof NoSuchFileException) {
      return "no such directory";
    }
    if (t instanceof IOException io) {
      return AtomicFiles.reason(io); // without the path ("cannot write .: .: Is a directory")
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }

  /**
   * Refuses an output path that names one of the inputs (the same file by any spelling or link):
   * {@code train --data v.svm --model v.svm} would replace the data by a model.
   *
   * @param inputs flag, path pairs; a null path is skipped
   */
  static void refuseOverwritingAnInput(String outFlag, Path out, Object... inputs)
      throws UsageException {
    for (int k = 0; k < inputs.length; k += 2) {
      Path in = (Path) inputs[k + 1];
      if (in != null && sameFile(out, in)) {
        throw new UsageException(
            outFlag
                + " "
                + out
                + " is the "
                + inputs[k]
                + " file: refusing to overwrite an input;"
                + " choose another output path");
      }
    }
  }

  /**
   * Whether two paths name one file: by any spelling, link (a dangling one too: writing through it
   * creates its target) or hard link.
   */
  static boolean sameFile(Path a, Path b) {
    try {
      if (Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b)) {
        return true;
      }
      return resolved(a).equals(resolved(b));
    } catch (IOException e) {
      return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }
  }

  /**
   * The file a write to {@code p} reaches: links followed (up to 40, as the kernel does), the rest
   * made real.
   */
  private static Path resolved(Path p) throws IOException {
    p = p.toAbsolutePath().normalize();
    for (int hops = 0; hops < 40 && Files.isSymbolicLink(p); hops++) {
      p = p.getParent().resolve(Files.readSymbolicLink(p)).normalize();
    }
    if (Files.exists(p)) {
      return p.toRealPath();
    }
    Path parent = p.getParent();
    return parent != null && Files.isDirectory(parent)
        ? parent.toRealPath().resolve(p.getFileName())
        : p;
  }

  /**
   * Refuses an output file that is also the {@code --progressive-out} file: one would replace the
   * other.
   */
  static void refuseSameFileAsProgressive(Path progressiveOut, String flag, Path file, String what)
      throws UsageException {
    if (progressiveOut != null && file != null && OutputFiles.sameFile(progressiveOut, file)) {
      throw new UsageException(
          "--progressive-out and "
              + flag
              + " are the same file "
              + file
              + ": the "
              + what
              + " would replace the predictions; choose two paths");
    }
  }

  /**
   * Checks before the work that {@code file}, which is written through (not replaced: {@code
   * predict --out}), can be written: an existing file (a device or a FIFO too) writable, or a new
   * file's directory.
   */
  static void checkWritableThrough(Path file) throws Failure {
    try {
      if (Files.exists(file) && !Files.isDirectory(file)) {
        if (!Files.isWritable(file)) {
          throw new Failure("cannot write " + file + ": permission denied");
        }
        return;
      }
      AtomicFiles.checkWritable(file); // a directory, or a new file: as a replaced one
    } catch (IOException e) {
      throw new Failure(e.getMessage());
    }
  }

  /** Refuses an output that names an input, and one that cannot be written, before any work. */
  static void checkOutput(String flag, Path file, Object... inputs) throws UsageException, Failure {
    if (file == null) {
      return;
    }
    OutputFiles.refuseOverwritingAnInput(flag, file, inputs);
    try {
      AtomicFiles.checkWritable(file); // before training, not after it
    } catch (IOException e) {
      throw new Failure(e.getMessage());
    }
  }
}
