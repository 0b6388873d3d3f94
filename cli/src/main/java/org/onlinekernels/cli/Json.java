package org.onlinekernels.cli;

import java.util.Locale;

/**
 * A minimal JSON object writer for the {@code --json} summaries: string, number (non-finite written
 * as {@code null}), boolean and nested objects, in insertion order. Hand-written because the
 * library has no runtime dependencies and the summaries are flat.
 */
final class Json {
  private final StringBuilder sb = new StringBuilder("{");
  private boolean first = true;

  private Json key(String k) {
    if (!first) {
      sb.append(", ");
    }
    first = false;
    str(k);
    sb.append(": ");
    return this;
  }

  private void str(String s) {
    sb.append('"');
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }

  Json put(String k, String v) {
    key(k);
    if (v == null) {
      sb.append("null");
    } else {
      str(v);
    }
    return this;
  }

  Json put(String k, double v) {
    key(k);
    sb.append(
        Double.isFinite(v)
            ? (v == Math.rint(v) && Math.abs(v) < 1e15
                ? Long.toString((long) v)
                : Double.toString(v))
            : "null");
    return this;
  }

  Json put(String k, boolean v) {
    key(k);
    sb.append(v);
    return this;
  }

  Json put(String k, Json v) {
    key(k);
    sb.append(v == null ? "null" : v.toString());
    return this;
  }

  Json put(String k, java.util.List<Json> v) {
    key(k);
    if (v == null) {
      sb.append("null");
      return this;
    }
    sb.append('[');
    for (int i = 0; i < v.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(v.get(i));
    }
    sb.append(']');
    return this;
  }

  @Override
  public String toString() {
    return sb + "}";
  }
}
