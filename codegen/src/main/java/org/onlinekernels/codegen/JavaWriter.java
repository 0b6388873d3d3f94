package org.onlinekernels.codegen;

/** Java text with two-space indentation, a line at a time. */
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

  JavaWriter blank() {
    sb.append('\n');
    return this;
  }

  /** A one-line javadoc. */
  JavaWriter doc(String s) {
    return line("/** " + s + " */");
  }

  @Override
  public String toString() {
    return sb.toString();
  }
}
