package org.onlinekernels.io;

import java.io.IOException;

/**
 * A data file that could not be read, for any reason (missing, a directory, no permission, a
 * malformed line, corrupt gzip data). The message is one line naming the file and the reason, e.g.
 * {@code cannot read data.svm: no such file} or {@code data.svm:17: index 3 after 5: indices must
 * be strictly increasing}, so that it can be shown to a user as it is; the original exception is
 * the cause.
 */
public final class DataFileException extends IOException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message one line naming the file and the reason
   * @param cause what the reader or the file system threw, or {@code null}
   */
  public DataFileException(String message, Throwable cause) {
    super(message, cause);
  }
}
