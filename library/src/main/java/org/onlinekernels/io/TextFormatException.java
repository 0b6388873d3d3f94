package org.onlinekernels.io;

import java.io.IOException;

/**
 * A line of a text data file (any format a {@link TextFeed} reads) that does not follow its format
 * or a caller's limit. The message is {@code <source>:<line>: <problem>}, to be printed as is.
 */
public final class TextFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  private final long line;
  private final String problem;

  /**
   * @param source the file (or stream) name
   * @param line 1-based physical line number (blank and comment lines count)
   * @param problem what is wrong, without the location
   */
  public TextFormatException(String source, long line, String problem) {
    super(source + ":" + line + ": " + problem);
    this.line = line;
    this.problem = problem;
  }

  /** 1-based physical line number. */
  public long line() {
    return line;
  }

  /** What is wrong with the line, without the location prefix. */
  public String problem() {
    return problem;
  }
}
