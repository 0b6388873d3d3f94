package org.onlinekernels.codegen;

/**
 * Statements of one generated body, a line at a time ({@link CoordinateCode} writes them as it
 * binds values), with two-space indentation; the templates ({@link Template}) hold everything
 * around them.
 */
final class JavaWriter {
  private final StringBuilder sb = new StringBuilder();
  private int depth;

  /**
   * Writes a line at the current depth; a line ending in '{' opens a block, one starting with '}'
   * closes it.
   */
  JavaWriter line(String s) {
    if (s.contains("\n")) {
      for (String part : s.split("\n")) {
        line(part);
      }
      return this;
    }
    if (s.startsWith("}")) {
      depth--;
    }
    if (!s.isEmpty()) {
      sb.append("  ".repeat(Math.max(depth, 0)));
    }
    sb.append(s).append('\n');
    if (s.endsWith("{")) {
      depth++;
    }
    return this;
  }

  /** Lines of code (none if {@code s} is empty). */
  JavaWriter code(String s) {
    return s.isEmpty() ? this : line(s);
  }

  @Override
  public String toString() {
    return sb.toString();
  }
}
