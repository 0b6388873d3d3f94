package org.onlinekernels.io;

import java.io.IOException;

/**
 * A line of a LIBSVM/svmlight file that does not follow the format. The message has the form {@code
 * <source>:<line>: <problem>}, e.g. {@code breast_cancer.svm:17: index 3 after 5: indices must be
 * strictly increasing}, so that it can be printed as is. It extends {@link IOException} because a
 * bad file is an input problem the caller should expect and report, not a programming error.
 */
public final class LibSvmFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String source;
  private final int line;
  private final String problem;

  /**
   * @param source the file (or stream) name as given to the reader
   * @param line 1-based physical line number
   * @param problem what is wrong, without the location
   */
  public LibSvmFormatException(String source, int line, String problem) {
    super(source + ":" + line + ": " + problem);
    this.source = source;
    this.line = line;
    this.problem = problem;
  }

  /** The file (or stream) name as given to the reader. */
  public String source() {
    return source;
  }

  /** 1-based physical line number (blank and comment lines count). */
  public int line() {
    return line;
  }

  /** What is wrong with the line, without the location prefix. */
  public String problem() {
    return problem;
  }
}
