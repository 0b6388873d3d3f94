package org.onlinekernels.io;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.ZipException;
import org.onlinekernels.data.SparseDataset;

/**
 * Reading a LIBSVM/svmlight file by path for an application (the command line, the experiments, the
 * Spark benchmarks): {@link LibSvmReader}'s format and limits, with every failure turned into one
 * {@link DataFileException} whose message is the line to show a user.
 */
public final class DataFiles {
  private DataFiles() {}

  /**
   * Reads {@code file} (plain or gzip) whose dimension is at least {@code minDimension}.
   *
   * @throws DataFileException naming the file and the reason (and the line of a malformed one)
   */
  public static SparseDataset readLibSvm(Path file, int minDimension) throws DataFileException {
    return readLibSvm(file, minDimension, LibSvmReader.Limits.NONE);
  }

  /**
   * Reads {@code file} (plain or gzip) whose dimension is at least {@code minDimension}, within
   * {@code limits}.
   *
   * @throws DataFileException naming the file and the reason (and the line of a malformed one or of
   *     one beyond a limit)
   */
  public static SparseDataset readLibSvm(Path file, int minDimension, LibSvmReader.Limits limits)
      throws DataFileException {
    if (Files.isDirectory(file)) {
      throw new DataFileException("cannot read " + file + ": it is a directory", null);
    }
    try {
      return LibSvmReader.read(file, minDimension, limits);
    } catch (LibSvmFormatException | ZipException e) {
      throw new DataFileException(e.getMessage(), e); // names the file and the line or byte offset
    } catch (NoSuchFileException e) {
      throw new DataFileException("cannot read " + file + ": no such file", e);
    } catch (AccessDeniedException e) {
      throw new DataFileException("cannot read " + file + ": permission denied", e);
    } catch (IOException e) {
      throw new DataFileException("cannot read " + file + ": " + AtomicFiles.reason(e), e);
    }
  }
}
